import Foundation
import Hummingbird
import Logging
import NIOCore
import ShowreelHTTP
import ShowreelWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The SBTUITestTunnelHost endpoints, byte-compatible with its iOS client: POST with a
/// form-urlencoded body whose `command` is base64 of a command line (exec, launch) or an id.
extension Routes {
    private typealias Legacy = HostAPI.Routes.Legacy

    func registerLegacy(on router: Router<HostRequestContext>) {
        router.on(Legacy.exec) { request, context in try await legacyExec(request, context) }
        router.on(Legacy.launch) { request, context in try await legacyLaunch(request, context) }
        router.on(Legacy.status) { request, context in try await legacyStatus(request, context, signal: nil) }
        router.on(Legacy.interrupt) { request, context in try await legacyStatus(request, context, signal: SIGINT) }
        router.on(Legacy.terminate) { request, context in try await legacyStatus(request, context, signal: SIGTERM) }
    }

    /// Reads the form body and its `command` field, answering 400 with what to send instead.
    private func legacyForm(_ request: Request, _ context: HostRequestContext, route: Route) async throws -> (LegacyForm, String) {
        let example =
            route == Legacy.exec || route == Legacy.launch
            ? "command=<base64 of the UTF-8 command line>, e.g. command=ZWNobyBoZWxsbw== for 'echo hello'"
            : "command=<the UUID returned by /launch>"
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: Request.bodyLimit)
        } catch {
            throw APIError(
                .badRequest, "request body too large or unreadable: \(route.template) takes a small form-urlencoded body with \(example)")
        }
        let body = Array(buffer.readableBytesView)
        if let contentType = request.headers[.contentType], contentType.lowercased().contains("json") {
            throw APIError(
                .badRequest,
                "\(route.template) takes a form-urlencoded body (\(example)), not JSON; for a JSON API use \(HostAPI.Routes.V1.create)")
        }
        let form = LegacyForm(body: body)
        guard let command = form["command"] else {
            let problem = body.isEmpty ? "the request body is empty" : "the form has no 'command' field"
            throw APIError(.badRequest, "\(problem): \(route) with a form-urlencoded body: \(example)")
        }
        logger.debug(
            "legacy request",
            metadata: [
                "endpoint": "\(route.template)",
                "app_frame": "\(form["app_frame"] ?? "-")",
                "simulator_device_name": "\(form["simulator_device_name"] ?? "-")",
                "simulator_device_runtime": "\(form["simulator_device_runtime"] ?? "-")",
            ])
        return (form, command)
    }

    private func legacyCommandLine(_ request: Request, _ context: HostRequestContext, route: Route) async throws -> (
        line: String, argv: [String]
    ) {
        let (_, encoded) = try await legacyForm(request, context, route: route)
        guard let line = LegacyForm.decodeBase64Command(encoded) else {
            throw APIError(
                .badRequest,
                "the 'command' field is not valid base64 of UTF-8 text: send command=<base64 of the command line>, e.g. command=ZWNobyBoZWxsbw== for 'echo hello'"
            )
        }
        do {
            return (line, try ShellWords.split(line))
        } catch {
            throw APIError(.badRequest, "cannot split the command line \(ShellWords.quote(line)): \(error.message)")
        }
    }

    private func legacyExec(_ request: Request, _ context: HostRequestContext) async throws -> Response {
        let (line, argv) = try await legacyCommandLine(request, context, route: Legacy.exec)
        // An empty command is how the iOS client's connect() checks that the host is there.
        guard !argv.isEmpty else { return Response.json(HostAPI.LegacyResultResponse(result: "", status: 1)) }
        let started: CommandSnapshot
        do {
            started = try await table.launch(argv: argv, kind: .exec)
        } catch let error as CommandTableError where error.kind != .invalidArguments {
            logger.notice("exec failed to start", metadata: ["command": "\(line)", "error": "\(error.message)"])
            return Response.json(HostAPI.LegacyResultResponse(result: "error: \(error.message)", status: -1))
        }
        let finished = await waitForExitOrDisconnect(started.id, output: .combined, context: context)
        await table.remove(started.id)
        return Response.json(
            encoded: WireJSON.legacyResult(
                prefix: LegacyOutput.marker(dropped: finished?.droppedBytes ?? 0), text: finished?.combined ?? "", status: 1))
    }

    private func legacyLaunch(_ request: Request, _ context: HostRequestContext) async throws -> Response {
        let (line, argv) = try await legacyCommandLine(request, context, route: Legacy.launch)
        guard !argv.isEmpty else {
            throw APIError(.badRequest, "the command line is empty: send command=<base64 of the command line to launch>")
        }
        do {
            let started = try await table.launch(argv: argv, kind: .launch)
            return Response.json(HostAPI.LegacyResultResponse(result: started.id.uuidString, status: 1))
        } catch let error as CommandTableError where error.kind != .invalidArguments {
            logger.notice("launch failed to start", metadata: ["command": "\(line)", "error": "\(error.message)"])
            return Response.json(HostAPI.LegacyResultResponse(result: "error: \(error.message)", status: -1))
        }
    }

    /// `/status`, and `/interrupt` / `/terminate` when `signal` is set. Unlike the original,
    /// interrupt and terminate wait (up to `signalWait`) for the command to exit, so the
    /// answer is normally the final status and a recording is complete when it arrives.
    private func legacyStatus(_ request: Request, _ context: HostRequestContext, signal: Int32?) async throws -> Response {
        let route = signal == nil ? Legacy.status : (signal == SIGINT ? Legacy.interrupt : Legacy.terminate)
        let (_, field) = try await legacyForm(request, context, route: route)
        let trimmed = field.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let id = UUID(uuidString: trimmed) else {
            throw APIError(
                .badRequest,
                "the 'command' field of \(route.template) must be the UUID returned by \(Legacy.launch.template), got '\(trimmed)'")
        }
        if let signal {
            switch try await table.signal(id, signal) {
            case .alreadyFinished(let snapshot):
                return Response.json(HostAPI.LegacyStatusResponse(snapshot))
            case .sent:
                guard let snapshot = await table.waitForExit(id, timeout: configuration.signalWait) else {
                    throw CommandTable.notFound(id)
                }
                if !snapshot.isFinished {
                    logger.notice(
                        "command still running after \(CommandTable.signalName(signal))",
                        metadata: ["id": "\(id)", "waited": "\(configuration.signalWait)"])
                }
                return Response.json(HostAPI.LegacyStatusResponse(snapshot))
            }
        }
        guard let snapshot = await table.snapshot(id, output: .streams) else { throw CommandTable.notFound(id) }
        return Response.json(HostAPI.LegacyStatusResponse(snapshot))
    }
}
