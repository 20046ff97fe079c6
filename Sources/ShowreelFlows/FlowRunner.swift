import Foundation
import Logging
import ShowreelAccessibility
import ShowreelDevice
import ShowreelRecorder
import ShowreelRender
import ShowreelReport
import ShowreelSession
import ShowreelTrace
import ShowreelUI
import ShowreelWire

/// How flows are run and recorded.
package struct FlowRunOptions: Sendable {
    /// Where videos and screenshots go.
    package var output: URL
    package var apps: [AppDefinition]
    package var recording: RecordingOptions
    package var container: VideoContainer
    /// Caption every step with its plain-words summary (`--captions steps`).
    package var captionsSteps: Bool
    /// Write each video's step trace (`<name>.trace.json`) for the report.
    package var traces: Bool
    /// Write each video's animated preview (`<name>.webp`) for pull requests and summary.md.
    package var previews: Bool
    /// The run's variables (`-e KEY=VALUE`), which each flow's `environment` already holds over
    /// its header's `env:`: kept here for what reads variables by name.
    package var variables: [String: String]
    package var logger: Logger

    package init(
        output: URL, apps: [AppDefinition], recording: RecordingOptions = RecordingOptions(),
        container: VideoContainer = .mov, captionsSteps: Bool = false, traces: Bool = true, previews: Bool = true,
        variables: [String: String] = [:],
        logger: Logger = Logger(label: "showreel.flows", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.output = output
        self.apps = apps
        self.recording = recording
        self.container = container
        self.captionsSteps = captionsSteps
        self.traces = traces
        self.previews = previews
        self.variables = variables
        self.logger = logger
    }
}

/// Runs flows, each on its own in-process device (virtual clock, private registry) recorded
/// in-process into one video, and describes each run as a manifest entry.
package struct FlowRunner: Sendable {
    package var options: FlowRunOptions

    package init(options: FlowRunOptions) { self.options = options }

    /// Runs `flows` with up to `workers` at a time; calls `progress` as each one finishes.
    /// Entries come back in the order of `flows`. When the task is cancelled (Ctrl-C), running
    /// flows stop before their next step and keep their videos; flows not started are skipped.
    ///
    /// Recordings that run side by side keep to one thread each when their options leave the
    /// encoder's threads to the recorder (`threads` 0): the workers already keep the cores busy,
    /// and x264's slice threads and swscale's would only add hand-offs between them.
    package func run(
        _ flows: [Flow], workers: Int,
        progress: @Sendable (ManifestEntry) -> Void = { _ in }
    ) async -> [ManifestEntry] {
        var runner = self
        if workers > 1, flows.count > 1, options.recording.threads == 0 { runner.options.recording.threads = 1 }
        return await runner.runEach(flows, workers: workers, progress: progress)
    }

    private func runEach(
        _ flows: [Flow], workers: Int, progress: @Sendable (ManifestEntry) -> Void
    ) async -> [ManifestEntry] {
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
            entry
                ?? ManifestEntry(
                    id: flow.id, name: flow.name, status: .skipped, duration: 0,
                    failures: [ManifestEntry.Failure(message: "Not run: the run was interrupted.")])
        }
    }

    /// File names without extension, one per flow: the file's base name, numbered (" 2", " 3"...)
    /// when flows from different folders share one (`FileNaming`'s rule).
    static func videoNames(for flows: [Flow]) -> [String] {
        FileNaming.unique(flows.map { $0.url.deletingPathExtension().lastPathComponent })
    }

    /// Runs one flow: boots its device, records from the first step to the last (or the
    /// failing one), and shuts the device down. Never throws: problems become a failed entry.
    package func run(_ flow: Flow, videoName: String) async -> ManifestEntry {
        var entry = ManifestEntry(id: flow.id, name: flow.name, status: .passed, duration: 0)
        let home = URL(fileURLWithPath: "/tmp").appendingPathComponent("srf-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: home) }
        let device: Device
        let videoFile = "\(videoName).\(options.container.fileExtension)"
        do {
            device = try Device(
                name: flow.device.name, profile: flow.device.profile, clock: .virtual, apps: options.apps,
                registry: DeviceRegistry(home: home), showsTouches: flow.device.showsTouches,
                interfaceStyle: flow.device.appearance, languages: flow.device.languages, logger: options.logger)
        } catch {
            return entry.failing("Could not boot the device: \(ErrorSentence.describe(error))")
        }
        await device.overrideStatusBar(flow.device.statusBar)
        let recorded: RecordedSession
        var captions: CaptionedSink?
        do {
            recorded = try await RecordedSession(
                device: device, video: options.output.appendingPathComponent(videoFile),
                options: options.recording, mask: ScreenMask(profile: flow.device.profile),
                traces: options.traces, previews: options.previews, logger: options.logger
            ) { session in
                let sink = CaptionedSink(next: session, scale: Double(flow.device.profile.scale))
                captions = sink
                return sink
            }
        } catch {
            await device.shutdown()
            return entry.failing("Could not start the recorder: \(ErrorSentence.describe(error))")
        }
        let execution = FlowExecution(
            flow: flow, device: device, sink: captions, start: recorded.videoStart,
            options: options, screenshotPrefix: videoName)
        await execution.run()
        let trace = await recorded.endTrace(kept: true)

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
            // Ctrl-C asks to stop now: the video and its trace are kept, the preview is not made.
            let outcome = try await recorded.finish(
                steps: entry.steps.map { StepMark(title: $0.title, time: $0.time) }, trace: trace,
                preview: options.previews && entry.status != .interrupted)
            entry.video = videoFile
            entry.duration = outcome.duration
            entry.preview = outcome.preview?.lastPathComponent
        } catch {
            if entry.status != .interrupted { entry.status = .failed }
            entry.failures.append(ManifestEntry.Failure(message: "The video could not be written: \(ErrorSentence.describe(error))"))
        }
        await device.shutdown()
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
    package struct DriveResult: Sendable {
        package var steps: [ManifestEntry.Step]
        package var attachments: [String]
        package var failure: ManifestEntry.Failure?
        package var failureScreenshot: String?
        /// The failure is an interruption (Ctrl-C), not the app's.
        package var wasInterrupted: Bool
    }

    /// Drives `flow`'s steps on a device that is already booted, recorded by someone else (the
    /// demo's recorder, started through the tunnel host): step times count from now. Captions
    /// need the runner's own recording, so caption steps do nothing here.
    package func drive(_ flow: Flow, on device: Device, screenshotPrefix: String) async -> DriveResult {
        let execution = FlowExecution(
            flow: flow, device: device, sink: nil, start: device.clock.now, options: options,
            screenshotPrefix: screenshotPrefix)
        await execution.run()
        return DriveResult(
            steps: execution.steps, attachments: execution.attachments, failure: execution.failure,
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
    var videoTime: Double { ManifestEntry.videoSeconds(device.clock.now, since: start) }

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
        failure = ManifestEntry.Failure(
            message: message + " (Ctrl-C or SIGTERM)", location: step.location.description, deviceTime: videoTime)
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

    /// Performs a step: a device action (or a few, for `scrollUntilVisible`), or the runner's
    /// own work (screenshots, captions, sub-flows). The device settles after each action itself.
    private func perform(_ step: FlowStep) async throws {
        switch step.action {
        case let .launchApp(app, arguments, environment, clearState, permissions):
            guard let app = app ?? flow.appId else { throw StepFailure(message: "no app to launch: name one with appId") }
            try await apply(permissions, to: app)
            if clearState { try? FileManager.default.removeItem(at: device.dataContainer(for: app)) }
            try await act(
                .launch(
                    bundle: app, arguments: flow.device.launchArguments + (arguments ?? flow.arguments),
                    environment: flow.environment.merging(environment ?? [:]) { $1 }))
        case let .tap(target, count, hold):
            // As Maestro does, a tap on an element waits (up to 5 s) for it to be there.
            if case let .element(spec) = target { try await act(.waitFor(DeviceAction.WaitFor(Self.query(spec), timeout: .seconds(5)))) }
            try await act(.tap(DeviceAction.Tap(try await touchTarget(target), count: count, hold: hold ?? DeviceAction.Defaults.tapHold)))
        case let .inputText(text, into, keyDelay, jitter, seed):
            var query: ElementQuery?
            if let into {
                if case let .element(spec) = into {
                    query = Self.query(spec)
                } else {
                    try await act(.tap(DeviceAction.Tap(try await touchTarget(into))))
                }
            }
            try await act(.typeText(DeviceAction.TypeText(text, into: query, keyDelay: keyDelay, jitter: jitter, seed: seed)))
        case let .pressKey(key):
            try await act(key == "Home" ? .pressHome : .pressKey(key))
        case let .swipe(swipe):
            try await act(.swipe(DeviceAction.Swipe(try await path(of: swipe), duration: swipe.duration)))
        case let .scroll(direction):
            try await act(.scroll(direction))
        case let .scrollUntilVisible(target, direction, timeout):
            try await scrollUntilVisible(target, direction: direction, timeout: timeout)
        case .back:
            let back = ElementQuery.button("BackButton")
            guard await !device.elements(back).isEmpty else {
                throw StepFailure(message: "there is no back button on this screen")
            }
            try await act(.tap(DeviceAction.Tap(.element(back))))
        case .shake:
            try await act(.shake)
        case let .keyCommand(command):
            try await act(.keyCommand(command))
        case let .assertVisible(target, timeout), let .waitFor(target, timeout):
            let query = try Self.query(target)
            if try await !device.performWait(.waitFor(DeviceAction.WaitFor(query, timeout: timeout))).matched {
                _ = try await device.element(query)  // throws with what the screen shows instead
            }
        case let .assertNotVisible(target, timeout):
            let query = try Self.query(target)
            if try await !device.performWait(.waitFor(DeviceAction.WaitFor(query, exists: false, timeout: timeout))).matched {
                throw StepFailure(message: "\(query) is still visible after \(timeout.seconds.formatted()) s")
            }
        case let .wait(duration):
            try await act(.wait(duration))
        case let .screenshot(name):
            let file = "\(screenshotPrefix)-\(name).png"
            try await writeScreenshot(file)
            attachments.append(file)
        case let .setAppearance(style):
            await device.setInterfaceStyle(style)
        case let .system(step):
            try await perform(step)
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

    private func act(_ action: DeviceAction) async throws {
        _ = try await device.perform(action)
    }

    /// Captions the video from now on, above the keyboard when one is showing.
    private func showCaption(_ text: String) async {
        guard let sink else { return }
        let keyboard = await device.elements(.descendants(type: .keyboard)).first?.frame.minY
        sink.setCaption(text, at: device.clock.now, above: keyboard)
    }

    /// The device's swipe for a flow's: on an element, from an edge, from a point (or the
    /// screen's centre) in a direction, or between two targets.
    private func path(of swipe: FlowStep.Swipe) async throws -> DeviceAction.Swipe.Path {
        if let edge = swipe.edge { return .edge(edge) }
        if let direction = swipe.direction {
            if case let .element(spec) = swipe.from { return .element(Self.query(spec), direction) }
            let screen = await device.screenPointSize
            let from = try await swipe.from.asyncMap { try await point($0) } ?? Point(x: screen.width / 2, y: screen.height / 2)
            return .from(from, direction)
        }
        guard let from = swipe.from, let to = swipe.to else {
            throw StepFailure(message: "a swipe needs a direction, an edge, or from and to")
        }
        return .points(from: try await point(from), to: try await point(to))
    }

    private func scrollUntilVisible(_ target: FlowStep.Target, direction: FlowStep.Direction, timeout: Duration) async throws {
        let query = try Self.query(target)
        let deadline = device.clock.now + timeout
        let screen = await device.screenPointSize
        while true {
            if let element = await device.elements(query).first, element.isHittable,
                element.frame.minY >= 0, element.frame.maxY <= screen.height
            {
                return
            }
            guard device.clock.now < deadline else {
                throw StepFailure(
                    message: "\(query) did not come into view after scrolling \(direction.rawValue) for \(timeout.seconds.formatted()) s")
            }
            try await act(.scroll(direction))
        }
    }

    /// Where a tap goes: the element (the device finds its hittable centre) or the point.
    private func touchTarget(_ target: FlowStep.Target) async throws -> DeviceAction.Target {
        if case let .element(spec) = target { return .element(Self.query(spec)) }
        return .point(try await point(target))
    }

    /// A target's point on screen: the element's centre, or the point resolved on this screen.
    private func point(_ target: FlowStep.Target) async throws -> Point {
        switch target {
        case let .point(x, y):
            let screen = await device.screenPointSize
            return Point(x: x.resolve(in: screen.width), y: y.resolve(in: screen.height))
        case let .element(spec):
            return try await device.element(Self.query(spec)).frame.center
        }
    }

    static func query(_ spec: FlowStep.ElementQuerySpec) -> ElementQuery {
        ElementQuery(steps: [ElementQuery.Step(type: spec.type, key: spec.text, identifier: spec.id, index: spec.index)])
    }

    static func query(_ target: FlowStep.Target) throws -> ElementQuery {
        guard case let .element(spec) = target else {
            throw StepFailure(message: "a point cannot be checked for visibility: name an element")
        }
        return query(spec)
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
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
