import Foundation
import ShowreelAccessibility
import ShowreelDevice
import ShowreelGraphics
import ShowreelReport

/// One WebDriver session: its device (booted for it, or attached), the elements it handed out,
/// its timeouts and its recordings. Commands of one session run one at a time, in order
/// (`queue`); sessions run in parallel, each on its own device.
actor WebDriverSession {
    nonisolated let id: String
    nonisolated let capabilities: SessionCapabilities
    nonisolated let device: SessionDevice
    /// The device this session booted and shuts down when it ends (nil when attached).
    nonisolated let ownedDevice: Device?
    /// The udid reported in the session's capabilities.
    nonisolated let udid: String
    /// Where the session's videos come from.
    nonisolated let videoSource: VideoSource
    nonisolated let queue = ActionQueue()

    var implicitWait: Duration = .zero
    private var elements: [String: ElementReference] = [:]
    private var nextElement = 1
    /// `showreel:record`: the whole session into the output folder.
    var sessionRecording: SessionRecording?
    /// Appium's start/stop_recording_screen.
    var screenRecording: ScreenRecording?
    /// The outcome a client reported with `showreel: status` (the manifest entry's status).
    var reportedFailure: String?
    /// When the last command finished (or the session started), for `newCommandTimeout`.
    private(set) var lastActivity = ContinuousClock.now
    /// Commands running now: a session is never idle while one runs.
    private var running = 0

    /// The session is ready for its client: its silence counts from now, not from before its
    /// device booted and its app launched (a slow start must not use up `newCommandTimeout`).
    func ready() { lastActivity = .now }

    func commandStarted() { running += 1 }
    func commandEnded() {
        running -= 1
        lastActivity = .now
    }

    /// Whether the client has been silent longer than `newCommandTimeout`.
    func isAbandoned(at now: ContinuousClock.Instant) -> Bool {
        guard let timeout = capabilities.newCommandTimeout, running == 0 else { return false }
        return now - lastActivity > timeout
    }

    /// The key W3C clients read an element id from, and the one older JSON-wire clients read.
    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

    init(id: String, capabilities: SessionCapabilities, device: SessionDevice, ownedDevice: Device?, udid: String, videoSource: VideoSource)
    {
        self.id = id
        self.capabilities = capabilities
        self.device = device
        self.ownedDevice = ownedDevice
        self.udid = udid
        self.videoSource = videoSource
    }

    /// The bundle id commands about "the app" mean: the session's, else the foreground one.
    func app() async throws(WebDriverError) -> String? {
        if let bundle = capabilities.bundleID { return bundle }
        return try await device.foregroundApp()
    }

    // MARK: Tree and elements

    func page() async throws(WebDriverError) -> PageTree {
        let roots = try await device.tree()
        let name = try await device.foregroundApp() ?? "Home"
        return PageTree(roots: roots, screen: try await device.screenSize(), appName: name)
    }

    /// An element id for `index` (the same id again for an element already handed out).
    func reference(_ index: Int, in tree: PageTree) -> String {
        let reference = ElementReference(tree.nodes[index])
        if let known = elements.first(where: { $0.value == reference })?.key { return known }
        let id = "\(self.id.prefix(8))-E\(nextElement)"
        nextElement += 1
        elements[id] = reference
        return id
    }

    /// The element `id` in a fresh tree, or `no such element` (never handed out) or `stale
    /// element reference` (gone from the screen since).
    func resolve(_ id: String) async throws(WebDriverError) -> (tree: PageTree, index: Int) {
        guard let reference = elements[id] else {
            throw WebDriverError(.noSuchElement, "This session never returned an element with id '\(id)'; find it first.")
        }
        let tree = try await page()
        guard let index = reference.locate(in: tree) else {
            let name = reference.identifier.isEmpty ? reference.label : reference.identifier
            throw WebDriverError(
                .staleElementReference,
                "The element '\(id)' (\(PageTree.typeName(reference.type)) \"\(name)\") is no longer on the screen; find it again. \(tree.summary())"
            )
        }
        return (tree, index)
    }

    /// Finds elements with `locator` below the application (or the element `parent`), waiting
    /// up to the implicit wait on the device clock for at least one. A find that waits is a step
    /// of the session's video: the time passes on screen.
    func find(_ locator: Locator, described: String, below parent: String?, all: Bool) async throws(WebDriverError) -> [String] {
        var waiting: SessionRecording.OpenStep?
        do throws(WebDriverError) {
            let found = try await poll(locator, described: described, below: parent, all: all) { () async -> Void in
                if waiting == nil, let sessionRecording {
                    waiting = await sessionRecording.begin("find \(described)", at: await device.now())
                }
            }
            if let waiting { await sessionRecording?.end(waiting, error: found.isEmpty ? "nothing matched" : nil) }
            return found
        } catch {
            if let waiting { await sessionRecording?.end(waiting, error: error.message) }
            throw error
        }
    }

    /// `find`'s loop: `willWait` runs before each wait.
    private func poll(
        _ locator: Locator, described: String, below parent: String?, all: Bool, willWait: () async -> Void
    ) async throws(WebDriverError) -> [String] {
        var waited = Duration.zero
        let step = Duration.milliseconds(100)
        while true {
            // A client that hung up cancelled the command: it ends here, not at the end of its wait.
            if Task.isCancelled { throw WebDriverError(.unknownError, "The client hung up; the find was cancelled.") }
            let (tree, start): (PageTree, Int)
            if let parent { (tree, start) = try await resolve(parent) } else { tree = try await page(); start = tree.root }
            let found = try await locator.selectOffPool(in: tree, from: start)
            if !found.isEmpty { return (all ? found : [found[0]]).map { reference($0, in: tree) } }
            if waited >= implicitWait {
                if all { return [] }
                let scope = parent.map { " below \(tree.describe(start)) (element '\($0)')" } ?? ""
                throw WebDriverError(.noSuchElement, "No element matches \(described)\(scope). \(tree.summary())")
            }
            await willWait()
            let pause = min(step, implicitWait - waited)
            try await device.wait(pause)
            waited += pause
        }
    }

    static func elementValue(_ id: String) -> JSONValue { [elementKey: .string(id), "ELEMENT": .string(id)] }
}
