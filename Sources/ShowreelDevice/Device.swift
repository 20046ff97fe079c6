import Foundation
import Logging
import ShowreelAccessibility
import ShowreelRender
import ShowreelUI
import ShowreelWire
import Synchronization

/// A booted device: it hosts apps on a screen profile (one in the foreground), renders the
/// screen when it changes, and serves it to recorders. Tests, flows and the automation API
/// drive it; nothing else touches the apps.
package actor Device {
    package nonisolated let udid: String
    package nonisolated let name: String
    package nonisolated let profile: DeviceProfile
    package nonisolated let clock: DeviceClock
    package nonisolated let display: DisplayStreamServer
    package nonisolated let registry: DeviceRegistry

    let logger: Logger
    private(set) var apps: [String: AppDefinition] = [:]
    let scene: WindowScene
    private var foreground: String? { didSet { foregroundDidChange() } }
    /// Apps sent home keep their screens, as a real app keeps its state in the background.
    private var background: [String: Screen] = [:]
    private var crashes: [String: String] = [:]
    private var latestFrame: Frame?
    private var recycler = FrameRecycler()
    private var isShutDown = false
    private var displayLink: Task<Void, Never>?
    /// Actions run one at a time, in the order they were asked for (see `perform(_:)`).
    let actionQueue = ActionQueue()
    /// Where actions are traced for the report (see `ActionTrace`), when someone asked.
    var actionTrace: ActionTrace?
    /// The element tree a traced action just took for its trace, for the action's own first
    /// look at the screen (see `traced`), with the device time and frame it was taken on.
    var tracedTree: (tree: [ElementSnapshot], time: Duration, frame: Duration?)?
    /// The recordings tracing the device through `attachTrace` (see there), by id: each from
    /// which entry of `actionTrace` on.
    var traceClaims: [String: TraceClaim] = [:]
    var nextTraceOrder = 0
    /// Light or dark, for every app and the system screens (`simctl ui appearance`).
    package private(set) var interfaceStyle: InterfaceStyle
    /// How the device is held (`simctl ui orientation`, `XCUIDevice.orientation`); the app on
    /// screen turns to it when it supports it (see `interfaceOrientation`).
    package internal(set) var deviceOrientation: DeviceOrientation = .portrait
    /// The screen's size in points as it is now, for checking points outside the actor (`limits`).
    nonisolated let screenSize: Mutex<Size>
    /// The languages apps get when their launch does not name any (`-AppleLanguages`), most
    /// preferred first; empty means each app's source language.
    package nonisolated let languages: [String]
    /// The strings apps showed untranslated (in their source language), each once.
    package nonisolated let missingTranslations = MissingTranslationLog()

    /// The step at which time advances while something moves on screen (60 frames a second).
    package static let frameInterval = Frame.refreshInterval

    /// Boots a device: registers it, opens its display stream and shows the home screen.
    package init(
        name: String = "Showreel Phone", profile: DeviceProfile = .phone, clock: DeviceClock.Kind = .virtual,
        apps: [AppDefinition], registry: DeviceRegistry = DeviceRegistry(), udid: String = UUID().uuidString,
        showsTouches: Bool = false, interfaceStyle: InterfaceStyle = .light, languages: [String] = [],
        orientation: DeviceOrientation = .portrait,
        logger: Logger = Logger(label: "showreel.device", factory: { _ in SwiftLogNoOpLogHandler() })
    ) throws {
        self.udid = udid
        self.name = name
        self.profile = profile
        self.clock = DeviceClock(clock)
        self.registry = registry
        self.logger = logger
        self.interfaceStyle = interfaceStyle
        // Booted on its side: the home screen, the first frame and recorders' videos are landscape.
        let screen = profile.oriented(orientation)
        deviceOrientation = orientation
        screenSize = Mutex(screen.pointSize)
        self.languages = languages
        for app in apps { self.apps[app.bundleIdentifier] = app }
        scene = WindowScene(profile: profile)
        scene.systemStrings = SystemStrings(deviceLanguages: languages)
        scene.interfaceStyle = interfaceStyle
        scene.setOrientation(orientation, animated: false)
        // A circle where a finger is, for demo recordings that show what the test did.
        scene.showsTouches = showsTouches
        let folder = registry.directory(for: udid)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A device booted again in its folder keeps its photo library.
        for asset in Self.keptMedia(in: folder.appendingPathComponent("media", isDirectory: true)) { scene.photos.add(asset) }
        let socketPath = folder.appendingPathComponent("display.sock").path
        display = try DisplayStreamServer(
            socketPath: socketPath,
            info: DisplayInfo(udid: udid, deviceName: name, profile: screen, clock: clock),
            clock: self.clock, logger: logger)
        let pid = getpid()
        try registry.save(
            DeviceRecord(
                udid: udid, name: name, profile: profile.name, state: .booted, clock: clock, pid: pid,
                processStartTime: ProcessStat.read(pid)?.startTicks, displaySocket: socketPath,
                automationURL: nil, bootedAt: Date(), installedApps: apps.map(\.bundleIdentifier).sorted()))
        // First frame: the home screen, so a recorder always has something to show.
        let pixels = PixelBuffer(width: screen.pixelWidth, height: screen.pixelHeight, zeroed: false)
        scene.render(into: pixels)
        let frame = Frame(pixels: pixels, presentationTime: self.clock.now)
        latestFrame = frame
        actionTrace?.screenChanged(at: frame.presentationTime, in: scene.changedAreas)
        display.publish(frame)
        logger.info("booted \(name) (\(udid)), \(screen.pixelWidth)x\(screen.pixelHeight), \(clock.rawValue) clock")
    }

    package var installedApps: [String] { apps.keys.sorted() }
    package var foregroundApp: String? { foreground }
    package var currentTime: Duration { clock.now }

    /// Records where the automation API listens, so other processes find it in the registry.
    package func publishAutomationURL(_ url: String) throws {
        var record = try registry.resolve(udid)
        record.automationURL = url
        try registry.save(record)
    }

    // MARK: Apps

    /// The app's data container: its `HOME`, kept across launches, wiped by `erase`.
    package nonisolated func dataContainer(for bundleIdentifier: String) -> URL {
        registry.directory(for: udid).appendingPathComponent("data", isDirectory: true)
            .appendingPathComponent(bundleIdentifier, isDirectory: true)
    }

    /// Launches an app with arguments and environment, like `simctl launch` or
    /// `XCUIApplication.launch()`: a running instance is terminated first.
    @discardableResult
    package func launch(_ bundleIdentifier: String, context: LaunchContext = LaunchContext()) async throws -> AppStatus {
        try await traced("launch \(bundleIdentifier)") { try await launchUntraced(bundleIdentifier, context: context) }
    }

    private func launchUntraced(_ bundleIdentifier: String, context: LaunchContext) async throws -> AppStatus {
        try ensureBooted()
        guard let app = apps[bundleIdentifier] else { throw DeviceError.unknownApp(bundleIdentifier, installed: installedApps) }
        terminate(bundleIdentifier)
        if let other = foreground { sendToBackground(other) }
        crashes[bundleIdentifier] = nil
        let container = dataContainer(for: bundleIdentifier)
        try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
        var context = context
        context.environment["HOME"] = container.path
        if context.deviceLanguages.isEmpty { context.deviceLanguages = languages }
        context.translationLog = context.translationLog ?? missingTranslations
        do {
            let screen = try app.makeRootScreen(context)
            syncSceneTime()
            scene.setAppRootScreen(screen)
            foreground = bundleIdentifier
            logger.info("launched \(bundleIdentifier) \(context.arguments)")
        } catch {
            let message = (error as? AppFatalError)?.message ?? String(describing: error)
            crashes[bundleIdentifier] = message
            logger.error("\(bundleIdentifier) stopped: \(message)")
            renderIfNeeded()
            throw DeviceError.appCrashed(bundleIdentifier: bundleIdentifier, message: message)
        }
        renderIfNeeded()
        startDisplayLinkIfNeeded()
        try await settle()
        return status(of: bundleIdentifier)
    }

    /// Stops an app, foreground or background; a no-op when it is not running.
    package func terminate(_ bundleIdentifier: String) {
        background[bundleIdentifier] = nil
        guard foreground == bundleIdentifier else { return }
        scene.setAppRootScreen(nil)
        foreground = nil
        renderIfNeeded()
    }

    /// The home button: the foreground app goes to the background and keeps its state.
    package func pressHome() {
        // Home puts Notification Center away first, as the home gesture does.
        if scene.isShowingNotificationCenter {
            scene.hideNotificationCenter()
            renderIfNeeded()
            return
        }
        guard let app = foreground else { return }
        sendToBackground(app)
        renderIfNeeded()
    }

    /// Brings a background app back, as tapping its icon does.
    package func activate(_ bundleIdentifier: String) async throws {
        try ensureBooted()
        guard let screen = background.removeValue(forKey: bundleIdentifier) else {
            if foreground == bundleIdentifier { return }
            try await launch(bundleIdentifier)
            return
        }
        if let other = foreground { sendToBackground(other) }
        scene.setAppRootScreen(screen)
        foreground = bundleIdentifier
        renderIfNeeded()
        try await settle()
    }

    package func status(of bundleIdentifier: String) -> AppStatus {
        if let message = crashes[bundleIdentifier] {
            return AppStatus(bundleIdentifier: bundleIdentifier, state: .crashed, message: message)
        }
        if foreground == bundleIdentifier { return AppStatus(bundleIdentifier: bundleIdentifier, state: .runningForeground) }
        if background[bundleIdentifier] != nil { return AppStatus(bundleIdentifier: bundleIdentifier, state: .runningBackground) }
        return AppStatus(bundleIdentifier: bundleIdentifier, state: .notRunning)
    }

    /// Waits on the device clock until the app reaches `state`; false on timeout.
    package func wait(for state: AppState, of bundleIdentifier: String, timeout: Duration) async throws -> Bool {
        try await poll(timeout: timeout) { status(of: bundleIdentifier).state == state }
    }

    private func sendToBackground(_ app: String) {
        if let screen = scene.appWindow.rootScreen { background[app] = screen }
        scene.setAppRootScreen(nil)
        foreground = nil
    }

    // MARK: Inspection

    /// The whole accessibility tree, as the automation API sends it.
    package func tree() -> [ElementSnapshot] {
        // A traced action's lookup sees the tree its trace took, while nothing happened since.
        if let shared = tracedTree {
            tracedTree = nil
            if shared.time == clock.now, shared.frame == latestFrame?.presentationTime, !scene.needsRender { return shared.tree }
        }
        return scene.accessibilityTree()
    }

    package func elements(_ query: ElementQuery) -> [ElementSnapshot] { query.evaluate(in: tree()) }

    /// The first element matching `query`, or an error naming what the screen has instead.
    package func element(_ query: ElementQuery) throws -> ElementSnapshot {
        try ensureRunning()
        let roots = tree()
        if let match = query.evaluate(in: roots).first { return match }
        let nearby = roots.flatMap(\.flattened)
            .filter { !$0.type.isChrome }
            .map(\.displayName).filter { !$0.isEmpty }
        throw DeviceError.elementNotFound(query: query.description, nearby: Array(nearby.prefix(12)))
    }

    /// Waits on the device clock for an element to be on screen (or, with `exists: false`, to
    /// be gone from it; with `hittable`, to be on screen and hittable). Returns whether it
    /// happened before the timeout, like `waitForExistence` and `waitForHittable`. An element
    /// still sliding in from off screen (mid-push) does not count yet.
    package func waitFor(_ query: ElementQuery, exists: Bool = true, hittable: Bool = false, timeout: Duration) async throws -> Bool {
        try ensureBooted()
        return try await traced("wait for \(query)\(exists ? "" : " to go")", query: query, looksUpFirst: true) {
            try await poll(timeout: timeout) {
                let found = onScreen(query).contains { !hittable || $0.isHittable }
                return found == exists
            }
        }
    }

    /// The elements matching `query` that are on screen: inside the screen's bounds, not off to
    /// the side where a push or a modal is still bringing them in.
    package func onScreen(_ query: ElementQuery) -> [ElementSnapshot] {
        onScreen(query, in: tree())
    }

    /// `onScreen(_:)` in a tree already taken.
    func onScreen(_ query: ElementQuery, in tree: [ElementSnapshot]) -> [ElementSnapshot] {
        let screen = scene.bounds
        return query.evaluate(in: tree).filter { element in
            let frame = element.frame
            return frame.width > 0 && frame.height > 0 && frame.minX >= screen.minX - 0.5 && frame.maxX <= screen.maxX + 0.5
                && frame.maxY > screen.minY && frame.minY < screen.maxY
        }
    }

    /// The current screen as pixels (the last rendered frame).
    package func screenshot() -> PixelBuffer {
        currentFrame().pixels
    }

    /// The last rendered frame, rendered first when the screen changed since.
    func currentFrame() -> Frame {
        renderIfNeeded()
        return latestFrame!
    }

    package var statusBar: StatusBarValues { scene.statusBar }

    /// True while something moves on screen (a push, the keyboard, a fade): the app is not
    /// yet idle, in XCUITest's sense.
    package var isAnimating: Bool {
        syncSceneTime()
        return scene.hasRunningAnimations
    }

    /// True when the last frame sent to recorders shows the screen as it is now.
    package var isDisplayUpToDate: Bool { !scene.needsRender }

    // MARK: Events

    /// Taps the centre of the first hittable element matching `query`, then waits until the
    /// app is idle again (see `settle()`).
    package func tap(_ query: ElementQuery, count: Int = 1) async throws {
        try await traced(
            count == 1 ? "tap \(query)" : count == 2 ? "double tap \(query)" : "tap \(query) \(count) times", query: query,
            looksUpFirst: true
        ) {
            let point = try await hittablePoint(query)
            for _ in 0..<max(count, 1) { try await touch(at: point) }
            try await settle()
        }
    }

    /// A tap at `point` (held for `hold`), then waits until the app is idle again.
    package func tap(at point: Point, hold: Duration = DeviceAction.Defaults.tapHold) async throws {
        try await traced("tap at (\(Int(point.x)), \(Int(point.y)))", point: point) {
            try await touch(at: point, hold: hold)
            try await settle()
        }
    }

    /// Presses and holds on an element or a point for `duration`.
    package func press(_ query: ElementQuery, duration: Duration) async throws {
        try await traced("press \(query) for \(duration.seconds) s", query: query, looksUpFirst: true) {
            try await tap(at: try await hittablePoint(query), hold: duration)
        }
    }

    /// A finger down at `point`, held for `tapDuration` (or `hold`), then lifted: the
    /// recording shows the highlight while the finger is down.
    func touch(at point: Point, hold: Duration = DeviceAction.Defaults.tapHold) async throws {
        try ensureRunning()
        syncSceneTime()
        scene.touchDown(at: point)
        renderIfNeeded()
        try await advance(by: hold)
        _ = scene.touchUp(at: point)
        renderIfNeeded()
        startDisplayLinkIfNeeded()
        // A tapped notification banner opens its app.
        if let app = scene.notifications.takeOpenRequest() { try await activate(app) }
    }

    /// The longest an action waits for the app to become idle: an endless animation (a
    /// spinner) must not hang a test.
    package static let idleTimeout: Duration = .seconds(10)

    /// Lets device time pass until nothing moves on screen but touch indicators, as XCUITest
    /// waits for the app to be idle after every action: a tap that pushes a screen returns
    /// once the pushed screen is in place, so the next check and the video both see it.
    package func settle() async throws {
        syncSceneTime()
        let deadline = clock.now + Self.idleTimeout
        while !scene.isIdle, clock.now < deadline {
            try await advance(by: Self.frameInterval)
        }
        // On the real clock a loaded machine may reach the end of the animation before settling
        // starts (the sync above): the settled screen is rendered here, not left to the display
        // link after the action returned.
        renderIfNeeded()
    }

    package func overrideStatusBar(_ values: StatusBarValues) {
        scene.statusBar = values
        renderIfNeeded()
    }

    package func clearStatusBarOverrides() {
        scene.clearStatusBarOverrides()
        renderIfNeeded()
    }

    /// Switches every app and the system screens to light or dark, as `simctl ui <device>
    /// appearance dark` does on a running simulator.
    package func setInterfaceStyle(_ style: InterfaceStyle) {
        interfaceStyle = style
        scene.interfaceStyle = style
        renderIfNeeded()
    }

    /// Lets time pass on the device clock (instant on the virtual clock).
    package func wait(_ duration: Duration) async throws {
        try ensureBooted()
        try await traced("wait \(duration.seconds) s") { try await advance(by: duration) }
    }

    // MARK: Lifecycle

    /// Ends every display stream (recorders finalise their files), and marks the device shut down.
    package func shutdown() {
        guard !isShutDown else { return }
        isShutDown = true
        displayLink?.cancel()
        display.shutDown()
        if var record = try? registry.resolve(udid) {
            record.state = .shutdown
            try? registry.save(record)
        }
        logger.info("shut down \(name) (\(udid))")
    }

    // MARK: Time and frames

    /// The one place time passes: everything the device does in time goes through here.
    /// While something moves on screen, time advances a frame (1/60 s) at a time and each
    /// step is rendered, so animations appear in recordings; otherwise it jumps to the end.
    func advance(by duration: Duration) async throws {
        let end = clock.now + duration
        while clock.now < end {
            try Task.checkCancellation()  // an action whose client went away stops here
            var step = scene.hasRunningAnimations ? min(Self.frameInterval, end - clock.now) : end - clock.now
            // A route's location reports and a banner leaving are rendered when they happen.
            if let next = scene.nextScheduledUpdate(after: clock.now) { step = min(step, next - clock.now) }
            try await clock.advance(by: step)
            syncSceneTime()
            renderIfNeeded()
        }
        syncSceneTime()
        renderIfNeeded()
    }

    /// Brings the scene's clock (animations, the status bar's time) to the device's.
    func syncSceneTime() {
        scene.advanceTime(to: clock.now)
    }

    /// On the real clock, animations started by an event keep rendering at 60 Hz after the
    /// event returns, like a display link; the virtual clock renders them when time is advanced.
    func startDisplayLinkIfNeeded() {
        guard clock.kind == .real, scene.hasRunningAnimations || scene.nextScheduledUpdate(after: clock.now) != nil, displayLink == nil
        else { return }
        displayLink = Task { [weak self] in
            while !Task.isCancelled, let self, await self.displayLinkTick() {
                try? await Task.sleep(for: Self.frameInterval)
            }
        }
    }

    /// One display-link frame; false once nothing moves any more.
    private func displayLinkTick() -> Bool {
        syncSceneTime()
        renderIfNeeded()
        // A route moves the location on the real clock too.
        guard scene.hasRunningAnimations || scene.nextScheduledUpdate(after: clock.now) != nil, !isShutDown else {
            displayLink = nil
            return false
        }
        return true
    }

    /// Re-checks `condition` as device time passes, up to `timeout`.
    private func poll(timeout: Duration, _ condition: () -> Bool) async throws -> Bool {
        let step: Duration = clock.kind == .virtual ? .milliseconds(100) : .milliseconds(50)
        let deadline = clock.now + timeout
        while true {
            if condition() { return true }
            guard clock.now < deadline else { return false }
            try await advance(by: min(step, deadline - clock.now))
        }
    }

    func renderIfNeeded() {
        guard scene.needsRender, !isShutDown else { return }
        // The screen's size as it is now: turned on its side, a frame is as wide as it was tall.
        let (pixels, stale) = recycler.buffer(width: scene.profile.pixelWidth, height: scene.profile.pixelHeight)
        // Over the last frame: only what changed is drawn again.
        scene.render(into: pixels, over: latestFrame?.pixels, differingIn: stale)
        let frame = Frame(pixels: pixels, presentationTime: clock.now, changedAreas: scene.changedAreas)
            .stamped(after: latestFrame?.presentationTime)
        recycler.published(changing: scene.changedAreas, replacing: latestFrame?.pixels)
        latestFrame = frame
        actionTrace?.screenChanged(at: frame.presentationTime, in: scene.changedAreas)
        display.publish(frame)
    }

    private func hittablePoint(_ query: ElementQuery) async throws -> Point {
        let element = try element(query)
        guard element.isHittable else { throw DeviceError.elementNotHittable(query: query.description) }
        return element.frame.center
    }

    func ensureBooted() throws {
        if isShutDown { throw DeviceError.shutDown }
    }

    func ensureRunning() throws {
        try ensureBooted()
        if foreground == nil, let (app, message) = crashes.first {
            throw DeviceError.appCrashed(bundleIdentifier: app, message: message)
        }
        guard foreground != nil else { throw DeviceError.appNotRunning }
    }
}

extension Device {
    /// Tests: whether each render is checked against a whole render that leaves nothing out
    /// (neither the unchanged areas nor drawing hidden under opaque views).
    package func verifyRenders(_ on: Bool) { scene.verifiesRenders = on }

    /// Tests: how many element trees the device has taken (see `traced`).
    package var treesTaken: Int { scene.accessibilityTreesTaken }

    /// Tests: renders that drew only the changed areas, backgrounds left out as hidden, and the
    /// renders that differed from a reference render (see `verifyRenders`).
    package func renderChecks() -> (partialRenders: Int, overdrawLeftOut: Int, mismatches: [String]) {
        (scene.partialRenderCount, scene.overdrawLeftOut, scene.renderMismatches)
    }
}
