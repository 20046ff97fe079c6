import Foundation
import Logging
import ShowreelAccessibility
import ShowreelDevice
import ShowreelRecorder
import ShowreelRender
import ShowreelReport
import ShowreelTrace
import ShowreelUI
import ShowreelWire

/// How flows are run and recorded.
public struct FlowRunOptions: Sendable {
    /// Where videos and screenshots go.
    public var output: URL
    public var apps: [AppDefinition]
    public var recording: RecordingOptions
    public var container: VideoContainer
    /// Caption every step with its plain-words summary (`--captions steps`).
    public var captionsSteps: Bool
    /// Write each video's step trace (`<name>.trace.json`) for the report.
    public var traces: Bool
    /// Write each video's animated preview (`<name>.webp`) for pull requests and summary.md.
    public var previews: Bool
    public var logger: Logger

    public init(output: URL, apps: [AppDefinition], recording: RecordingOptions = RecordingOptions(),
                container: VideoContainer = .mov, captionsSteps: Bool = false, traces: Bool = true, previews: Bool = true,
                logger: Logger = Logger(label: "showreel.flows", factory: { _ in SwiftLogNoOpLogHandler() })) {
        self.output = output
        self.apps = apps
        self.recording = recording
        self.container = container
        self.captionsSteps = captionsSteps
        self.traces = traces
        self.previews = previews
        self.logger = logger
    }
}

/// Runs flows, each on its own in-process device (virtual clock, private registry) recorded
/// in-process into one video, and describes each run as a manifest entry.
public struct FlowRunner: Sendable {
    public var options: FlowRunOptions

    public init(options: FlowRunOptions) { self.options = options }

    /// Runs `flows` with up to `workers` at a time; calls `progress` as each one finishes.
    /// Entries come back in the order of `flows`. When the task is cancelled (Ctrl-C), running
    /// flows stop before their next step and keep their videos; flows not started are skipped.
    public func run(_ flows: [Flow], workers: Int,
                    progress: @Sendable (ManifestEntry) -> Void = { _ in }) async -> [ManifestEntry] {
        let names = Self.videoNames(for: flows)
        var results = [ManifestEntry?](repeating: nil, count: flows.count)
        await withTaskGroup(of: (Int, ManifestEntry).self) { group in
            var next = 0
            func startNext() {
                guard next < flows.count, !Task.isCancelled else { return }
                let index = next
                next += 1
                group.addTask { (index, await run(flows[index], videoName: names[index])) }
            }
            for _ in 0..<max(1, workers) { startNext() }
            while let (index, entry) = await group.next() {
                results[index] = entry
                progress(entry)
                startNext()
            }
        }
        return zip(flows, results).map { flow, entry in
            entry ?? ManifestEntry(id: flow.id, name: flow.name, status: .skipped, duration: 0,
                                   failures: [ManifestEntry.Failure(message: "Not run: the run was interrupted.")])
        }
    }

    /// File names without extension, one per flow: the file's base name, with "-2", "-3"...
    /// when flows from different folders share one.
    static func videoNames(for flows: [Flow]) -> [String] {
        var used = Set<String>()
        return flows.map { flow in
            let base = flow.url.deletingPathExtension().lastPathComponent
            var name = base, n = 2
            while used.contains(name) {
                name = "\(base)-\(n)"
                n += 1
            }
            used.insert(name)
            return name
        }
    }

