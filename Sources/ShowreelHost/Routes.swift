import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ShowreelHTTP
import ShowreelWire

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
/// list a 404 prints: `HostAPI.Routes` (what `register(on:)` serves) grouped by path.
struct Endpoint: Sendable {
    /// One of the routes at this path: what requests are matched against and how it is written.
    var route: Route
    var methods: [HTTPRequest.Method]

    var path: String { route.template }

    static let all = grouped(HostAPI.Routes.all)

    /// The legacy endpoints, whose form body may carry the token.
    static let legacyPaths = Set(HostAPI.Routes.Legacy.all.map(\.template))

    /// `routes` by path, in their order.
    static func grouped(_ routes: [Route]) -> [Endpoint] {
        routes.reduce(into: []) { endpoints, route in
            let method = HTTPRequest.Method(route.method)
            if let index = endpoints.firstIndex(where: { $0.path == route.template }) {
                endpoints[index].methods.append(method)
            } else {
                endpoints.append(Endpoint(route: route, methods: [method]))
            }
        }
    }

    static func allowedMethods(for path: String) -> [HTTPRequest.Method]? {
        all.first { $0.route.matches(path: path) }?.methods
    }

    /// "the legacy endpoints are POST /exec, ...; the JSON API is GET /v1/health, GET|POST /v1/commands, ..."
    static let summary: String = {
        func list(_ routes: [Route]) -> String {
            grouped(routes).map { "\($0.methods.map(\.rawValue).joined(separator: "|")) \($0.route.readableTemplate)" }
                .joined(separator: ", ")
        }
        return "the legacy endpoints are \(list(HostAPI.Routes.Legacy.all)); the JSON API is \(list(HostAPI.Routes.V1.all))"
    }()
}

/// The request handlers: the SBTUITestTunnelHost endpoints (LegacyRoutes.swift) and the JSON
/// API under /v1 (V1Routes.swift), over one command table.
struct Routes: Sendable {
    let table: CommandTable
    let configuration: TunnelHostConfiguration
    let logger: Logger

    func register(on router: Router<HostRequestContext>) {
        router.add(middleware: GuardMiddleware(configuration: configuration, logger: logger))
        registerLegacy(on: router)
        registerV1(on: router)
    }

    /// Waits for a command started for this request to finish; when the client goes away first,
    /// ends the command (SIGTERM, SIGKILL after the grace period) and answers nil.
    func waitForExitOrDisconnect(_ id: UUID, timeout: Duration? = nil, output: OutputSelection = .streams, context: HostRequestContext)
        async -> CommandSnapshot?
    {
        let disconnect = await ClientDisconnect.watch(context.channel)
        defer { disconnect.stop() }
        enum Outcome: Sendable {
            case finished(CommandSnapshot?)
            case disconnected, watchEnded
        }
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
