import Foundation
import Logging
import ShowreelAccessibility
import ShowreelDevice
import ShowreelGraphics
import ShowreelRender
import ShowreelReport
import ShowreelScript
import ShowreelWire

/// A step that failed: why, and where in the file.
struct StepFailure: Error {
    let message: String
}

/// One flow being run: the device, the recorder's sink, its JavaScript, and what happened so far.
/// It runs steps; what each step does is its command's.
final class FlowExecution: @unchecked Sendable {
    let flow: Flow
    let device: Device
    let sink: CaptionedSink?
    let start: Duration
    let options: FlowRunOptions
    let screenshotPrefix: String
    /// The flow's JavaScript: one context for the flow and its sub-flows (`output` is shared).
    let scripts: ScriptEngine
    /// `inputRandom*`'s source: seeded by the flow's id, so a flow types the same every run.
    var random: SeededRandom
    private(set) var steps: [ManifestEntry.Step] = []
    private(set) var attachments: [String] = []
    private(set) var failure: ManifestEntry.Failure?
    private(set) var failureScreenshot: String?
    /// Stopped by cancellation (Ctrl-C, SIGTERM), not by a failing step.
    private(set) var wasInterrupted = false
    /// `startRecording`'s videos not yet stopped (the flow's end stops them).
    var recordings: [ExtraRecording] = []
    /// The step running now (for expressions' file and line).
    private(set) var current: FlowStep?
    /// Steps run so far, `repeat` and `runFlow` expanded: at most `FlowLimits.maximumSteps`,
    /// which also ends a `repeat` whose `while` never turns false.
    private var executed = 0

    /// The device's date at boot, for `Date` in scripts: the status bar's 9:41 on a fixed day,
    /// so a script's dates are the same every run.
    static let bootDate = Date(timeIntervalSince1970: 1_168_335_660)

    init(flow: Flow, device: Device, sink: CaptionedSink?, start: Duration, options: FlowRunOptions, screenshotPrefix: String) {
        self.flow = flow
        self.device = device
        self.sink = sink
        self.start = start
        self.options = options
        self.screenshotPrefix = screenshotPrefix
        let seed = SeededRandom.seed(for: flow.id)
        random = SeededRandom(seed: seed)
        let clock = device.clock
        scripts = ScriptEngine(
            seed: seed, timeLimit: FlowLimits.scriptSeconds,
            now: { Self.bootDate.addingTimeInterval(clock.now.seconds) })
        scripts.setGlobal("MAESTRO_FILENAME", flow.url.deletingPathExtension().lastPathComponent)
        let variables = flow.environment.merging(options.variables) { $1 }
        for (name, value) in variables.sorted(by: { $0.key < $1.key }) { scripts.setGlobal(name, value) }
    }

    /// Seconds into the video, to the millisecond (the video's time base).
    var videoTime: Double { ManifestEntry.videoSeconds(device.clock.now, since: start) }

    /// `onFlowStart`, the steps, then `onFlowComplete` whatever happened (as Maestro does;
    /// not after Ctrl-C).
    func run() async {
        do {
            try await run(flow.onFlowStart)
            try await run(flow.steps)
        } catch {
            // Already recorded where it happened.
        }
        if !wasInterrupted, !flow.onFlowComplete.isEmpty {
            do { try await run(flow.onFlowComplete) } catch {}
        }
        while (try? await stopRecording()) == true {}
    }

