import Foundation
import Logging
import ShowreelDevice
import ShowreelRecorder
import ShowreelRender
import ShowreelReport
import ShowreelSession
import ShowreelTesting
import ShowreelTrace
import ShowreelWire
import Synchronization

/// Where a session's video comes from: the in-process device's own frames, or the display
/// stream of a device booted in another process (`appium:udid`), driven through `client`.
enum VideoSource: Sendable {
    case device(Device)
    case displaySocket(String, client: DeviceClient)
}

/// A video of a device from now until `stop`: in-process, the recorder subscribed to the
/// device's display; for another process's device, its display stream read on a thread.
final class DeviceVideo: Sendable {
    /// A session's videos are at the screen's point size, as `showreel run`'s are, and
    /// fragmented (flushed at least every 0.75 s), so a server killed with `kill -9` leaves a
    /// `.<name>.partial.mov` that plays up to its last second; finishing remuxes it whole.
    static let options = RecordingOptions(fragmented: true, scale: 0.5)
    let url: URL
    /// Device time when the recording started: step times count from here.
    let start: Duration
    private let session: RecordingSession
    private let feed: Feed
    private let stopped = Mutex<Result<RecordingSummary, RecorderError>?>(nil)

    private enum Feed: Sendable {
        case subscription(DisplaySubscription)
        case stream(StreamFeed)

        /// Stops the frames; returns once no more arrive.
        func stop() {
            switch self {
            case let .subscription(subscription): _ = subscription.stop()
            case let .stream(feed): feed.stop()
            }
        }
    }

    init(_ source: VideoSource, to url: URL, start: Duration, staged: Bool) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        self.url = url
        self.start = start
        let options = Self.options
        switch source {
        case let .device(device):
            session = try RecordingSession(
                url: url, info: device.display.info, options: options,
                mask: ScreenMask(profile: device.display.info.profile), framesAreShared: true, staged: staged)
            feed = .subscription(device.display.subscribe(session))
        case let .displaySocket(path, _):
            let stream = try DisplayStreamClient(socketPath: path)
            let session = try RecordingSession(
                url: url, info: stream.info, options: options,
                mask: ScreenMask(profile: stream.info.profile), staged: staged)
            self.session = session
            feed = .stream(StreamFeed(stream, into: session, threadName: "showreel.webdriver-stream"))
        }
    }

    var isRunning: Bool { stopped.withLock { $0 == nil } }

    /// Ends the recording and writes the file's end (once; later calls give the same answer),
    /// on a thread of its own: finishing waits for the encoder.
    func stop(steps: [StepMark] = []) async throws -> RecordingSummary {
        if let done = stopped.withLock({ $0 }) { return try done.get() }
        let (session, feed) = (self.session, self.feed)
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<RecordingSummary, RecorderError>, Never>) in
            let thread = Thread {
                feed.stop()
                continuation.resume(returning: Result { () throws(RecorderError) -> RecordingSummary in try session.finish(steps: steps) })
            }
            thread.name = "showreel.webdriver-finalise"
            thread.start()
        }
        stopped.withLock { $0 = result }
        return try result.get()
    }

    /// Ends the recording without a file.
    func discard() {
        defer { try? FileManager.default.removeItem(at: url) }
        guard isRunning else { return }
        feed.stop()
        session.discard()
        stopped.withLock { $0 = .failure(.noFrames(file: url.path)) }
    }
}

/// `showreel:record`: the whole session as `<output>/<name>.mov`, an entry in the folder's
/// manifest (so report.html and junit.xml list Appium suites too), and what a flow's video has
/// beside it: each command a step (a chapter, a subtitle, a manifest step with how it went), the
/// step trace (`<name>.trace.json`: pictures before and after, the element tree, the target) and
/// an animated preview. A device in this process is recorded and traced as a flow's is (a
/// `RecordedSession`); an attached device is recorded through its display stream and traces its
/// actions in its own process, each command a step opened and closed through its automation API,
/// handing the trace over when the session ends (a `StreamedSession`).
final class SessionRecording: Sendable {
    let name: String
    let folder: URL
    private let video: Video
    private let steps = Mutex<[ManifestEntry.Step]>([])
    private let logger: Logger

    private enum Video: Sendable {
        case traced(RecordedSession)
        /// An attached device; `start`, the device time the session started, stands in for the
        /// video's first frame until there is one.
        case stream(StreamedSession, start: Duration)

