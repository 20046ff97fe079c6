import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The tunnel host: runs commands on this machine for test runners that cannot.
///
/// It speaks the SBTUITestTunnelHost wire protocol unchanged (`POST /exec`, `/launch`,
/// `/status`, `/interrupt`, `/terminate` with form-urlencoded bodies) and, beside it, a
/// versioned JSON API under `/v1`. Commands run without a shell, each in its own session so
/// signals reach the whole process group; their output is drained while they run.
public struct TunnelHost: Sendable {
    /// The version reported by `GET /v1/health`.
    public static let version = "1.0.0"

    public let configuration: TunnelHostConfiguration
    let logger: Logger

    public init(configuration: TunnelHostConfiguration = TunnelHostConfiguration(), logger: Logger = Logger(label: "showreel.host")) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Serves until the task is cancelled or, when `configuration.handlesSignals` is set, the
    /// process gets SIGINT or SIGTERM; both shut down gracefully. On the way out it terminates every command it started
    /// (SIGTERM to each process group, SIGKILL after the grace period), leaving no orphans.
    ///
    /// - Parameter onListening: called once with the bound port (useful with port 0).
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let table = CommandTable(configuration: configuration, logger: logger)
        let router = Router()
        Routes(table: table, configuration: configuration, logger: logger).register(on: router)
        let fallbackPort = configuration.port
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(configuration.bindAddress, port: configuration.port), serverName: "showreel-host/\(Self.version)"),
            onServerRunning: { channel in
                await onListening(channel.localAddress?.port ?? fallbackPort)
            },
            logger: logger
        )
        if !configuration.isLoopbackOnly {
            logger.warning("the tunnel host is reachable from other machines and runs commands for whoever connects; the legacy endpoints have no authentication", metadata: ["bind": "\(configuration.bindAddress)"])
        }
        var groupConfiguration = ServiceGroupConfiguration(
            services: [
                .init(service: app),
                // Last, so graceful shutdown stops the children first; then requests waiting
                // on them (exec, follow, wait) complete and the server can drain.
                .init(service: ChildReaper(table: table)),
            ],
            gracefulShutdownSignals: configuration.handlesSignals ? [.sigterm, .sigint] : [],
            logger: logger
        )
        groupConfiguration.maximumGracefulShutdownDuration = configuration.gracePeriod + configuration.signalWait + .seconds(10)
        let group = ServiceGroup(configuration: groupConfiguration)
        // Cancelling the caller's task shuts down gracefully, like SIGTERM: children are
        // terminated first, then in-flight requests complete and the server closes.
        let serving = Task { try await group.run() }
        do {
            try await withTaskCancellationHandler {
                try await serving.value
            } onCancel: {
                Task { await group.triggerGracefulShutdown() }
            }
        } catch {
            await Task { await table.shutdown() }.value
            throw error
        }
        await Task { await table.shutdown() }.value
    }
}

/// Ends the host's children when the service group shuts down (gracefully or by cancellation).
struct ChildReaper: Service {
    let table: CommandTable

    func run() async throws {
        try? await gracefulShutdown()
        // Not subject to the cancellation of this task: children must be ended either way.
        await Task { await table.shutdown() }.value
    }
}

// MARK: - Routes

struct Routes: Sendable {
    let table: CommandTable
    let configuration: TunnelHostConfiguration
    let logger: Logger

    static let maxBodySize = 1024 * 1024

