import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

/// The tunnel host: runs commands on this machine for test runners that cannot.
///
/// It speaks the SBTUITestTunnelHost wire protocol unchanged (`POST /exec`, `/launch`,
/// `/status`, `/interrupt`, `/terminate` with form-urlencoded bodies) and, beside it, a
/// versioned JSON API under `/v1`. Commands run without a shell, each in its own session so
/// signals reach the whole process group; their output is drained while they run.
package struct TunnelHost: Sendable {
    /// The version reported by `GET /v1/health`.
    package static let version = "1.0.0"

    package let configuration: TunnelHostConfiguration
    let logger: Logger

    package init(configuration: TunnelHostConfiguration = TunnelHostConfiguration(), logger: Logger = Logger(label: "showreel.host")) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Serves until the task is cancelled or, when `configuration.handlesSignals` is set, the
    /// process gets SIGINT or SIGTERM; both shut down gracefully. On the way out it terminates every command it started
    /// (SIGTERM to each process group, SIGKILL after the grace period), leaving no orphans.
    ///
    /// - Parameter onListening: called once with the bound port (useful with port 0), when the
    ///   host listens on every address it serves.
    /// - Throws: ``TunnelHostConfiguration/Problem`` for unsafe settings, before listening.
    package func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        try configuration.validate()
        let table = CommandTable(configuration: configuration, logger: logger)
        let router = Router(context: HostRequestContext.self)
        Routes(table: table, configuration: configuration, logger: logger).register(on: router)
        let responder = router.buildResponder()
        let addresses = configuration.listenAddresses
        let listeners = ListenerStartup(extraListeners: addresses.count - 1)
        let serverName = "showreel-host/\(Self.version)"
        let fallbackPort = configuration.port

        let primary = Application(
            responder: responder,
            configuration: .init(address: .hostname(addresses[0], port: configuration.port), serverName: serverName),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? fallbackPort
                // Reported only once every address serves: a host that will refuse to start
                // (its ::1 port taken) never says it listens.
                if await listeners.primaryListening(on: port) { await onListening(port) }
            },
            logger: logger
        )
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: primary)]
        for address in addresses.dropFirst() {
            services.append(
                .init(
                    service: ExtraListener(
                        address: address, responder: responder, serverName: serverName, startup: listeners, logger: logger)))
        }
        // Last, so graceful shutdown stops the children first; then requests waiting on them
        // (exec, follow, wait) complete and the servers can drain.
        services.append(.init(service: ChildReaper(table: table)))
        var groupConfiguration = ServiceGroupConfiguration(
            services: services,
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

/// Orders the listeners' start: extra addresses bind the port the first one got (it may have
/// been 0), and the host reports itself listening once every address is bound or has failed.
/// Waiters are woken by what they wait for, never by polling: with many hosts starting at once
/// (a test suite's), polling loops crowd the cooperative pool that the binds themselves need.
/// A cancelled waiter is let go at once.
actor ListenerStartup {
    private var port: Int?
    private let extraListeners: Int
    /// The extra addresses that bound, failed or gave up: each counts once, however often it says so.
    private var settled: Set<String> = []
    private var failed = false
    /// What a waiter waits for: the port, or every extra listener settled.
    private enum Awaited { case port, settled }
    private var waiters: [UUID: (awaited: Awaited, continuation: CheckedContinuation<Void, Never>)] = [:]

    init(extraListeners: Int) {
        self.extraListeners = extraListeners
    }

    /// Extra listeners not yet bound, failed or given up: the first one waits while any are.
    var pending: Int { extraListeners - settled.count }

    /// Records the first listener's port and waits for the others to bind it (or fail); false
    /// when one of them failed in a way that stops the host. The bound only guards against a
    /// listener that never reports: on a loaded machine binding can take seconds.
    func primaryListening(on port: Int) async -> Bool {
        self.port = port
        release(.port)
        let id = UUID()
        let bound = Task { [weak self] in
            try await Task.sleep(for: .seconds(120))
            await self?.letGo(id)
        }
        defer { bound.cancel() }
        await wait(id, for: .settled) { $0.pending == 0 || $0.failed }
        return !failed
    }

    /// The first listener's port, or nil when the task is cancelled first.
    func primaryPort() async -> Int? {
        await wait(UUID(), for: .port) { $0.port != nil }
        return port
    }

    /// The listener on `address` bound, or will not (it gave up, or the host is stopping).
    func extraSettled(_ address: String) {
        settled.insert(address)
        if pending == 0 { release(.settled) }
    }

    /// The listener on `address` failed in a way that stops the host.
    func extraFailed(_ address: String) {
        failed = true
        settled.insert(address)
        release(.settled)
    }

    /// Suspends until `done` holds, the task is cancelled, or `letGo(id)` is called.
    private func wait(_ id: UUID, for awaited: Awaited, until done: (isolated ListenerStartup) -> Bool) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if done(self) || Task.isCancelled {
                    continuation.resume()
                } else {
                    waiters[id] = (awaited, continuation)
                }
            }
        } onCancel: {
            Task { await self.letGo(id) }
        }
    }

    private func letGo(_ id: UUID) {
        waiters.removeValue(forKey: id)?.continuation.resume()
    }

    private func release(_ awaited: Awaited) {
        let woken = waiters.filter { $0.value.awaited == awaited }
        for id in woken.keys { waiters[id] = nil }
        for waiter in woken.values { waiter.continuation.resume() }
    }
}

/// Serves the same routes on one more address (`::1` beside `127.0.0.1`). Failing to bind it
/// because this machine has no IPv6 is logged, not fatal: localhost never resolves to ::1 there
/// either. Failing because another program holds that port stops the host: clients that resolve
/// localhost to ::1 first would send their requests, and their tokens, to that program.
struct ExtraListener<Responder: HTTPResponder>: Service where Responder.Context == HostRequestContext {
    let address: String
    let responder: Responder
    let serverName: String
    let startup: ListenerStartup
    let logger: Logger

    func run() async throws {
        // However this ends, the first listener must not wait for this one: a stop sent while
        // the host starts can end it before it has a port, or before its server ran.
        let port = await cancelWhenShuttingDown { await startup.primaryPort() }
        guard let port = port ?? nil else {
            await startup.extraSettled(address)
            return
        }
        let address = self.address
        let app = Application(
            responder: responder,
            configuration: .init(address: .hostname(address, port: port), serverName: serverName),
            onServerRunning: { _ in await startup.extraSettled(address) },
            logger: logger
        )
        do {
            try await app.run()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            await startup.extraFailed(address)
            throw LoopbackPortTaken(address: address, port: port)
        } catch {
            logger.info("cannot also listen on \(address) port \(port)", metadata: ["error": "\(error)"])
            await startup.extraSettled(address)
            try? await gracefulShutdown()
        }
        await startup.extraSettled(address)
    }

    private func cancelWhenShuttingDown<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T? {
        await withTaskGroup(of: T?.self) { group in
            group.addTask { await body() }
            group.addTask {
                try? await gracefulShutdown(); return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
    }
}

/// Another program holds the port on one of the host's loopback addresses.
package struct LoopbackPortTaken: Error, CustomStringConvertible {
    package var address: String
    package var port: Int
    package var description: String {
        "port \(port) on \(address) is taken by another program: clients that resolve localhost to \(address) would reach it instead of this host (with their tokens). Stop that program, or choose another --port (0 picks a free one)"
    }
}
