import Foundation
import Logging
import ShowreelRender
import ShowreelWire
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One recording of a display stream into a video file: events in, a finished file out.
///
/// The record loop that every recorder shares: `showreel io … recordVideo` feeds it the events
/// it reads off a device's socket, and a test or a flow subscribes it to an in-process device
/// (`DisplayStreamServer.subscribe`). It has frames outside the screen shape masked, waits for the
/// encoder on a virtual clock (the same run gives the same video) and drops intermediate
/// frames on a real one, and holds the last frame until the stream's stop time.
///
/// What a `kill -9` loses (fragmented files): under a second of wall time. The encoder flushes
/// the file at least every 0.75 s; on a real clock an idle screen's held frame is encoded again
/// at the device's time now (a P-frame of a few hundred bytes), so the file's timeline keeps
/// up with the wall. A virtual clock's idle time passes only in the device, and the recorder
/// learns it only from the next frame or the stop time: everything but the last frame is
/// flushed, and that frame's hold is what a kill loses. A deferred recording (`spoolLimit`)
/// writes nothing until it finishes or outgrows its spool, so a kill before then loses it all:
/// the price of not encoding a video that will be thrown away.
package final class RecordingSession: DisplayStreamSink {
    /// The video: complete here once `finish()` returns.
    package let url: URL
    /// Where the video is written until it is complete, when it is staged (see `StagedFile`).
    private let staging: StagedFile?
    /// This writer's claim on the file it writes (see `WriterLock`), until the video is done.
    private let claim: WriterLock?
    private let encoder: Mutex<Encoder>
    /// Puts a recorder behind a queue with an encoding thread of its own.
    private let queue: @Sendable (VideoRecorder) -> FrameQueueRecorder
    private let onFailure: (@Sendable (RecorderError) -> Void)?
    private let waitsForEncoder: Bool
    /// The screen's size in pixels when the recording started: the video's frames have its shape.
    private let screenSize: (width: Int, height: Int)
    /// Shrinks frames for a smaller video on the thread that delivers them (see `FrameShrinker`).
    private let shrinker: FrameShrinker?
    /// Whether the queue's recorder has the picture of the source's frame before, shrunk here:
    /// the next frame goes to it as a patch of what changed since (see `FramePatch`).
    private let patchesFollow = Mutex(false)
    private let state = Mutex(State())
    private let sourceClock: SourceClock
    /// Device time runs with the wall (a real clock), so the wall tells how long the video lasts
    /// after the device vanished without saying when it stopped.
    private let followsWall: Bool
    private let logger: Logger
    /// The animated preview, sampled as the video is encoded (with `previews`).
    private let preview: PreviewSampler?

    /// Where frames go. A deferred recorder keeps them, converted, on the source's thread: its
    /// work per frame is a fraction of a millisecond, less than handing the frame to another
    /// thread costs. Once it has to encode (its spool outgrew the limit) it goes behind a queue.
    private enum Encoder {
        case deferred(VideoRecorder)
        case queued(FrameQueueRecorder)

        var failure: RecorderError? {
            switch self {
            case let .deferred(recorder): recorder.failure
            case let .queued(queued): queued.failure
            }
        }

        func finish(stopTime: Duration) throws(RecorderError) -> RecordingSummary {
            switch self {
            case let .deferred(recorder): try recorder.finish(stopTime: stopTime)
            case let .queued(queued): try queued.finish(stopTime: stopTime)
            }
        }

        func discard() {
            switch self {
            case let .deferred(recorder): recorder.discard()
            case let .queued(queued): queued.discard()
            }
        }
    }

    struct State {
        var firstFrameTime: Duration?
        var lastTime: Duration = .zero
        var endReason: DisplayStreamEndReason?
    }

    /// Opens the file and the encoder for the stream `info` describes (with a `spoolLimit`, only
    /// when frames must be encoded).
    ///
    /// - Parameters:
    ///   - mask: paints pixels outside the screen shape black (`--mask=black`), or nil.
    ///   - framesAreShared: true when frames are the device's own buffers (an in-process
    ///     subscription): masking then works on a copy, so the device's screen is untouched.
    ///   - spoolLimit: defers encoding (see `VideoRecorder`'s `spoolLimit`): frames wait in memory,
    ///     converted, up to this many bytes, and `discard()` before then encodes nothing. Only for
    ///     a source that waits for slow consumers (a virtual clock): a real-clock recording
    ///     encodes as it goes, so it never has a backlog to catch up on.
    ///   - onFailure: called once, on the thread that encodes (the source's, for a deferred
    ///     recording), when writing or encoding fails: the recording cannot go on, so the caller
    ///     should stop the stream and `finish()` at once.
    ///   - previews: samples the pictures as they are encoded for the video's animated preview,
    ///     which `finish(steps:preview:)` then writes without decoding the video.
    ///   - staged: writes under a hidden partial name (`.name.partial.mov`) and renames the file to `url` once
    ///     finished, so `url` never holds a half-written video (runs and tests, whose manifest
    ///     names it). False writes in place: `recordVideo`'s fragmented file, which a killed
    ///     recorder leaves playable where the user asked for it.
    package init(
        url: URL, info: DisplayInfo, options: RecordingOptions = RecordingOptions(), mask: ScreenMask? = nil,
        framesAreShared: Bool = false, spoolLimit: Int? = nil, previews: Bool = false, staged: Bool = true,
        onFailure: (@Sendable (RecorderError) -> Void)? = nil,
        logger: Logger = Logger(label: "showreel.recorder")
    ) throws(RecorderError) {
        self.url = url
        self.logger = logger
        let staging = staged ? StagedFile(url) : nil
        self.staging = staging
        // Partial files killed writers left in the folder go first (a staged one claims its
        // own), and the file is claimed before the encoder opens it.
        let claim: WriterLock?
        if let staging {
            claim = staging.claim(logger: logger)
        } else {
            PartialFiles.removeStale(in: url.deletingLastPathComponent(), logger: logger)
            claim = WriterLock(url, creating: true)
        }
        self.claim = claim
        let profile = info.profile
        let clock = SourceClock()
        sourceClock = clock
        followsWall = info.clock == .real
        let now: (@Sendable () -> Duration?)? = info.clock == .real ? { @Sendable in clock.estimatedNow() } : nil
        let keepAlive = FrameQueueRecorder.KeepAlive(now: now)
        waitsForEncoder = info.clock.waitsForSlowConsumers
        screenSize = (profile.pixelWidth, profile.pixelHeight)
        shrinker = FrameShrinker(width: profile.pixelWidth, height: profile.pixelHeight, options: options, mask: mask)
        // A device that waits for us loses no frame to an encoder that runs below it; one on a
        // real clock would, so that encoder keeps up at the usual priority. Shrunk frames are a
        // quarter of the screen's bytes: the queue holds three times more of them in the same
        // budget, so an encoder that busier threads keep waiting holds the device up less often.
        let priority: QualityOfService = waitsForEncoder ? .background : .userInitiated
        let shrunkBytes = shrinker.map { $0.width * $0.height * 4 }
        queue = { recorder in
            FrameQueueRecorder(
                recorder: recorder, capacity: shrunkBytes == nil ? 8 : 24, frameBytes: shrunkBytes,
                keepAlive: keepAlive, encoderPriority: priority, onFailure: onFailure, logger: logger)
        }
        self.onFailure = onFailure
        let recorder: VideoRecorder
        do throws(RecorderError) {
            recorder = try VideoRecorder(
                url: staging?.partial ?? url, width: profile.pixelWidth, height: profile.pixelHeight, options: options,
                mask: mask, masksCopies: framesAreShared,
                spoolLimit: waitsForEncoder ? spoolLimit : nil, previews: previews, logger: logger)
        } catch {
            // No file is left behind that the claim created, nor a partial one.
            if let claim, staged || claim.created { unlink(claim.url.path) }
            claim?.release()
            throw error
        }
        preview = recorder.preview
        if recorder.isDeferred {
            encoder = Mutex(.deferred(recorder))
        } else {
            encoder = Mutex(.queued(queue(recorder)))
        }
    }

    /// Whether a frame has arrived: the recording has started.
    package var hasStarted: Bool { state.withLock { $0.firstFrameTime != nil } }
    /// The device-clock time of the first frame, once there is one.
    package var startTime: Duration? { state.withLock { $0.firstFrameTime } }
    /// Why the stream ended, once it has (nil while recording, or when the device vanished).
    package var endReason: DisplayStreamEndReason? { state.withLock { $0.endReason } }
    /// The first error the encoder hit, if any (the recording goes on to the end regardless).
    package var failure: RecorderError? { encoder.withLock { $0.failure } }

    package func receive(_ event: DisplayStreamEvent) {
        switch event {
        case let .frame(screen):
            if let shrinker, screen.pixels.width * screen.pixels.height < screenSize.width * screenSize.height {
                return receiveShrunk(screen, shrinker: shrinker)
            }
            // A screen turned since the recording started is fitted into the video's frame.
            let frame = screen.fitted(width: screenSize.width, height: screenSize.height)
            // A virtual-clock device waits for us, so wait for the encoder instead of dropping:
            // the same run gives the same video. A real clock cannot wait.
            sourceClock.observe(frame.presentationTime)
            if let queued = keepOrQueue(frame) {
                if let shrinker {
                    // Shrunk here, where the frame is still in cache, not on the encoding thread.
                    let patch = patchesFollow.withLock { follows in
                        defer { follows = true }
                        return shrinker.patch(frame, afterPicture: follows)
                    }
                    if waitsForEncoder { queued.submitWaiting(patch) } else { queued.submit(patch) }
                } else if waitsForEncoder {
                    queued.submitWaiting(frame)
                } else {
                    queued.submit(frame)
                }
            } else {
                // Kept whole by a deferred recorder: what the next frame changed is not from a picture shrunk here.
                startPatchesOver()
            }
            noteReceived(frame)
        case let .end(stopTime, reason):
            state.withLock { state in
                state.lastTime = max(state.lastTime, stopTime)
                state.endReason = reason
            }
        }
    }

    /// A frame smaller than the screen: one a device shrank for us (a display stream asked for
    /// half-size frames), the buffer ours to mask. Fitted into the video's frame when its shape
    /// differs (a screen turned), masked there, and passed on as the shrinker's own would be.
    private func receiveShrunk(_ screen: Frame, shrinker: FrameShrinker) {
        let frame = screen.fitted(width: shrinker.width, height: shrinker.height)
        // The client's buffers are all masked as they pass here: only what changed needs it again.
        if let mask = shrinker.mask {
            if let changed = frame.changedAreas {
                for area in changed { mask.apply(to: frame.pixels, rows: area.rows) }
            } else {
                mask.apply(to: frame.pixels)
            }
        }
        sourceClock.observe(frame.presentationTime)
        // What the next whole frame changed is not from a picture shrunk here.
        startPatchesOver()
        if let queued = keepOrQueue(frame) {
            if waitsForEncoder { queued.submitWaiting(frame) } else { queued.submit(frame) }
        }
        noteReceived(frame)
    }

    /// The queue's recorder no longer has the picture shrunk here last: the next patch is whole.
    private func startPatchesOver() {
        patchesFollow.withLock { $0 = false }
    }

    private func noteReceived(_ frame: Frame) {
        state.withLock { state in
            if state.firstFrameTime == nil { state.firstFrameTime = frame.presentationTime }
            state.lastTime = max(state.lastTime, frame.presentationTime)
        }
    }

    /// Keeps `frame` in a deferred recorder, on this thread (which shrinks the frames it keeps
    /// as they come), or returns the queue it goes to. A deferred recorder whose frames outgrew
    /// its spool has opened its file: from then on it encodes behind a queue, like any other.
    private func keepOrQueue(_ frame: Frame) -> FrameQueueRecorder? {
        let (queued, failure) = encoder.withLock { encoder -> (FrameQueueRecorder?, RecorderError?) in
            switch encoder {
            case let .queued(queued):
                return (queued, nil)
            case let .deferred(recorder):
                // A failed recorder throws its failure again for every frame: report the first.
                let failedBefore = recorder.failure != nil
                do throws(RecorderError) {
                    try recorder.append(frame)
                } catch {
                    return (nil, failedBefore ? nil : error)
                }
                if !recorder.isDeferred { encoder = .queued(queue(recorder)) }
                return (nil, nil)
            }
        }
        if let failure { onFailure?(failure) }
        return queued
    }

    /// Reads `stream` (a device in another process) into this session until it ends, the
    /// connection breaks (thrown), or the device goes away. `onStart` runs once, after the
    /// first frame: the recording has started.
    package func consume(_ stream: DisplayStreamClient, onStart: () -> Void = {}) throws {
        // A video half the screen's size: the device shrinks its frames before they cross the
        // socket (a quarter of the bytes), as our shrinker would have (see `receiveShrunk`).
        if shrinker?.shrinksInParts == true { try? stream.requestHalfSizeFrames() }
        // A device killed mid-recording sends no stop time; on a real clock the screen stayed as
        // it last was until now, so the video lasts until now, not until its last change.
        defer { if followsWall { holdUntilNowIfVanished() } }
        while let event = try stream.next() {
            let wasStarted = hasStarted
            receive(event)
            if !wasStarted, hasStarted { onStart() }
            if case .end = event { return }
        }
    }

    private func holdUntilNowIfVanished() {
        guard let now = sourceClock.estimatedNow(margin: .zero) else { return }
        state.withLock { state in
            if state.endReason == nil { state.lastTime = max(state.lastTime, now) }
        }
    }

    /// Finalises the file: encodes what is queued, holds the last frame until the stop time
    /// (or the last frame's time when the stream never ended) and writes the trailer; a staged
    /// file then takes its name. With no frame at all the file is removed and `noFrames` thrown:
    /// an empty video is no recording. A staged video that failed stays under its partial name
    /// for a look, and what `url` held before is left as it was.
    ///
    /// A staged video gets `steps` as chapters and a subtitle track (see `StepTracks`) before it
    /// takes its name; should that fail, the video keeps its name without them (logged).
    ///
    /// With `preview`, a session started with `previews` writes the video's animated preview
    /// beside it (`summary.preview`) from the pictures it sampled. None is written (logged when
    /// it failed) when it cannot be: a video longer than a preview plays at its own speed has
    /// one only from `AnimatedPreview.make`, which decodes it.
    @discardableResult
    package func finish(steps: [StepMark] = [], preview makesPreview: Bool = false) throws(RecorderError) -> RecordingSummary {
        let (started, stopTime) = state.withLock { ($0.firstFrameTime != nil, $0.lastTime) }
        let result = encoder.withLock { encoder in
            Result { () throws(RecorderError) -> RecordingSummary in try encoder.finish(stopTime: stopTime) }
        }
        guard started else {
            try? FileManager.default.removeItem(at: staging?.partial ?? url)
            claim?.release()
            throw .noFrames(file: url.path)
        }
        // A video that failed keeps its claim while this session lives (a partial one is there
        // for a look); the next recording into the folder after this process removes it.
        var summary = try result.get()
        if let staging {
            let stepsClaim = steps.isEmpty ? nil : addSteps(steps, to: staging)
            defer { stepsClaim?.release() }
            try staging.commit()
            summary.url = url
        }
        claim?.release()
        if makesPreview, let preview {
            let file = AnimatedPreview.url(for: url), duration = summary.duration
            summary.preview = AnimatedPreview.make(at: file, logger: logger) { () throws(RecorderError) in
                try preview.write(to: file, duration: duration)
            }
        }
        return summary
    }

    /// Replaces the staged video with a copy that has `steps` in it, and returns the claim on
    /// that copy; leaves the video as it was when that cannot be done.
    private func addSteps(_ steps: [StepMark], to staging: StagedFile) -> WriterLock? {
        let started = ContinuousClock.now
        do throws(RecorderError) {
            try StepTracks.write(steps, from: staging.partial, to: staging.withSteps)
            let claim = try staging.replacePartial(with: staging.withSteps)
            logger.debug(
                "steps added",
                metadata: [
                    "file": "\(url.path)", "steps": "\(steps.count)",
                    "time": "\(ContinuousClock.now - started)",
                ])
            return claim
        } catch {
            try? FileManager.default.removeItem(at: staging.withSteps)
            logger.warning("the video keeps no chapters or subtitles: \(error)", metadata: ["file": "\(url.path)"])
            return nil
        }
    }

    /// Ends the recording without a video: queued frames are dropped and the file removed.
    /// Returns the device time the recording spanned (what the video would have lasted).
    @discardableResult
    package func discard() -> Duration {
        defer { claim?.release() }
        encoder.withLock { $0.discard() }
        return state.withLock { state in state.firstFrameTime.map { state.lastTime - $0 } ?? .zero }
    }
}

/// The source's clock as seen from its frames: on a real clock, device time runs with the
/// wall, so "now" is the last frame's time plus the wall time since it arrived.
private final class SourceClock: Sendable {
    private let last = Mutex<(time: Duration, arrived: ContinuousClock.Instant)?>(nil)
    /// How far behind the estimate a repeated frame is stamped: a frame rendered just before
    /// "now" may still be on its way, and it must come after the repeat.
    static let margin: Duration = .milliseconds(50)

    func observe(_ time: Duration) {
        last.withLock { $0 = (time, .now) }
    }

    func estimatedNow(margin: Duration = SourceClock.margin) -> Duration? {
        last.withLock { $0.map { $0.time + (ContinuousClock.now - $0.arrived) - margin } }
    }
}
