import Foundation
import HTTPTypes
import Hummingbird
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

/// The versioned JSON API: argv arrays, env and cwd, waits with timeouts, followed output.
extension Routes {
    func registerV1(on router: Router<HostRequestContext>) {
        typealias V1 = HostAPI.Routes.V1
        router.on(V1.health) { _, _ in
            Response.json(HostAPI.HealthResponse(status: "ok", version: TunnelHost.version, running: await table.runningCount))
        }
        router.on(V1.commands) { _, _ in
            Response.json(HostAPI.CommandListResponse(commands: await table.list().map { HostAPI.CommandInfo($0) }))
        }
        router.on(V1.create) { request, context in try await createCommand(request, context) }
        router.on(V1.command) { request, context in
            let id = try commandID(context)
            guard let snapshot = await table.snapshot(id, output: .streams) else { throw CommandTable.notFound(id) }
            return Response.json(HostAPI.CommandInfo(snapshot))
        }
        router.on(V1.remove) { request, context in
            let id = try commandID(context)
            guard let snapshot = await table.snapshot(id, output: .none) else { throw CommandTable.notFound(id) }
            guard snapshot.isFinished else {
                throw APIError(
                    .conflict,
                    "command \(id.uuidString) is still running (pid \(snapshot.pid ?? 0)); POST \(V1.terminate.path(id.uuidString))?wait=true first"
                )
            }
            await table.remove(id)
            return Response(status: .noContent)
        }
        router.on(V1.output) { request, context in try await output(request, context) }
        router.on(V1.interrupt) { request, context in try await signal(request, context, SIGINT) }
        router.on(V1.terminate) { request, context in try await signal(request, context, SIGTERM) }
    }

    private func commandID(_ context: HostRequestContext) throws -> UUID {
        let raw = context.parameters.get("id") ?? ""
        guard let id = UUID(uuidString: raw) else {
            throw APIError(
                .badRequest, "'\(raw)' is not a command id: use the UUID returned by POST /v1/commands (GET /v1/commands lists them)")
        }
        return id
    }

    private func createCommand(_ request: Request, _ context: HostRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(
            HostAPI.CreateCommandRequest.self,
            example: HostAPI.CreateCommandRequest.example + " (only argv is required)")
        if let timeout = body.timeout, let problem = HostAPI.waitLimit.problem(with: timeout) {
            throw APIError(.badRequest, "'timeout' \(problem)")
        }
        let started = try await table.launch(argv: body.argv, environment: body.env, workingDirectory: body.cwd, kind: .api)
        guard body.wait == true else {
            var response = Response.json(HostAPI.CommandInfo(started), status: .created)
            response.headers[.location] = HostAPI.Routes.V1.command.path(started.id.uuidString)
            return response
        }
        var timedOut: Bool? = nil
        var finished = await waitForExitOrDisconnect(started.id, timeout: body.timeout.map { .seconds($0) }, context: context)
        if let snapshot = finished, !snapshot.isFinished {
            timedOut = true
            finished = try await stop(started.id, signal: SIGTERM, timeout: configuration.gracePeriod)
        }
        guard let finished else { throw CommandTable.notFound(started.id) }
        return Response.json(HostAPI.CommandInfo(finished, timedOut: timedOut))
    }

    private func signal(_ request: Request, _ context: HostRequestContext, _ signal: Int32) async throws -> Response {
        let id = try commandID(context)
        let query = request.uri.queryParameters
        let wait = Self.flag(query.get("wait"))
        let timeout = try Self.timeout(in: query, default: configuration.signalWait)
        let name = CommandTable.signalName(signal)
        if !wait {
            switch try await table.signal(id, signal) {
            case .alreadyFinished(let snapshot):
                throw Self.alreadyFinished(snapshot, name)
            case .sent(let snapshot):
                return Response.json(HostAPI.CommandInfo(snapshot), status: .accepted)
            }
        }
        guard let current = await table.snapshot(id, output: .none) else { throw CommandTable.notFound(id) }
        if current.isFinished { throw Self.alreadyFinished(current, name) }
        guard let finished = try await stop(id, signal: signal, timeout: timeout) else { throw CommandTable.notFound(id) }
        return Response.json(HostAPI.CommandInfo(finished))
    }

    private static func alreadyFinished(_ snapshot: CommandSnapshot, _ signalName: String) -> APIError {
        let how: String
        switch snapshot.termination {
        case .exited(let code)?: how = "exited with status \(code)"
        case .signaled(let signal)?: how = "was ended by \(CommandTable.signalName(signal))"
        case nil: how = "finished"
        }
        return APIError(
            .conflict,
            "command \(snapshot.id.uuidString) already \(how); there is nothing to send \(signalName) to (GET \(HostAPI.Routes.V1.command.path(snapshot.id.uuidString)) has its output)"
        )
    }

    private func output(_ request: Request, _ context: HostRequestContext) async throws -> Response {
        let id = try commandID(context)
        let query = request.uri.queryParameters
        let follow = Self.flag(query.get("follow"))
        let stream: OutputStream?
        if let raw = query.get("stream"), raw != "both" {
            guard let chosen = OutputStream(rawValue: raw) else {
                throw APIError(.badRequest, "stream must be stdout, stderr or both, got '\(raw)'")
            }
            stream = chosen
        } else {
            stream = nil
        }
        if let until = query.get("until") {
            guard !until.isEmpty, !follow else {
                throw APIError(
                    .badRequest,
                    until.isEmpty
                        ? "'until' is the text to wait for in the output, e.g. ?until=Recording%20started; it is empty"
                        : "'until' and 'follow' cannot go together: follow streams the output until the command finishes")
            }
            let timeout = try Self.timeout(in: query, default: .seconds(30))
            guard await table.waitForOutput(id, containing: Array(until.utf8), of: stream, timeout: timeout) else {
                throw CommandTable.notFound(id)
            }
        }
        guard let first = await table.output(id, from: 0, of: stream) else { throw CommandTable.notFound(id) }
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        headers[.cacheControl] = "no-store"
        guard follow else {
            var buffer = ByteBuffer()
            for chunk in first.chunks { buffer.writeBytes(chunk) }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: buffer))
        }
        let table = self.table
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                var slice = first
                while true {
                    for chunk in slice.chunks { try await writer.write(ByteBuffer(bytes: chunk)) }
                    if slice.finished && slice.chunks.isEmpty { break }
                    if slice.chunks.isEmpty {
                        await table.waitForChange(id, since: slice.version, timeout: .seconds(30))
                    }
                    guard let next = await table.output(id, from: slice.next, of: stream) else { break }
                    slice = next
                }
                try await writer.finish(nil)
            })
    }

    /// The `timeout` query parameter, or `fallback` without one; a 400 naming it when it is no
    /// number of seconds in range.
    private static func timeout(in query: Parameters, default fallback: Duration) throws -> Duration {
        guard let raw = query.get("timeout") else { return fallback }
        if let problem = HostAPI.waitLimit.problem(withText: raw) { throw APIError(.badRequest, "'timeout' \(problem)") }
        return .seconds(Double(raw)!)
    }

    private static func flag(_ value: String?) -> Bool {
        guard let value = value?.lowercased() else { return false }
        return value == "" || value == "true" || value == "1" || value == "yes"
    }
}
