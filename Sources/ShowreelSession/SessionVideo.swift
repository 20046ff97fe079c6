import ShowreelRecorder
import ShowreelReport

/// One device recorded into one video with its actions traced, wherever the device runs: in
/// this process (`RecordedSession`) or in another (`StreamedSession`). Its owner ends the trace,
/// then finishes the video with the trace beside it, or discards it.
package protocol SessionVideo: Sendable {
    /// Stops tracing and returns the trace (whole when it will be `kept`), nil when nothing was traced.
    func endTrace(kept: Bool) async -> RunTrace?
    /// Finishes the video with `steps` as chapters and subtitles, `trace` beside it and, with
    /// `preview`, its animated preview.
    func finish(steps: [StepMark], trace: TraceFile?, preview: Bool) async throws -> RecordedSession.Outcome
    /// Ends the recording without a video; returns the seconds of device time it spanned.
    func discard() async -> Double
}

extension RecordedSession: SessionVideo {}
extension StreamedSession: SessionVideo {}