    /// Runs one flow: boots its device, records from the first step to the last (or the
    /// failing one), and shuts the device down. Never throws: problems become a failed entry.
    public func run(_ flow: Flow, videoName: String) async -> ManifestEntry {
        var entry = ManifestEntry(id: flow.id, name: flow.name, status: .passed, duration: 0)
        let home = URL(fileURLWithPath: "/tmp").appendingPathComponent("srf-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: home) }
        let device: Device
        let session: RecordingSession
        let videoFile = "\(videoName).\(options.container.fileExtension)"
        do {
            device = try Device(name: flow.device.name, profile: flow.device.profile, clock: .virtual, apps: options.apps,
                                registry: DeviceRegistry(home: home), showsTouches: flow.device.showsTouches,
                                interfaceStyle: flow.device.appearance, languages: flow.device.languages, logger: options.logger)
        } catch {
            return entry.failing("Could not boot the device: \(ErrorSentence.describe(error))")
        }
        await device.overrideStatusBar(flow.device.statusBar)
        do {
            try FileManager.default.createDirectory(at: options.output, withIntermediateDirectories: true)
            session = try RecordingSession(url: options.output.appendingPathComponent(videoFile), info: device.display.info,
                                           options: options.recording, mask: ScreenMask(profile: flow.device.profile),
                                           framesAreShared: true, logger: options.logger)
        } catch {
            await device.shutdown()
            return entry.failing("Could not start the recorder: \(ErrorSentence.describe(error))")
        }
        let sink = CaptionedSink(next: session, scale: Double(flow.device.profile.scale))
        let subscription = device.display.subscribe(sink)
        let trace = options.traces ? ActionTrace() : nil
        if let trace { await device.setActionTrace(trace) }
        let execution = FlowExecution(flow: flow, device: device, sink: sink, start: session.startTime ?? device.clock.now,
                                      options: options, screenshotPrefix: videoName)
        await execution.run()
        subscription.stop()
        await device.shutdown()

        entry.steps = execution.steps
        entry.attachments = execution.attachments
        let untranslated = device.missingTranslations.entries
        if !untranslated.isEmpty {
            entry.missingTranslations = untranslated.map {
                ManifestEntry.MissingTranslation(app: $0.bundleIdentifier, language: $0.language, key: $0.key)
            }
        }
        if let failure = execution.failure {
            entry.status = execution.wasInterrupted ? .interrupted : .failed
            entry.failures = [failure]
            entry.screenshot = execution.failureScreenshot
        }
        do {
            let summary = try session.finish(steps: entry.steps.map { StepMark(title: $0.title, time: $0.time) })
            entry.video = videoFile
            entry.duration = summary.duration.seconds
            if let trace {
                let steps = TraceExport.trace(of: trace.entries, screen: flow.device.profile.pointSize,
                                              videoStart: session.startTime ?? .zero)
                do { try TraceExport.write(steps, besideVideo: options.output.appendingPathComponent(videoFile)) } catch {
                    options.logger.warning("the step trace could not be written", metadata: ["video": "\(videoFile)", "error": "\(error)"])
                }
            }
            // Ctrl-C asks to stop now: the video and its trace are kept, the preview is not made.
            if options.previews, entry.status != .interrupted {
                entry.preview = AnimatedPreview.make(for: summary.url, logger: options.logger)?.lastPathComponent
            }
        } catch {
            if entry.status != .interrupted { entry.status = .failed }
            entry.failures.append(ManifestEntry.Failure(message: "The video could not be written: \(ErrorSentence.describe(error))"))
        }
        return entry
    }
}

extension ManifestEntry {
    /// This entry, failed with `message` before any step ran.
    func failing(_ message: String) -> ManifestEntry {
        var entry = self
        entry.status = .failed
        entry.failures = [Failure(message: message)]
        return entry
    }
}

extension FlowRunner {
    /// What driving a flow did: its steps with their times, and the failure if one stopped it.
    public struct DriveResult: Sendable {
        public var steps: [ManifestEntry.Step]
        public var attachments: [String]
        public var failure: ManifestEntry.Failure?
        public var failureScreenshot: String?
        /// The failure is an interruption (Ctrl-C), not the app's.
        public var wasInterrupted: Bool
    }

