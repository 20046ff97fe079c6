import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

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
        router.get("v1/health") { _, _ in
            json(HealthResponse(status: "ok", version: TunnelHost.version, running: await table.runningCount))
        }
        router.get("v1/commands") { _, _ in
            json(CommandListResponse(commands: await table.list().map { CommandInfo($0) }))
        }
        router.post("v1/commands") { request, context in try await createCommand(request, context) }
        router.get("v1/commands/:id") { request, context in
            let id = try commandID(context)
            guard let snapshot = await table.snapshot(id, output: .streams) else { throw CommandTable.notFound(id) }
            return json(CommandInfo(snapshot))
        }
        router.delete("v1/commands/:id") { request, context in
            let id = try commandID(context)
            guard let snapshot = await table.snapshot(id, output: .none) else { throw CommandTable.notFound(id) }
            guard snapshot.isFinished else {
                throw CommandError(.conflict, "command \(id.uuidString) is still running (pid \(snapshot.pid ?? 0)); POST /v1/commands/\(id.uuidString)/terminate?wait=true first")
            }
            await table.remove(id)
            return Response(status: .noContent)
        }
        router.get("v1/commands/:id/output") { request, context in try await output(request, context) }
        router.post("v1/commands/:id/interrupt") { request, context in try await signal(request, context, SIGINT) }
        router.post("v1/commands/:id/terminate") { request, context in try await signal(request, context, SIGTERM) }
    }

    private func commandID(_ context: HostRequestContext) throws -> UUID {
        let raw = context.parameters.get("id") ?? ""
        guard let id = UUID(uuidString: raw) else {
            throw CommandError(.badRequest, "'\(raw)' is not a command id: use the UUID returned by POST /v1/commands (GET /v1/commands lists them)")
        }
        return id
    }

    private static let createExample = #"{"argv": ["echo", "hello"], "env": {"NAME": "value"}, "cwd": "/tmp", "wait": false}"#

    private func createCommand(_ request: Request, _ context: HostRequestContext) async throws -> Response {
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: Self.maxBodySize)
        } catch {
            throw CommandError(.badRequest, "request body too large or unreadable; send a JSON object like \(Self.createExample)")
        }
        let data = Data(buffer.readableBytesView)
        let body: CreateCommandRequest
        do {
            body = try JSONDecoder().decode(CreateCommandRequest.self, from: data)
        } catch {
            throw CommandError(.badRequest, "invalid JSON body (\(Self.describe(decodingError: error))); send an object like \(Self.createExample) (only argv is required)")
        }
        if let timeout = body.timeout, !(timeout > 0) {
            throw CommandError(.badRequest, "timeout must be a positive number of seconds, got \(timeout)")
        }
        let started = try await table.launch(argv: body.argv, environment: body.env, workingDirectory: body.cwd, kind: .api)
        guard body.wait == true else {
            var response = json(CommandInfo(started), status: .created)
            response.headers[.location] = "/v1/commands/\(started.id.uuidString)"
            return response
        }
        var timedOut: Bool? = nil
        var finished = await waitForExitOrDisconnect(started.id, timeout: body.timeout.map { .seconds($0) }, context: context)
        if let snapshot = finished, !snapshot.isFinished {
            timedOut = true
            finished = try await stop(started.id, signal: SIGTERM, timeout: configuration.gracePeriod)
        }
        guard let finished else { throw CommandTable.notFound(started.id) }
        return json(CommandInfo(finished, timedOut: timedOut))
    }

    private func signal(_ request: Request, _ context: HostRequestContext, _ signal: Int32) async throws -> Response {
        let id = try commandID(context)
        let query = request.uri.queryParameters
        let wait = Self.flag(query.get("wait"))
        var timeout = configuration.signalWait
        if let raw = query.get("timeout") {
            guard let seconds = Double(raw), seconds > 0 else {
                throw CommandError(.badRequest, "timeout must be a positive number of seconds, got '\(raw)'")
            }
            timeout = .seconds(seconds)
        }
        let name = CommandTable.signalName(signal)
        if !wait {
            switch try await table.signal(id, signal) {
            case .alreadyFinished(let snapshot):
                throw Self.alreadyFinished(snapshot, name)
            case .sent(let snapshot):
                return json(CommandInfo(snapshot), status: .accepted)
            }
        }
        guard let current = await table.snapshot(id, output: .none) else { throw CommandTable.notFound(id) }
        if current.isFinished { throw Self.alreadyFinished(current, name) }
        guard let finished = try await stop(id, signal: signal, timeout: timeout) else { throw CommandTable.notFound(id) }
        return json(CommandInfo(finished))
    }

    private static func alreadyFinished(_ snapshot: CommandSnapshot, _ signalName: String) -> CommandError {
        let how: String
        switch snapshot.termination {
        case .exited(let code)?: how = "exited with status \(code)"
        case .signaled(let signal)?: how = "was ended by \(CommandTable.signalName(signal))"
        case nil: how = "finished"
        }
        return CommandError(.conflict, "command \(snapshot.id.uuidString) already \(how); there is nothing to send \(signalName) to (GET /v1/commands/\(snapshot.id.uuidString) has its output)")
    }

    private func output(_ request: Request, _ context: HostRequestContext) async throws -> Response {
        let id = try commandID(context)
        let query = request.uri.queryParameters
        let follow = Self.flag(query.get("follow"))
        let stream: OutputStream?
        if let raw = query.get("stream"), raw != "both" {
            guard let chosen = OutputStream(rawValue: raw) else {
                throw CommandError(.badRequest, "stream must be stdout, stderr or both, got '\(raw)'")
            }
            stream = chosen
        } else {
            stream = nil
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
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
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

    private static func flag(_ value: String?) -> Bool {
        guard let value = value?.lowercased() else { return false }
        return value == "" || value == "true" || value == "1" || value == "yes"
    }

    private static func describe(decodingError error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not JSON" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "the body" : keys.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, _): return "missing required field '\(key.stringValue)'"
        case .typeMismatch(let type, let context): return "\(path(context)) should be \(type)"
        case .valueNotFound(let type, let context): return "\(path(context)) should be \(type), not null"
        case .dataCorrupted(let context): return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context)) is invalid"
        @unknown default: return "not valid JSON"
        }
    }
}
