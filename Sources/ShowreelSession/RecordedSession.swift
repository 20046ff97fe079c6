import Foundation
import Logging
import ShowreelDevice
import ShowreelGraphics
import ShowreelRecorder
import ShowreelRender
import ShowreelReport
import ShowreelTrace
import ShowreelWire

/// One in-process device recorded into one video, with its actions traced: what a recorded
/// Swift test and a flow each are. Started with the device booted; finished into the video
/// (the steps as chapters and subtitles), its step trace and its animated preview, or
/// discarded without encoding.
package final class RecordedSession: Sendable {
    package let video: URL
    package let device: Device
    private let session: RecordingSession
    private let subscription: DisplaySubscription
    private let actions: ActionTrace?
    private let logger: Logger

    /// What finishing wrote.
    package struct Outcome: Sendable {
        /// Seconds of video.
        package var duration: Double
        /// The animated preview beside the video, when one was made.
        package var preview: URL?

        package init(duration: Double, preview: URL?) {
            self.duration = duration
            self.preview = preview
        }
    }

    /// Starts recording `device` into `video` (under its partial name until finished) and
    /// tracing its actions when `traces` is on (its pictures encoded as they are made when
    /// `traceIsKept`, known from the start: a flow's, a WebDriver session's, a test's whose every
    /// video is kept); with `previews`, the pictures are sampled for the preview as they are encoded.
    /// `sink` wraps the recorder (a flow's captions).
    package init(
        device: Device, video: URL, options: RecordingOptions, mask: ScreenMask?, spoolLimit: Int? = nil,
        traces: Bool = true, traceIsKept: Bool = true, previews: Bool = true, logger: Logger = Logger(label: "showreel.session"),
        sink: (any DisplayStreamSink) -> any DisplayStreamSink = { $0 }
    ) async throws {
        try FileManager.default.createDirectory(at: video.deletingLastPathComponent(), withIntermediateDirectories: true)
        self.video = video
        self.device = device
        self.logger = logger
        session = try RecordingSession(
            url: video, info: device.display.info, options: options, mask: mask, framesAreShared: true,
            spoolLimit: spoolLimit, previews: previews, logger: logger)
        subscription = device.display.subscribe(sink(session))
        actions = traces ? ActionTrace(encodingPicturesWith: traceIsKept ? TraceExport.pictureData : nil) : nil
        if let actions { await device.setActionTrace(actions) }
    }

    /// The device time of the video's first frame: step times count from there.
    package var videoStart: Duration { session.startTime ?? device.clock.now }

    /// Stops tracing and returns the trace so far: whole when it will be `kept` (written beside
    /// the video), else its steps alone (no pictures, no element trees), which is all a
    /// discarded video's manifest entry needs.
    package func endTrace(kept: Bool) async -> RunTrace? {
        guard let actions else { return nil }
        await device.setActionTrace(nil)
        return TraceExport.trace(
            of: actions.entries, screen: await device.screenPointSize, videoStart: videoStart, pictures: kept, trees: kept)
    }

    /// Finishes the video with `steps` as its chapters and subtitles, writes `trace` beside it
    /// and, with `preview`, its animated preview. A trace or preview that cannot be written is
    /// logged (the video is whole without them); a video that cannot be finished throws.
    package func finish(steps: [StepMark], trace: TraceFile?, preview: Bool) async throws -> Outcome {
        subscription.stop()
        let session = self.session
        let summary = try await Blocking.run { try session.finish(steps: steps, preview: preview) }
        await trace?.write(besideVideo: video, logger: logger)
        let logger = self.logger
        // Made while encoding, else (a long video, sped up) decoded from the file.
        let made = preview ? try? await Blocking.run { summary.preview ?? AnimatedPreview.make(for: summary.url, logger: logger) } : nil
        return Outcome(duration: summary.duration.seconds, preview: made ?? nil)
    }

    /// Ends the recording without encoding what waits; returns the seconds it spanned.
    package func discard() async -> Double {
        subscription.stop()
        let session = self.session
        return (try? await Blocking.run { session.discard().seconds }) ?? 0
    }
}