    /// Drives `flow`'s steps on a device that is already booted, recorded by someone else (the
    /// demo's recorder, started through the tunnel host): step times count from now. Captions
    /// need the runner's own recording, so caption steps do nothing here.
    public func drive(_ flow: Flow, on device: Device, screenshotPrefix: String) async -> DriveResult {
        let execution = FlowExecution(flow: flow, device: device, sink: nil, start: device.clock.now, options: options,
                                      screenshotPrefix: screenshotPrefix)
        await execution.run()
        return DriveResult(steps: execution.steps, attachments: execution.attachments, failure: execution.failure,
                           failureScreenshot: execution.failureScreenshot, wasInterrupted: execution.wasInterrupted)
    }
}

/// A step that failed: why, and where in the file.
struct StepFailure: Error {
    let message: String
}

/// One flow being run: the device, the recorder's sink, and what happened so far.
final class FlowExecution: @unchecked Sendable {
    let flow: Flow
    let device: Device
    let sink: CaptionedSink?
    let start: Duration
    let options: FlowRunOptions
    let screenshotPrefix: String
    private(set) var steps: [ManifestEntry.Step] = []
    private(set) var attachments: [String] = []
    private(set) var failure: ManifestEntry.Failure?
    private(set) var failureScreenshot: String?
    /// Stopped by cancellation (Ctrl-C, SIGTERM), not by a failing step.
    private(set) var wasInterrupted = false

    init(flow: Flow, device: Device, sink: CaptionedSink?, start: Duration, options: FlowRunOptions, screenshotPrefix: String) {
        self.flow = flow
        self.device = device
        self.sink = sink
        self.start = start
        self.options = options
        self.screenshotPrefix = screenshotPrefix
    }

    /// Seconds into the video, to the millisecond (the video's time base).
    var videoTime: Double { ((device.clock.now - start).seconds * 1000).rounded() / 1000 }

    func run() async {
        do { try await run(flow.steps) } catch {
            // Already recorded where it happened.
        }
    }

    private func run(_ steps: [FlowStep]) async throws {
        for step in steps {
            if Task.isCancelled {
                interrupt("Interrupted before \(step.title)", at: step)
                throw NestedFailure()
            }
            let index = self.steps.count
            self.steps.append(ManifestEntry.Step(title: step.title, time: videoTime, location: step.location.description, status: .passed))
            if options.captionsSteps, !step.isCaption { await showCaption(step.summary) }
            // A step is traced whole (its waits and taps give it its target); runFlow and repeat
            // are traced as the steps they hold.
            let traced = step.isContainer ? nil : await device.beginTracedStep(step.title)
            do {
                try await perform(step)
                await device.endTracedStep(traced, error: nil)
            } catch let nested as NestedFailure {
                self.steps[index].status = .failed
                throw nested
            } catch {
                if error is CancellationError || Task.isCancelled {
                    self.steps[index].status = .interrupted
                    interrupt("Interrupted during \(step.title)", at: step)
                    await device.endTracedStep(traced, error: failure?.message, interrupted: true)
                } else {
                    self.steps[index].status = .failed
                    await fail(step, error)
                    await device.endTracedStep(traced, error: Self.message(of: error))
                }
                throw NestedFailure()
            }
        }
    }

    /// Thrown up through `runFlow` and `repeat` once the failing step is recorded.
    private struct NestedFailure: Error {}

    /// Ctrl-C or SIGTERM stopped the flow at `step`: said as such, not as the step's failure.
    private func interrupt(_ message: String, at step: FlowStep) {
        wasInterrupted = true
        failure = ManifestEntry.Failure(message: message + " (Ctrl-C or SIGTERM)", location: step.location.description, deviceTime: videoTime)
    }

    private func fail(_ step: FlowStep, _ error: any Error) async {
        let message = Self.message(of: error)
        failure = ManifestEntry.Failure(message: "\(step.title): \(message)", location: step.location.description, deviceTime: videoTime)
        let name = "\(screenshotPrefix)-failure.png"
        if (try? await writeScreenshot(name)) != nil { failureScreenshot = name }
    }

    private static func message(of error: any Error) -> String {
        (error as? StepFailure)?.message ?? ErrorSentence.describe(error)
    }

