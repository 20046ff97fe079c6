import Foundation
import Logging
import ShowreelGraphics
import ShowreelRecorder
import ShowreelRender
import ShowreelReport
import ShowreelTesting
import ShowreelTrace
import ShowreelWire

/// A device in another process (`showreel device boot`) recorded into one video through its
/// display stream, its actions traced in its own process through its automation API: what a
/// recorded Swift test of an external device and a recorded WebDriver session on an attached
/// device each are. `RecordedSession` is the same for a device in this process: started once
/// the stream is open, finished into the video (steps as chapters and subtitles), its step
/// trace and its animated preview, or discarded without encoding.
package final class StreamedSession: Sendable {
    package let video: URL
    private let session: RecordingSession
    private let feed: StreamFeed
    /// Nil when the device cannot trace (another recording traces it, or its automation API
    /// has no trace routes): the video goes on without one.
    private let trace: DeviceTrace?
    private let logger: Logger

    /// Starts recording the display stream at `displaySocket` into `video` (under its partial
    /// name until finished) and tracing the device `client` drives; says in the log when it
    /// cannot trace. With `previews`, the pictures are sampled for the preview as they are encoded.
    package init(
        displaySocket: String, client: DeviceClient, video: URL, options: RecordingOptions, masksScreenShape: Bool = true,
        spoolLimit: Int? = nil, previews: Bool = true, logger: Logger = Logger(label: "showreel.session")
    ) async throws {
        try FileManager.default.createDirectory(at: video.deletingLastPathComponent(), withIntermediateDirectories: true)
        let stream = try DisplayStreamClient(socketPath: displaySocket)
        let session = try RecordingSession(
            url: video, info: stream.info, options: options, mask: masksScreenShape ? ScreenMask(profile: stream.info.profile) : nil,
            spoolLimit: spoolLimit, previews: previews, logger: logger)
        self.video = video
        self.session = session
        self.logger = logger
        feed = StreamFeed(stream, into: session, threadName: "showreel.streamed-session")
        do { trace = try await DeviceTrace.start(client) } catch {
            logger.warning("the steps are not traced: \(ErrorSentence.describe(error))", metadata: ["video": "\(video.lastPathComponent)"])
            trace = nil
        }
    }

    /// The device time of the video's first frame (nil until the stream delivered one): step
    /// times count from there.
    package var videoStart: Duration? { session.startTime }

    /// Opens a traced step whose actions give it its target (a WebDriver command).
    package func beginStep(_ title: String) async { try? await trace?.beginStep(title) }

    /// Closes the step opened with `beginStep`, failed with `error` when it has one.
    package func endStep(error: String?) async { try? await trace?.endStep(error: error) }

    /// Stops tracing and returns the trace, its times counted from the video's first frame, with
    /// pictures and element trees only when it will be `kept`; nil when nothing was traced.
    package func endTrace(kept: Bool) async -> RunTrace? {
        guard let trace else { return nil }
        do { return try await trace.end(videoStart: session.startTime ?? trace.started, pictures: kept) } catch {
            logger.warning("the step trace could not be collected: \(ErrorSentence.describe(error))")
            return nil
        }
    }

    /// Stops reading the stream and finishes the video with `steps` as its chapters and
    /// subtitles, writes `trace` beside it and, with `preview`, its animated preview. A trace or
    /// preview that cannot be written is logged; a video that cannot be finished throws.
    package func finish(steps: [StepMark], trace: TraceFile?, preview: Bool) async throws -> RecordedSession.Outcome {
        let (feed, session, logger) = (self.feed, self.session, self.logger)
        let summary = try await Blocking.run {
            feed.stop()
            return try session.finish(steps: steps, preview: preview)
        }
        await trace?.write(besideVideo: video, logger: logger)
        let made = preview ? try? await Blocking.run { summary.preview ?? AnimatedPreview.make(for: summary.url, logger: logger) } : nil
        return RecordedSession.Outcome(duration: summary.duration.seconds, preview: made ?? nil)
    }

    /// Stops reading the stream without writing a video; returns the seconds of device time
    /// the recording spanned.
    package func discard() async -> Double {
        let (feed, session) = (self.feed, self.session)
        return
            (try? await Blocking.run {
                feed.stop()
                return session.discard().seconds
            }) ?? 0
    }
}
