import Foundation
import ShowreelDevice
import ShowreelRecorder
import ShowreelRender
import ShowreelSession
import Yams

/// `startRecording: checkout` (or `{path}`): a second video of the screen from now on,
/// `<video>-<name>.mov` beside the flow's own, until `stopRecording` (or the flow's end).
struct StartRecordingCommand: FlowCommand {
    var name: String

    static let grammar = CommandGrammar(names: ["startRecording"], example: "startRecording: checkout") { parser, input in
        parser.imageName(input.value, field: input.name).map(StartRecordingCommand.init)
    }

    var summary: String { "Start recording \(name)" }

    func run(in execution: FlowExecution) async throws {
        let file = "\(execution.screenshotPrefix)-\(try execution.resolve(name)).\(execution.options.container.fileExtension)"
        try execution.startRecording(file)
    }
}

/// `stopRecording`: finishes the video the last `startRecording` began.
struct StopRecordingCommand: FlowCommand {
    static let grammar = CommandGrammar(names: ["stopRecording"], bare: true, example: "stopRecording") { _, _ in StopRecordingCommand() }

    var summary: String { "Stop recording" }

    func run(in execution: FlowExecution) async throws {
        guard try await execution.stopRecording() else { throw StepFailure(message: "no recording to stop: startRecording first") }
    }
}

/// A named extra video being recorded: its encoder and its place among the display's subscribers.
final class ExtraRecording: @unchecked Sendable {
    let file: String
    let session: RecordingSession
    let subscription: DisplaySubscription

    init(file: String, session: RecordingSession, subscription: DisplaySubscription) {
        self.file = file
        self.session = session
        self.subscription = subscription
    }

    func finish() async throws {
        _ = subscription.stop()
        let session = session
        _ = try await Blocking.run { try session.finish() }
    }
}

extension FlowExecution {
    func startRecording(_ file: String) throws {
        guard recordings.count < 4 else { throw StepFailure(message: "at most 4 extra recordings at once: stopRecording one first") }
        let session = try RecordingSession(
            url: options.output.appendingPathComponent(file), info: device.display.info, options: options.recording,
            mask: ScreenMask(profile: device.profile), framesAreShared: true, logger: options.logger)
        recordings.append(ExtraRecording(file: file, session: session, subscription: device.display.subscribe(session)))
    }

    /// Finishes the last extra recording started; false when none is running.
    func stopRecording() async throws -> Bool {
        guard let recording = recordings.popLast() else { return false }
        try await recording.finish()
        attach(recording.file)
        return true
    }
}
