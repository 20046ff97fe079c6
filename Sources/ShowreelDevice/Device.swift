import Foundation
import Logging
import ShowreelRender
import ShowreelUI
import ShowreelWire

/// A booted device: it hosts one running app at a time on a screen profile, renders the
/// screen when it changes, and serves it to recorders. Tests and the automation API drive
/// it; nothing else touches the app.
public actor Device {
    public nonisolated let udid: String
    public nonisolated let name: String
    public nonisolated let profile: DeviceProfile
    public nonisolated let clock: DeviceClock
    public nonisolated let display: DisplayStreamServer
    public nonisolated let registry: DeviceRegistry

    private let logger: Logger
    private var apps: [String: AppDefinition] = [:]
    private let scene: WindowScene
    private var runningApp: String?
    private var crash: (bundleIdentifier: String, message: String)?
    private var latestFrame: Frame?
    private var isShutDown = false

    /// How long a tap keeps the finger down: it shows the highlight on the virtual clock too.
    public static let tapDuration: Duration = .milliseconds(100)

    /// Boots a device: registers it, opens its display stream and shows the home screen.
    public init(name: String = "Showreel Phone", profile: DeviceProfile = .phone, clock: DeviceClock.Kind = .virtual,
                apps: [AppDefinition], registry: DeviceRegistry = DeviceRegistry(), udid: String = UUID().uuidString,
                logger: Logger = Logger(label: "showreel.device", factory: { _ in SwiftLogNoOpLogHandler() })) throws {
        self.udid = udid
        self.name = name
        self.profile = profile
        self.clock = DeviceClock(clock)
        self.registry = registry
        self.logger = logger
        for app in apps { self.apps[app.bundleIdentifier] = app }
        scene = WindowScene(profile: profile)
        let folder = registry.directory(for: udid)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let socketPath = folder.appendingPathComponent("display.sock").path
        display = try DisplayStreamServer(
            socketPath: socketPath,
            info: DisplayInfo(udid: udid, deviceName: name, profile: profile, clock: clock.rawValue),
            clock: self.clock, logger: logger)
        let pid = getpid()
        try registry.save(DeviceRecord(
            udid: udid, name: name, profile: profile.name, state: .booted, clock: clock.rawValue, pid: pid,
            processStartTime: DeviceRegistry.processStartTime(pid: pid), displaySocket: socketPath,
            automationURL: nil, bootedAt: Date()))
        // First frame: the home screen, so a recorder always has something to show.
        let pixels = PixelBuffer(width: profile.pixelWidth, height: profile.pixelHeight)
        scene.render(into: pixels)
        let frame = Frame(pixels: pixels, presentationTime: self.clock.now)
        latestFrame = frame
        display.publish(frame)
        logger.info("booted \(name) (\(udid)), \(profile.pixelWidth)x\(profile.pixelHeight), \(clock.rawValue) clock")
    }

    public var installedApps: [String] { apps.keys.sorted() }
    public var runningAppIdentifier: String? { runningApp }

    // MARK: Apps

    /// Launches an app with arguments and environment, terminating the running one.
    public func launch(_ bundleIdentifier: String, context: LaunchContext = LaunchContext()) throws {
        try ensureBooted()
        guard let app = apps[bundleIdentifier] else { throw DeviceError.unknownApp(bundleIdentifier, installed: installedApps) }
        terminate()
        crash = nil
        do {
            let screen = try app.makeRootScreen(context)
            scene.setAppRootScreen(screen)
            runningApp = bundleIdentifier
            logger.info("launched \(bundleIdentifier) \(context.arguments)")
        } catch {
            let message = (error as? AppFatalError)?.message ?? String(describing: error)
            crash = (bundleIdentifier, message)
            logger.error("\(bundleIdentifier) stopped: \(message)")
            renderIfNeeded()
            throw DeviceError.appCrashed(bundleIdentifier: bundleIdentifier, message: message)
        }
        renderIfNeeded()
    }

    public func terminate() {
        guard runningApp != nil else { return }
        scene.setAppRootScreen(nil)
        runningApp = nil
        renderIfNeeded()
    }

    // MARK: Events

    /// Taps the centre of the first hittable element matching `query`.
    public func tap(_ query: ElementQuery) async throws {
        let node = try element(query)
        guard node.isHittable else { throw DeviceError.elementNotHittable(query: query.description) }
        try await tap(at: node.frame.center)
    }

    /// A finger down at `point`, held for `tapDuration`, then lifted.
    public func tap(at point: Point) async throws {
        try ensureRunning()
        let target = scene.appWindow.hitTest(point)
        let button = sequence(first: target, next: { $0?.superview }).compactMap { $0 as? Button }.first
        button?.isHighlighted = true
        renderIfNeeded()
        try await clock.advance(by: Self.tapDuration)
        button?.isHighlighted = false
        scene.tap(at: point)
        renderIfNeeded()
    }

    /// Lets time pass on the device clock (instant on the virtual clock).
    public func wait(_ duration: Duration) async throws {
        try ensureBooted()
        try await clock.advance(by: duration)
        renderIfNeeded()
    }

    // MARK: Inspection

    public func accessibilityTree() -> [AccessibilityNode] { scene.accessibilityTree() }

    /// The first element matching `query`, or an error naming what the screen has instead.
    public func element(_ query: ElementQuery) throws -> AccessibilityNode {
        try ensureRunning()
        let all = scene.accessibilityTree().flatMap(\.flattened)
        if let match = all.first(where: query.matches) { return match }
        let nearby = all.filter { $0.type != .window && $0.type != .statusBar }.map { $0.label.isEmpty ? $0.identifier : $0.label }
        throw DeviceError.elementNotFound(query: query.description, nearby: nearby.filter { !$0.isEmpty })
    }

    /// The current screen as pixels (the last rendered frame).
    public func screenshot() -> PixelBuffer {
        renderIfNeeded()
        return latestFrame!.pixels
    }

    public var currentTime: Duration { clock.now }

    // MARK: Lifecycle

    /// Ends every display stream (recorders finalise their files), and marks the device shut down.
    public func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        display.shutDown()
        if var record = try? registry.resolve(udid) {
            record.state = .shutdown
            try? registry.save(record)
        }
        logger.info("shut down \(name) (\(udid))")
    }

    // MARK: Private

    private func renderIfNeeded() {
        guard scene.needsRender, !isShutDown else { return }
        let pixels = PixelBuffer(width: profile.pixelWidth, height: profile.pixelHeight)
        scene.render(into: pixels)
        let frame = Frame(pixels: pixels, presentationTime: clock.now)
        latestFrame = frame
        display.publish(frame)
    }

    private func ensureBooted() throws {
        if isShutDown { throw DeviceError.shutDown }
    }

    private func ensureRunning() throws {
        try ensureBooted()
        if let crash { throw DeviceError.appCrashed(bundleIdentifier: crash.bundleIdentifier, message: crash.message) }
        guard runningApp != nil else { throw DeviceError.appNotRunning }
    }
}