    func register(on router: Router<BasicRequestContext>) {
        router.add(middleware: GuardMiddleware(configuration: configuration, logger: logger))

        // Legacy SBTUITestTunnelHost endpoints.
        router.post("exec") { request, context in try await legacyExec(request, context) }
        router.post("launch") { request, context in try await legacyLaunch(request, context) }
        router.post("status") { request, context in try await legacyStatus(request, context, signal: nil) }
        router.post("interrupt") { request, context in try await legacyStatus(request, context, signal: SIGINT) }
        router.post("terminate") { request, context in try await legacyStatus(request, context, signal: SIGTERM) }

        // v1 JSON API.
        router.get("v1/health") { _, _ in
            json(HealthResponse(status: "ok", version: TunnelHost.version, running: await table.runningCount))
        }
        router.get("v1/commands") { _, _ in
            json(CommandListResponse(commands: await table.list().map { CommandInfo($0) }))
        }
        router.post("v1/commands") { request, context in try await createCommand(request, context) }
        router.get("v1/commands/:id") { request, context in
            let id = try commandID(context)
            guard let snapshot = await table.snapshot(id, includeOutput: true) else { throw CommandTable.notFound(id) }
            return json(CommandInfo(snapshot))
        }
        router.delete("v1/commands/:id") { request, context in
            let id = try commandID(context)
            guard let snapshot = await table.snapshot(id, includeOutput: false) else { throw CommandTable.notFound(id) }
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

    // MARK: Legacy

    /// Reads the form body and its `command` field, answering 400 with what to send instead.
    private func legacyForm(_ request: Request, _ context: BasicRequestContext, endpoint: String) async throws -> (LegacyForm, String) {
        let example = endpoint == "exec" || endpoint == "launch"
            ? "command=<base64 of the UTF-8 command line>, e.g. command=ZWNobyBoZWxsbw== for 'echo hello'"
            : "command=<the UUID returned by /launch>"
        let buffer: ByteBuffer
        do {
            buffer = try await request.body.collect(upTo: Self.maxBodySize)
        } catch {
            throw CommandError(.badRequest, "request body too large or unreadable: /\(endpoint) takes a small form-urlencoded body with \(example)")
        }
        let body = Array(buffer.readableBytesView)
        if let contentType = request.headers[.contentType], contentType.lowercased().contains("json") {
            throw CommandError(.badRequest, "/\(endpoint) takes a form-urlencoded body (\(example)), not JSON; for a JSON API use POST /v1/commands")
        }
        let form = LegacyForm(body: body)
        guard let command = form["command"] else {
            let problem = body.isEmpty ? "the request body is empty" : "the form has no 'command' field"
            throw CommandError(.badRequest, "\(problem): POST /\(endpoint) with a form-urlencoded body: \(example)")
        }
        logger.debug("legacy request", metadata: [
            "endpoint": "\(endpoint)",
            "app_frame": "\(form["app_frame"] ?? "-")",
            "simulator_device_name": "\(form["simulator_device_name"] ?? "-")",
            "simulator_device_runtime": "\(form["simulator_device_runtime"] ?? "-")",
        ])
        return (form, command)
    }

    private func legacyCommandLine(_ request: Request, _ context: BasicRequestContext, endpoint: String) async throws -> (line: String, argv: [String]) {
        let (_, encoded) = try await legacyForm(request, context, endpoint: endpoint)
        guard let line = LegacyForm.decodeBase64Command(encoded) else {
            throw CommandError(.badRequest, "the 'command' field is not valid base64 of UTF-8 text: send command=<base64 of the command line>, e.g. command=ZWNobyBoZWxsbw== for 'echo hello'")
        }
        do {
            return (line, try ShellWords.split(line))
        } catch {
            throw CommandError(.badRequest, "cannot split the command line \(ShellWords.quote(line)): \(error.message)")
        }
    }

    private func legacyExec(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let (line, argv) = try await legacyCommandLine(request, context, endpoint: "exec")
        // An empty command is how the iOS client's connect() checks that the host is there.
        guard !argv.isEmpty else { return json(LegacyResultResponse(result: "", status: 1)) }
        let started: CommandSnapshot
        do {
            started = try await table.launch(argv: argv, kind: .exec)
        } catch let error as CommandError where error.kind != .badRequest {
            logger.notice("exec failed to start", metadata: ["command": "\(line)", "error": "\(error.message)"])
            return json(LegacyResultResponse(result: "error: \(error.message)", status: -1))
        }
        let finished = await table.waitForExit(started.id)
        await table.remove(started.id)
        return json(LegacyResultResponse(result: finished?.combined ?? "", status: 1))
    }

    private func legacyLaunch(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let (line, argv) = try await legacyCommandLine(request, context, endpoint: "launch")
        guard !argv.isEmpty else {
            throw CommandError(.badRequest, "the command line is empty: send command=<base64 of the command line to launch>")
        }
        do {
            let started = try await table.launch(argv: argv, kind: .launch)
            return json(LegacyResultResponse(result: started.id.uuidString, status: 1))
        } catch let error as CommandError where error.kind != .badRequest {
            logger.notice("launch failed to start", metadata: ["command": "\(line)", "error": "\(error.message)"])
            return json(LegacyResultResponse(result: "error: \(error.message)", status: -1))
        }
    }

    /// `/status`, and `/interrupt` / `/terminate` when `signal` is set. Unlike the original,
    /// interrupt and terminate wait (up to `signalWait`) for the command to exit, so the
    /// answer is normally the final status and a recording is complete when it arrives.
    private func legacyStatus(_ request: Request, _ context: BasicRequestContext, signal: Int32?) async throws -> Response {
        let endpoint = signal == nil ? "status" : (signal == SIGINT ? "interrupt" : "terminate")
        let (_, field) = try await legacyForm(request, context, endpoint: endpoint)
        let trimmed = field.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let id = UUID(uuidString: trimmed) else {
            throw CommandError(.badRequest, "the 'command' field of /\(endpoint) must be the UUID returned by /launch, got '\(trimmed)'")
        }
        if let signal {
            switch try await table.signal(id, signal) {
            case .alreadyFinished(let snapshot):
                return json(LegacyStatusResponse(snapshot))
            case .sent:
                guard let snapshot = await table.waitForExit(id, timeout: configuration.signalWait) else {
                    throw CommandTable.notFound(id)
                }
                if !snapshot.isFinished {
                    logger.notice("command still running after \(CommandTable.signalName(signal))", metadata: ["id": "\(id)", "waited": "\(configuration.signalWait)"])
                }
                return json(LegacyStatusResponse(snapshot))
            }
        }
        guard let snapshot = await table.snapshot(id, includeOutput: true) else { throw CommandTable.notFound(id) }
        return json(LegacyStatusResponse(snapshot))
    }

    // MARK: v1

    private func commandID(_ context: BasicRequestContext) throws -> UUID {
        let raw = context.parameters.get("id") ?? ""
        guard let id = UUID(uuidString: raw) else {
            throw CommandError(.badRequest, "'\(raw)' is not a command id: use the UUID returned by POST /v1/commands (GET /v1/commands lists them)")
        }
        return id
    }

    private static let createExample = #"{"argv": ["echo", "hello"], "env": {"NAME": "value"}, "cwd": "/tmp", "wait": false}"#

    private func createCommand(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
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
        var finished = await table.waitForExit(started.id, timeout: body.timeout.map { .seconds($0) })
        if let snapshot = finished, !snapshot.isFinished {
            timedOut = true
            finished = try await stop(started.id, signal: SIGTERM, timeout: configuration.gracePeriod)
        }
        guard let finished else { throw CommandTable.notFound(started.id) }
        return json(CommandInfo(finished, timedOut: timedOut))
    }

    /// Sends `signal`, waits up to `timeout`, then SIGKILLs the group and waits for the reap.
    private func stop(_ id: UUID, signal: Int32, timeout: Duration) async throws -> CommandSnapshot? {
        if case .alreadyFinished(let snapshot) = try await table.signal(id, signal) { return snapshot }
        var snapshot = await table.waitForExit(id, timeout: timeout)
        if let current = snapshot, !current.isFinished {
            await table.killAfterTimeout(id)
            snapshot = await table.waitForExit(id, timeout: .seconds(10))
        }
        return snapshot
    }

    private func signal(_ request: Request, _ context: BasicRequestContext, _ signal: Int32) async throws -> Response {
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
        guard let current = await table.snapshot(id, includeOutput: false) else { throw CommandTable.notFound(id) }
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

    private func output(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
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

// MARK: - Responses

func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = "application/json; charset=utf-8"
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: WireJSON.encode(value))))
}

extension CommandError {
    var httpStatus: HTTPResponse.Status {
        switch kind {
        case .badRequest, .failedToStart: return .badRequest
        case .unauthorized: return .unauthorized
        case .forbidden: return .forbidden
        case .notFound: return .notFound
        case .conflict: return .conflict
        case .unavailable: return .serviceUnavailable
        }
    }
}

// MARK: - Guard

/// Turns errors into JSON, refuses requests from web pages, checks the v1 token.
struct GuardMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