    /// Runs `steps` in order; throws once a failing step is recorded.
    func run(_ steps: [FlowStep]) async throws {
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
            let outer = current
            current = step
            defer {
                current = outer
                let lines = scripts.takeLog()
                if !lines.isEmpty {
                    for line in lines { options.logger.info("\(step.location): \(line)") }
                    self.steps[index].log = (self.steps[index].log ?? []) + lines
                }
            }
            do {
                executed += 1
                guard executed <= FlowLimits.maximumSteps else {
                    throw StepFailure(
                        message:
                            "the flow ran \(FlowLimits.maximumSteps) steps, its limit (a repeat whose while never turns false?): end the loop sooner"
                    )
                }
                try await step.command.run(in: self)
                await device.endTracedStep(traced, error: nil)
            } catch let nested as NestedFailure {
                self.steps[index].status = .failed
                throw nested
            } catch {
                if error is CancellationError || Task.isCancelled {
                    self.steps[index].status = .interrupted
                    interrupt("Interrupted during \(step.title)", at: step)
                    await device.endTracedStep(traced, error: failure?.message, interrupted: true)
                    throw NestedFailure()
                }
                if step.isOptional {
                    // Maestro's optional step: a warning, and the flow goes on.
                    let message = "optional step failed, the flow goes on: \(Self.message(of: error))"
                    self.steps[index].log = (self.steps[index].log ?? []) + [message]
                    options.logger.warning("\(step.location): \(message)")
                    await device.endTracedStep(traced, error: nil)
                    continue
                }
                self.steps[index].status = .failed
                await fail(step, error)
                await device.endTracedStep(traced, error: Self.message(of: error))
                throw NestedFailure()
            }
        }
    }

    /// Runs `steps` as an attempt that may fail (`retry`): a failure is forgotten (not the
    /// flow's) and returned, its steps kept in the report as failed.
    func attempt(_ steps: [FlowStep]) async throws -> String? {
        let before = (failure, failureScreenshot)
        do {
            try await run(steps)
            return nil
        } catch {
            if wasInterrupted || Task.isCancelled { throw error }
            let message = failure?.message ?? Self.message(of: error)
            (failure, failureScreenshot) = before
            return message
        }
    }

    /// Thrown up through `runFlow` and `repeat` once the failing step is recorded.
    struct NestedFailure: Error {}

    /// Ctrl-C or SIGTERM stopped the flow at `step`: said as such, not as the step's failure.
    private func interrupt(_ message: String, at step: FlowStep) {
        wasInterrupted = true
        failure = ManifestEntry.Failure(
            message: message + " (Ctrl-C or SIGTERM)", location: step.location.description, deviceTime: videoTime)
    }

    private func fail(_ step: FlowStep, _ error: any Error) async {
        // `onFlowComplete` after a failure keeps the first failure.
        guard failure == nil else { return }
        let message = Self.message(of: error)
        failure = ManifestEntry.Failure(message: "\(step.title): \(message)", location: step.location.description, deviceTime: videoTime)
        let name = "\(screenshotPrefix)-failure.png"
        if (try? await writeScreenshot(name)) != nil { failureScreenshot = name }
    }

    static func message(of error: any Error) -> String {
        (error as? StepFailure)?.message ?? ErrorSentence.describe(error)
    }

    func writeScreenshot(_ name: String) async throws {
        let pixels = await device.screenshot()
        try Data(pixels.pngData()).writeReplacing(options.output.appendingPathComponent(name))
    }

    /// Lists `file` among the run's attachments (screenshots, extra videos).
    func attach(_ file: String) { attachments.append(file) }

    /// Captions the video from now on, above the keyboard when one is showing.
    func showCaption(_ text: String) async {
        guard let sink else { return }
        let keyboard = await device.elements(.descendants(type: .keyboard)).first?.frame.minY
        sink.setCaption(text, at: device.clock.now, above: keyboard)
    }

    // MARK: Expressions

    /// `value` with its `${...}` run (as the current step's, for the error's place).
    func resolve(_ value: String) throws -> String {
        guard value.contains("${") else { return value }
        let place = current?.location ?? FlowLocation(file: flow.id, line: 1, column: 1)
        do { return try scripts.interpolate(value, file: place.file, line: place.line) } catch {
            throw StepFailure(message: "JavaScript error at \(place.file):\(error.line): \(error.message)")
        }
    }

    /// Maestro's truth of a condition's text: blank, false, undefined, null and 0 are false.
    static func isTrue(_ text: String) -> Bool {
        let value = text.trimmingCharacters(in: .whitespaces)
        if value.isEmpty || value.lowercased() == "false" || value == "undefined" || value == "null" { return false }
        if let number = Double(value), number == 0 { return false }
        return true
    }
}

extension FlowStep {
    var isCaption: Bool { command is CaptionCommand }
    /// `runFlow`, `repeat`, `retry`: steps that hold steps.
    var isContainer: Bool { !command.nestedSteps.isEmpty || command is RunFlowCommand || command is RepeatCommand }
    package var summary: String { command.summary }
}