        var session: any SessionVideo {
            switch self {
            case let .traced(session): session
            case let .stream(session, _): session
            }
        }
    }

    /// A step begun with `begin`, ended with `end`.
    struct OpenStep: Sendable {
        let index: Int
        let traced: ActionTrace.Handle?
    }

    init(_ source: VideoSource, name: String, folder: URL, start: Duration, logger: Logger) async throws {
        self.name = name
        self.folder = folder
        self.logger = logger
        let url = folder.appendingPathComponent("\(name).mov")
        switch source {
        case let .device(device):
            video = .traced(
                try await RecordedSession(
                    device: device, video: url, options: DeviceVideo.options, mask: ScreenMask(profile: device.display.info.profile)))
        case let .displaySocket(path, client):
            video = .stream(
                try await StreamedSession(displaySocket: path, client: client, video: url, options: DeviceVideo.options, logger: logger),
                start: start)
        }
    }

    /// Starts the step `title` at device time `time`.
    func begin(_ title: String, at time: Duration) async -> OpenStep {
        let videoStart: Duration
        var traced: ActionTrace.Handle?
        switch video {
        case let .traced(session):
            videoStart = session.videoStart
            traced = await session.device.beginTracedStep(title)
        case let .stream(session, start):
            videoStart = session.videoStart ?? start
            await session.beginStep(title)
        }
        let step = ManifestEntry.Step(title: title, time: ManifestEntry.videoSeconds(time, since: videoStart), status: .passed)
        let index = steps.withLock {
            $0.append(step)
            return $0.count - 1
        }
        return OpenStep(index: index, traced: traced)
    }

    /// Ends `step`, failed with `error` when it has one.
    func end(_ step: OpenStep, error: String?) async {
        switch video {
        case let .traced(session): await session.device.endTracedStep(step.traced, error: error)
        case let .stream(session, _): await session.endStep(error: error)
        }
        if error != nil { steps.withLock { $0[step.index].status = .failed } }
    }

    /// Finishes the video (its steps as chapters and subtitles), its trace and its preview, and
    /// returns the session's manifest entry.
    func finish(failure: String?) async -> ManifestEntry {
        let steps = self.steps.withLock { $0 }
        var entry = ManifestEntry(id: "webdriver/\(name)", name: name, status: failure == nil ? .passed : .failed, duration: 0)
        entry.steps = steps
        if let failure { entry.failures = [ManifestEntry.Failure(message: failure)] }
        let marks = steps.map { StepMark(title: $0.title, time: $0.time) }
        do {
            let session = video.session
            let outcome = try await session.finish(
                steps: marks, trace: await session.endTrace(kept: true).map(TraceFile.init), preview: true)
            // The file's own name, as the preview's is: a name with a character no file name
            // can hold (a NUL) is written percent-encoded, and the link must lead there.
            entry.video = folder.appendingPathComponent("\(name).mov").lastPathComponent
            entry.duration = outcome.duration
            entry.preview = outcome.preview.map(\.lastPathComponent)
        } catch {
            entry.status = .failed
            entry.failures.append(ManifestEntry.Failure(message: "The video could not be written: \(ErrorSentence.describe(error))"))
        }
        return entry
    }

    /// Ends the recording without a file (a session that could not start).
    func discard() async {
        _ = await video.session.endTrace(kept: false)
        _ = await video.session.discard()
    }
}

/// Appium's `start_recording_screen` / `stop_recording_screen`: an MP4 in a temporary file, handed
/// back base64-encoded. A recording that reaches its time limit stops by itself and waits to be
/// fetched; one still running when the session ends is thrown away (Appium's semantics).
final class ScreenRecording: Sendable {
    let video: DeviceVideo
    let timeLimit: Duration

    init(_ source: VideoSource, timeLimit: Duration, start: Duration) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("showreel-wd-\(UUID().uuidString.prefix(8)).mp4")
        video = try DeviceVideo(source, to: url, start: start, staged: false)
        self.timeLimit = timeLimit
    }

    /// Stops the recording when it has run past its time limit (device time).
    func enforceLimit(now: Duration) async {
        guard video.isRunning, now - video.start >= timeLimit else { return }
        _ = try? await video.stop()
    }

    /// The video, base64-encoded, and the file removed.
    func collect() async throws -> String {
        defer { try? FileManager.default.removeItem(at: video.url) }
        let summary = try await video.stop()
        return try Data(contentsOf: summary.url).base64EncodedString()
    }
}