    private func writeScreenshot(_ name: String) async throws {
        let pixels = await device.screenshot()
        try Data(pixels.pngData()).write(to: options.output.appendingPathComponent(name), options: .atomic)
    }

    // MARK: Steps

    private func perform(_ step: FlowStep) async throws {
        switch step.action {
        case let .launchApp(app, arguments, environment, clearState):
            guard let app = app ?? flow.appId else { throw StepFailure(message: "no app to launch: name one with appId") }
            if clearState { try? FileManager.default.removeItem(at: device.dataContainer(for: app)) }
            let context = LaunchContext(arguments: arguments ?? flow.arguments,
                                        environment: flow.environment.merging(environment ?? [:]) { $1 })
            try await device.launch(app, context: context)
            try await settle()
        case let .tap(target, count, hold):
            switch target {
            case let .element(spec):
                let query = Self.query(spec)
                _ = try await device.waitFor(query, timeout: .seconds(5))
                if let hold { try await device.press(query, duration: hold) } else { try await device.tap(query, count: count) }
            case .point:
                let point = try await self.point(target)
                for _ in 0..<count { try await device.tap(at: point, hold: hold ?? Device.tapDuration) }
            }
            try await settle()
        case let .inputText(text, into, keyDelay, jitter, seed):
            var query: ElementQuery?
            if let into {
                if case let .element(spec) = into { query = Self.query(spec) } else { try await device.tap(at: try await point(into)) }
            }
            try await device.typeText(text, into: query, keyDelay: keyDelay, jitter: jitter, seed: seed)
        case let .pressKey(key):
            if key == "Home" { await device.pressHome() } else { try await device.tapKey(key) }
            try await settle()
        case let .swipe(swipe):
            try await perform(swipe)
            try await settle()
        case let .scroll(direction):
            try await scroll(direction)
            try await settle()
        case let .scrollUntilVisible(target, direction, timeout):
            try await scrollUntilVisible(target, direction: direction, timeout: timeout)
        case .back:
            let back = ElementQuery.button("BackButton")
            guard await !device.elements(back).isEmpty else {
                throw StepFailure(message: "there is no back button on this screen")
            }
            try await device.tap(back)
            try await settle()
        case .shake:
            try await device.shake()
            try await settle()
        case let .keyCommand(key, modifiers):
            try await device.keyCommand(key, modifiers: modifiers)
            try await settle()
        case let .assertVisible(target, timeout), let .waitFor(target, timeout):
            let query = try Self.query(target)
            if try await !device.waitFor(query, timeout: timeout) {
                _ = try await device.element(query)  // throws with what the screen shows instead
            }
        case let .assertNotVisible(target, timeout):
            let query = try Self.query(target)
            if try await !device.waitFor(query, exists: false, timeout: timeout) {
                throw StepFailure(message: "\(query) is still visible after \(timeout.seconds.formatted()) s")
            }
        case let .wait(duration):
            try await device.wait(duration)
        case let .screenshot(name):
            let file = "\(screenshotPrefix)-\(name).png"
            try await writeScreenshot(file)
            attachments.append(file)
        case let .setAppearance(style):
            await device.setInterfaceStyle(style)
        case let .statusBar(values):
            await device.overrideStatusBar(values)
        case let .runFlow(subflow):
            try await run(subflow.steps)
        case let .repeatSteps(times, steps):
            for _ in 0..<times { try await run(steps) }
        case let .caption(text):
            await showCaption(text)
        }
    }

    /// Captions the video from now on, above the keyboard when one is showing.
    private func showCaption(_ text: String) async {
        guard let sink else { return }
        let keyboard = await device.elements(.descendants(type: .keyboard)).first?.frame.minY
        sink.setCaption(text, at: device.clock.now, above: keyboard)
    }

