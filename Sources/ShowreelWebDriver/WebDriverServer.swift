import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ShowreelDevice
import ShowreelHTTP
import ShowreelReport
import ShowreelUI
import ShowreelWire
import Synchronization

/// What a WebDriver server serves and where it writes.
package struct WebDriverConfiguration: Sendable {
    package var host: String
    package var port: Int
    /// The apps a session's device has installed (`appium:bundleId` names one of them).
    package var apps: [AppDefinition]
    /// Where `showreel:record` writes videos, manifest.json and the report.
    package var output: URL
    /// How `output` is written in reports' links (as the user gave it).
    package var outputPathPrefix: String
    /// Where `appium:udid` devices are looked up.
    package var registry: DeviceRegistry
    /// Answers web pages with CORS headers (`--allow-cors`, for Appium Inspector); refused otherwise.
    package var allowsCORS: Bool
    /// Sessions that may run at once (`--max-sessions`): a new one past it is `session not created`.
    package var maxSessions: Int
    package var logger: Logger

    /// The default `maxSessions`: each session is a device (and, recorded, an encoder), about
    /// 8 MB and a thread while idle and up to a core while busy, so a few per core (2 cores here).
    package static let defaultMaxSessions = 8

    package init(
        host: String = "127.0.0.1", port: Int = 4723, apps: [AppDefinition], output: URL,
        outputPathPrefix: String? = nil, registry: DeviceRegistry = DeviceRegistry(), allowsCORS: Bool = false,
        maxSessions: Int = WebDriverConfiguration.defaultMaxSessions,
        logger: Logger = Logger(label: "showreel.webdriver", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.maxSessions = maxSessions
        self.host = host
        self.port = port
        self.apps = apps
        self.output = output
        self.outputPathPrefix = outputPathPrefix ?? output.path
        self.registry = registry
        self.allowsCORS = allowsCORS
        self.logger = logger
    }
}

/// An Appium-compatible WebDriver server (W3C WebDriver with Appium's extensions, at `/` and at
/// `/wd/hub`): each session drives a device of its own, booted in this process, or one booted
/// with `showreel device boot` (`appium:udid`). Requests become the device's actions.
package final class WebDriverServer: Sendable {
    package let configuration: WebDriverConfiguration
    let sessions = SessionTable()
    /// The registry of the devices sessions boot: private to this server, removed when it stops.
    let home: URL
    private let reportLock = Mutex(())
    /// The report's sections of sessions filed before: each session's report renders only its own.
    private let reportSections = ReportSections()

    package init(configuration: WebDriverConfiguration) {
        self.configuration = configuration
        home = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("showreel-wd-\(UUID().uuidString.prefix(8))")
    }

    /// Why the server could not start.
    package struct StartError: Error, CustomStringConvertible {
        package var description: String
    }

    /// Serves until the task is cancelled, then ends every session (their devices shut down,
    /// their recordings finished). `onListening` gets the bound port (useful with port 0).
    package func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let router = Router(context: ConnectionRequestContext.self)
        router.add(
            middleware: WebDriverGuard(
                allowsCORS: configuration.allowsCORS,
                loopbackOnly: LoopbackGuard.isLoopbackAddress(configuration.host)))
        router.add(middleware: WebDriverResponder(server: self))
        let fallback = configuration.port
        // Hummingbird logs its own cancellation (how the server stops) as errors: only when verbose.
        var serverLogger = configuration.logger
        if serverLogger.logLevel > .info { serverLogger.logLevel = .critical }
        let app = Application(
            router: router,
            server: .http1(additionalChannelHandlers: [ClosesOnHangUp()]),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "showreel-webdriver"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? fallback) },
            logger: serverLogger)
        let janitor = Task { await endAbandonedSessions() }
        defer { janitor.cancel() }
        do {
            try await app.runService(gracefulShutdownSignals: [])
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            await shutdown()
            throw StartError(
                description:
                    "port \(configuration.port) is in use: the WebDriver server cannot listen there. Pick another with --port, or 0 for any free port."
            )
        } catch {
            await shutdown()
            throw error
        }
        await shutdown()
    }

    /// Ends sessions whose clients went silent for longer than their `newCommandTimeout` (a
    /// suite killed mid-run), as Appium does, so their devices do not run on for nobody.
    private func endAbandonedSessions() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(1))
            for session in await sessions.abandoned(at: .now) {
                configuration.logger.warning("session \(session.id) ended: no command for longer than its newCommandTimeout")
                // Filed before it leaves the table: once /status counts it gone, its video is there.
                await finish(session)
                _ = try? await sessions.remove(session.id)
            }
        }
    }

    /// Ends every session: what the server does when it stops.
    package func shutdown() async {
        for session in await sessions.removeAll() { await finish(session) }
        try? FileManager.default.removeItem(at: home)
    }

    /// The number of sessions running now.
    package var sessionCount: Int { get async { await sessions.count } }

    /// Ends `session` and files its recording in the manifest and the report.
    func finish(_ session: WebDriverSession) async {
        guard let entry = await session.end() else { return }
        let output = configuration.output
        do {
            try ManifestLog.add(entry, in: output, title: "Showreel WebDriver sessions")
            try reportLock.withLock { _ in
                let manifest = try RunManifest.load(from: output.appendingPathComponent(RunManifest.fileName))
                try manifest.writeReport(to: output, pathPrefix: configuration.outputPathPrefix, sections: reportSections)
            }
        } catch {
            configuration.logger.error(
                "the session's report could not be written", metadata: ["session": "\(session.id)", "error": "\(error)"])
        }
    }
}

/// The running sessions by id, and the places taken by sessions being created.
actor SessionTable {
    private var sessions: [String: WebDriverSession] = [:]
    private var starting = 0

    var count: Int { sessions.count }

    /// Takes a place for a session about to be created, or refuses when `limit` are running
    /// or starting; `add` or `release` gives it back.
    func reserve(limit: Int) throws(WebDriverError) {
        guard sessions.count + starting < limit else {
            throw WebDriverError(
                .sessionNotCreated,
                "\(sessions.count) sessions are running\(starting > 0 ? " and \(starting) starting" : ""), the most this server runs at once "
                    + "(--max-sessions \(limit)). End one (DELETE /session/{id}), or start the server with a higher --max-sessions.")
        }
        starting += 1
    }

    /// Gives back a place `reserve` took for a session that did not start.
    func release() { starting -= 1 }

    /// Adds a session created in a place `reserve` took.
    func add(_ session: WebDriverSession) {
        starting -= 1
        sessions[session.id] = session
    }

    func session(_ id: String) throws(WebDriverError) -> WebDriverSession {
        guard let session = sessions[id] else {
            throw WebDriverError(
                .invalidSessionID,
                "No session '\(id)' is running on this server: it ended, or was never created. Start one with POST /session.")
        }
        return session
    }

    func remove(_ id: String) throws(WebDriverError) -> WebDriverSession {
        let session = try session(id)
        sessions[id] = nil
        return session
    }

    /// The sessions whose clients went silent too long.
    func abandoned(at now: ContinuousClock.Instant) async -> [WebDriverSession] {
        var found: [WebDriverSession] = []
        for session in sessions.values where await session.isAbandoned(at: now) { found.append(session) }
        return found
    }

    func removeAll() -> [WebDriverSession] {
        defer { sessions = [:] }
        return Array(sessions.values)
    }

    func isNameTaken(_ name: String) async -> Bool {
        for session in sessions.values where await session.sessionRecording?.name == name { return true }
        return false
    }
}