    let configuration: TunnelHostConfiguration
    let logger: Logger

    static let tokenHeader = HTTPField.Name("X-Showreel-Token")!
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            try check(request)
            return try await next(request, context)
        } catch let error as CommandError {
            if error.kind != .notFound {
                logger.notice("request refused", metadata: ["method": "\(request.method)", "path": "\(request.uri.path)", "status": "\(error.httpStatus.code)", "error": "\(error.message)"])
            }
            return json(ErrorResponse(error: error.message), status: error.httpStatus)
        } catch let error as HTTPError {
            if error.status == .notFound {
                return json(ErrorResponse(error: "no endpoint \(request.method) \(request.uri.path): the legacy endpoints are POST /exec, /launch, /status, /interrupt, /terminate; the JSON API is GET /v1/health, GET|POST /v1/commands, GET|DELETE /v1/commands/{id}, GET /v1/commands/{id}/output, POST /v1/commands/{id}/interrupt|terminate"), status: .notFound)
            }
            return json(ErrorResponse(error: error.body ?? "\(error.status.reasonPhrase)"), status: error.status)
        } catch {
            logger.error("request failed", metadata: ["method": "\(request.method)", "path": "\(request.uri.path)", "error": "\(error)"])
            return json(ErrorResponse(error: "internal error: \(error)"), status: .internalServerError)
        }
    }

    private func check(_ request: Request) throws {
        // Web pages can POST to localhost; browsers mark those requests with Origin.
        if let origin = request.headers[.origin] {
            throw CommandError(.forbidden, "requests from web pages are refused (Origin: \(origin)); the tunnel host serves test runners and command-line clients, which send no Origin header")
        }
        if let site = request.headers[Self.secFetchSite], site != "none" {
            throw CommandError(.forbidden, "requests from web pages are refused (Sec-Fetch-Site: \(site)); the tunnel host serves test runners and command-line clients")
        }
        // DNS rebinding: a page on evil.example that resolves to 127.0.0.1 sends its own Host.
        if configuration.isLoopbackOnly, let authority = request.head.authority, !Self.isLoopbackAuthority(authority) {
            throw CommandError(.forbidden, "Host '\(authority)' is not a loopback name; this host is bound to \(configuration.bindAddress) and answers to localhost, 127.0.0.1 or [::1] only")
        }
        let path = request.uri.path
        if let token = configuration.token, path.hasPrefix("/v1/"), path != "/v1/health" {
            let presented: String?
            if let authorization = request.headers[.authorization], authorization.lowercased().hasPrefix("bearer ") {
                presented = String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
            } else {
                presented = request.headers[Self.tokenHeader]
            }
            guard let presented else {
                throw CommandError(.unauthorized, "this host requires a token for /v1: send 'Authorization: Bearer <token>' or 'X-Showreel-Token: <token>' with the token given to 'showreel host --token' (or SHOWREEL_HOST_TOKEN)")
            }
            guard Self.constantTimeEquals(presented, token) else {
                throw CommandError(.unauthorized, "wrong token: use the token given to 'showreel host --token' (or SHOWREEL_HOST_TOKEN)")
            }
        }
    }

    static func isLoopbackAuthority(_ authority: String) -> Bool {
        var host = authority.lowercased()
        if host.hasPrefix("[") {
            host = String(host.dropFirst().prefix { $0 != "]" })
        } else if let colon = host.lastIndex(of: ":"), host.firstIndex(of: ":") == colon {
            host = String(host[..<colon])
        }
        return host == "localhost" || host.hasSuffix(".localhost") || host.hasPrefix("127.") || host == "::1"
    }

    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return difference == 0
    }
}