    /// Lets what the last step started (a push, an alert) finish, at most a second.
    private func settle() async throws {
        var budget = Duration.seconds(1)
        while await device.isAnimating, budget > .zero {
            try await device.wait(Device.frameInterval)
            budget -= Device.frameInterval
        }
    }

    private func perform(_ swipe: FlowStep.Swipe) async throws {
        if let edge = swipe.edge {
            try await device.swipe(.edge(edge), duration: swipe.duration)
            return
        }
        if let direction = swipe.direction {
            if case let .element(spec) = swipe.from {
                try await device.swipe(.element(Self.query(spec), direction), duration: swipe.duration)
                return
            }
            let screen = device.profile.pointSize
            var from = Point(x: screen.width / 2, y: screen.height / 2)
            if let start = swipe.from { from = try await point(start) }
            try await device.drag(from: from, to: Self.offset(from, direction, by: 0.4, of: screen), duration: swipe.duration)
            return
        }
        guard let from = swipe.from, let to = swipe.to else { return }
        try await device.drag(from: try await point(from), to: try await point(to), duration: swipe.duration)
    }

    /// Scrolling `direction` moves the content that way into view: the finger goes the other way.
    private func scroll(_ direction: FlowStep.Direction) async throws {
        let screen = device.profile.pointSize
        let centre = Point(x: screen.width / 2, y: screen.height / 2)
        let opposite: [FlowStep.Direction: FlowStep.Direction] = [.up: .down, .down: .up, .left: .right, .right: .left]
        let from = Self.offset(centre, direction, by: 0.2, of: screen)
        try await device.drag(from: from, to: Self.offset(centre, opposite[direction]!, by: 0.2, of: screen), duration: .milliseconds(400))
    }

    private func scrollUntilVisible(_ target: FlowStep.Target, direction: FlowStep.Direction, timeout: Duration) async throws {
        let query = try Self.query(target)
        let deadline = device.clock.now + timeout
        let screen = device.profile.pointSize
        while true {
            if let element = await device.elements(query).first, element.isHittable,
               element.frame.minY >= 0, element.frame.maxY <= screen.height { return }
            guard device.clock.now < deadline else {
                throw StepFailure(message: "\(query) did not come into view after scrolling \(direction.rawValue) for \(timeout.seconds.formatted()) s")
            }
            try await scroll(direction)
            try await settle()
        }
    }

    private static func offset(_ point: Point, _ direction: FlowStep.Direction, by fraction: Double, of screen: Size) -> Point {
        switch direction {
        case .up: Point(x: point.x, y: max(1, point.y - screen.height * fraction))
        case .down: Point(x: point.x, y: min(screen.height - 1, point.y + screen.height * fraction))
        case .left: Point(x: max(1, point.x - screen.width * fraction), y: point.y)
        case .right: Point(x: min(screen.width - 1, point.x + screen.width * fraction), y: point.y)
        }
    }

    /// A target's point on screen: the element's centre, or the point resolved on this screen.
    private func point(_ target: FlowStep.Target) async throws -> Point {
        switch target {
        case let .point(x, y):
            let screen = device.profile.pointSize
            return Point(x: x.resolve(in: screen.width), y: y.resolve(in: screen.height))
        case let .element(spec):
            return try await device.element(Self.query(spec)).frame.center
        }
    }

    static func query(_ spec: FlowStep.ElementQuerySpec) -> ElementQuery {
        ElementQuery(steps: [ElementQuery.Step(type: spec.type, key: spec.text, identifier: spec.id, index: spec.index)])
    }

    static func query(_ target: FlowStep.Target) throws -> ElementQuery {
        guard case let .element(spec) = target else { throw StepFailure(message: "a point cannot be checked for visibility: name an element") }
        return query(spec)
    }
}

extension FlowStep {
    var isCaption: Bool { if case .caption = action { true } else { false } }
    /// `runFlow` and `repeat`: steps that hold steps.
    var isContainer: Bool {
        switch action {
        case .runFlow, .repeatSteps: true
        default: false
        }
    }
}
