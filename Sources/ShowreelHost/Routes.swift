import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// What every request handler gets: Hummingbird's core context plus the connection, which the
/// guard needs (the client's address) and sync commands need (to notice a client that left).
struct HostRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    var remoteAddress: SocketAddress? { channel.remoteAddress }
}

/// The endpoints of the tunnel host and the methods each answers, for `405 Allow` and for the
/// list a 404 prints. `register(on:)` serves exactly these (a test checks every one).
struct Endpoint: Sendable {
    var path: String
    var methods: [HTTPRequest.Method]

    static let all: [Endpoint] = [
        Endpoint(path: "/exec", methods: [.post]),
        Endpoint(path: "/launch", methods: [.post]),
        Endpoint(path: "/status", methods: [.post]),
        Endpoint(path: "/interrupt", methods: [.post]),
        Endpoint(path: "/terminate", methods: [.post]),
        Endpoint(path: "/v1/health", methods: [.get]),
        Endpoint(path: "/v1/commands", methods: [.get, .post]),
        Endpoint(path: "/v1/commands/:id", methods: [.get, .delete]),
        Endpoint(path: "/v1/commands/:id/output", methods: [.get]),
        Endpoint(path: "/v1/commands/:id/interrupt", methods: [.post]),
        Endpoint(path: "/v1/commands/:id/terminate", methods: [.post]),
    ]

    /// The legacy endpoints, whose form body may carry the token.
    static let legacyPaths: Set<String> = ["/exec", "/launch", "/status", "/interrupt", "/terminate"]

    func matches(_ path: String) -> Bool {
        let pattern = self.path.split(separator: "/")
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard pattern.count == segments.count else { return false }
        return zip(pattern, segments).allSatisfy { $0.hasPrefix(":") ? !$1.isEmpty : $0 == $1 }
    }

    static func allowedMethods(for path: String) -> [HTTPRequest.Method]? {
        all.first { $0.matches(path) }?.methods
    }

    static var summary: String {
        "the legacy endpoints are POST /exec, /launch, /status, /interrupt, /terminate; the JSON API is GET /v1/health, GET|POST /v1/commands, GET|DELETE /v1/commands/{id}, GET /v1/commands/{id}/output, POST /v1/commands/{id}/interrupt|terminate"
    }
}

/// The request handlers: the SBTUITestTunnelHost endpoints (LegacyRoutes.swift) and the JSON
/// API under /v1 (V1Routes.swift), over one command table.
struct Routes: Sendable {
    let table: CommandTable
    let configuration: TunnelHostConfiguration
    let logger: Logger

    static let maxBodySize = 1024 * 1024

    func register(on router: Router<HostRequestContext>) {
        router.add(middleware: GuardMiddleware(configuration: configuration, logger: logger))
        registerLegacy(on: router)
        registerV1(on: router)
    }

    /// Waits for a command started for this request to finish; when the client goes away first,
    /// ends the command (SIGTERM, SIGKILL after the grace period) and answers nil.
    func waitForExitOrDisconnect(_ id: UUID, timeout: Duration? = nil, output: OutputSelection = .streams, context: HostRequestContext) async -> CommandSnapshot? {
        let disconnect = await ClientDisconnect.watch(context.channel)
        defer { disconnect.stop() }
        enum Outcome: Sendable { case finished(CommandSnapshot?), disconnected, watchEnded }
        let outcome: Outcome = await withTaskGroup(of: Outcome.self) { group in
            group.addTask { .finished(await table.waitForExit(id, timeout: timeout, output: output)) }
            group.addTask { await disconnect.wait() ? .disconnected : .watchEnded }
            defer { group.cancelAll() }
            while let next = await group.next() {
                if case .watchEnded = next { continue }
                return next
            }
            return .watchEnded
        }
        if case .finished(let snapshot) = outcome { return snapshot }
        logger.notice("client disconnected while its command ran; ending the command", metadata: ["id": "\(id)"])
        _ = try? await stop(id, signal: SIGTERM, timeout: configuration.gracePeriod)
        return nil
    }

    /// Sends `signal`, waits up to `timeout`, then SIGKILLs the group and waits for the reap.
    func stop(_ id: UUID, signal: Int32, timeout: Duration) async throws -> CommandSnapshot? {
        if case .alreadyFinished(let snapshot) = try await table.signal(id, signal) { return snapshot }
        var snapshot = await table.waitForExit(id, timeout: timeout)
        if let current = snapshot, !current.isFinished {
            await table.killAfterTimeout(id)
            snapshot = await table.waitForExit(id, timeout: .seconds(10))
        }
        return snapshot
    }
}

// MARK: - Responses

func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
    json(encoded: ByteBuffer(bytes: WireJSON.encode(value)), status: status)
}

func json(encoded body: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = "application/json; charset=utf-8"
    return Response(status: status, headers: headers, body: .init(byteBuffer: body))
}

extension CommandError {
    var httpStatus: HTTPResponse.Status {
        switch kind {
        case .badRequest, .failedToStart: return .badRequest
        case .unauthorized: return .unauthorized
        case .forbidden: return .forbidden
        case .notFound: return .notFound
        case .methodNotAllowed: return .methodNotAllowed
        case .conflict: return .conflict
        case .unavailable: return .serviceUnavailable
        }
    }
}
