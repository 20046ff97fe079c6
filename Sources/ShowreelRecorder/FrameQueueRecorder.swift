import Foundation
import Logging
import ShowreelRender

/// A `VideoRecorder` behind a bounded queue and a background encoding thread, so the thread
/// that produces frames (the display stream) never waits for the encoder.
///
/// When the queue is full, `submit` drops the oldest queued intermediate frame (the previous
/// encoded frame is then held a little longer in the video). It never drops the newest frame,
/// so the screen's final state always reaches the file, nor the recording's first frame, so the
/// video starts when the recording did. `finish(stopTime:)` drains the queue and finalises the
/// file. All methods are thread-safe.
///
/// On a fragmented file the thread also keeps what is recorded safe from `kill -9` (see
/// `KeepAlive`): at least every `interval` of wall time it flushes a fragment, and while no
/// frame arrives it encodes the held frame again at the source's current time.
///
/// The queue is bounded in frames and in bytes: at most `capacity` frames, and no more than fit
/// in `maxQueuedBytes` (but always at least two). A 1170x2532 frame is 11.3 MiB, so eight of
/// them would be 90 MiB waiting for an encoder that fell behind; the byte budget keeps the
/// recorder's peak memory about the same at every screen size.
package final class FrameQueueRecorder: Sendable {
    /// The default byte budget for queued frames.
    package static let defaultMaxQueuedBytes = 32 << 20

    package let url: URL
    /// The most frames waiting for the encoder (the requested capacity, lowered to fit the byte budget).
    package let capacity: Int

    private let worker: EncoderWorker

    /// How the encoding thread keeps a fragmented file current, so `kill -9` loses little.
    package struct KeepAlive: Sendable {
        /// The most wall time between two flushes of the file.
        package var interval: Duration
        /// The source's time now (device clock), which an idle screen's held frame is extended
        /// to; nil when the source's time moves only with its frames (a virtual clock), and
        /// then only what has been encoded is flushed.
        package var now: (@Sendable () -> Duration?)?

        /// Flushes at least every 0.75 s: with the repeat stamped up to 50 ms behind the
        /// source's clock, a killed recorder loses under a second of wall time.
        package init(interval: Duration = .milliseconds(750), now: (@Sendable () -> Duration?)? = nil) {
            self.interval = interval
            self.now = now
        }
    }

    /// Wraps `recorder`, which must not be used directly afterwards. `frameBytes` is the size of
    /// the frames that will be queued, when they are not screen-sized (frames shrunk before
    /// they are submitted: more of them fit the byte budget). `encoderPriority` is the
    /// encoding thread's: below the source's when the source waits for a full queue (a
    /// virtual-clock device), so the device keeps the cores it wants and loses nothing.
    /// `onFailure` is called once, on the encoding thread, when encoding or writing fails
    /// (later frames are discarded).
    package init(
        recorder: VideoRecorder, capacity: Int = 8, frameBytes: Int? = nil,
        maxQueuedBytes: Int = FrameQueueRecorder.defaultMaxQueuedBytes,
        keepAlive: KeepAlive = KeepAlive(), encoderPriority: QualityOfService = .userInitiated,
        onFailure: (@Sendable (RecorderError) -> Void)? = nil, logger: Logger = Logger(label: "showreel.recorder.queue")
    ) {
        precondition(capacity >= 2, "the frame queue needs room for the first and the newest frame")
        let capacity = Self.capacity(
            forFrameBytes: frameBytes ?? recorder.inputWidth * recorder.inputHeight * 4,
            requested: capacity, maxQueuedBytes: maxQueuedBytes)
        self.url = recorder.url
        self.capacity = capacity
        worker = EncoderWorker(recorder: recorder, capacity: capacity, keepAlive: keepAlive, onFailure: onFailure, logger: logger)
        let worker = self.worker
        let thread = Thread { worker.run() }
        thread.name = "showreel.encoder"
        thread.qualityOfService = encoderPriority
        thread.start()
    }

    /// How many frames of `frameBytes` the queue holds: `requested`, fewer to fit the byte budget, at least two.
    package static func capacity(
        forFrameBytes frameBytes: Int, requested: Int = 8,
        maxQueuedBytes: Int = FrameQueueRecorder.defaultMaxQueuedBytes
    ) -> Int {
        max(2, min(requested, maxQueuedBytes / max(1, frameBytes)))
    }

    /// Opens a `VideoRecorder` (see its initialiser) behind a queue.
    package convenience init(
        url: URL, width: Int, height: Int, options: RecordingOptions = RecordingOptions(), mask: ScreenMask? = nil,
        masksCopies: Bool = false, capacity: Int = 8,
        maxQueuedBytes: Int = FrameQueueRecorder.defaultMaxQueuedBytes, keepAlive: KeepAlive = KeepAlive(),
        encoderPriority: QualityOfService = .userInitiated,
        onFailure: (@Sendable (RecorderError) -> Void)? = nil, logger: Logger = Logger(label: "showreel.recorder")
    ) throws(RecorderError) {
        let recorder = try VideoRecorder(
            url: url, width: width, height: height, options: options, mask: mask,
            masksCopies: masksCopies, logger: logger)
        self.init(
            recorder: recorder, capacity: capacity, maxQueuedBytes: maxQueuedBytes, keepAlive: keepAlive,
            encoderPriority: encoderPriority, onFailure: onFailure, logger: logger)
    }

    deinit {
        // Without finish(): let the thread encode what is queued and exit; the recorder then
        // finalises the file when it is released.
        worker.abandon()
    }

    /// Queues `frame` for encoding without waiting. Returns false when a queued frame had to be
    /// dropped to make room, or when the recorder already failed or finished (frame discarded).
    @discardableResult
    package func submit(_ frame: Frame) -> Bool {
        worker.submit(.frame(frame), waitingForRoom: false)
    }

    /// Queues `patch` as `submit(_:)` queues a frame. A patch left out of a full queue is
    /// pasted before the next: its parts still reach the recorder's picture.
    @discardableResult
    package func submit(_ patch: FramePatch) -> Bool {
        worker.submit(.patch(patch), waitingForRoom: false)
    }

    /// Queues `frame`, first waiting while the queue is full, so nothing is dropped. For
    /// sources that can wait: a virtual-clock device stops its time while the encoder catches
    /// up, and the same run must give the same video. Returns false only when the recorder
    /// already failed or finished (frame discarded).
    @discardableResult
    package func submitWaiting(_ frame: Frame) -> Bool {
        worker.submit(.frame(frame), waitingForRoom: true)
    }

    /// Queues `patch` as `submitWaiting(_:)` queues a frame.
    @discardableResult
    package func submitWaiting(_ patch: FramePatch) -> Bool {
        worker.submit(.patch(patch), waitingForRoom: true)
    }

    /// Frames waiting for the encoder right now.
    package var queuedFrames: Int { worker.locked { $0.queue.count } }

    /// Frames dropped so far because the queue was full.
    package var framesDropped: Int { worker.locked { $0.dropped } }

    /// The first error the encoder hit, if any; later frames are discarded and `finish` throws it.
    package var failure: RecorderError? { worker.locked { $0.failure } }

    /// Encodes every queued frame, holds the last one until `stopTime`, finalises the file and
    /// returns the summary (its `framesDropped` includes frames dropped by the queue).
    @discardableResult
    package func finish(stopTime: Duration) throws(RecorderError) -> RecordingSummary {
        try worker.finish(stopTime: stopTime)
    }

    /// Stops without finishing: queued frames are dropped, the frame being encoded is the
    /// last, and the file is closed and removed. For a video nobody will watch (a passing
    /// test's under `.retainOnFailure`), which need not wait for the encoder to catch up.
    package func discard() {
        worker.discard()
    }

    /// Tests only: while held, the encoding thread takes no frames from the queue, so a test
    /// can fill the queue deterministically. `finish` releases it.
    func holdEncoder(_ held: Bool) {
        worker.hold(held)
    }
}

/// What waits for the encoder: a frame, or a patch over the picture before it.
private enum QueuedPicture {
    case frame(Frame)
    case patch(FramePatch)

    /// This picture, queued after `dropped`, which a full queue left out: a frame's changes are
    /// then unknown (counted from a picture the recorder never saw, so it redoes all of it); a
    /// patch pastes the dropped one's parts first. A patch after a frame is whole (its
    /// source starts over after a frame), so nothing is lost.
    func following(_ dropped: QueuedPicture) -> QueuedPicture {
        switch (self, dropped) {
        case let (.frame(frame), _): return .frame(Frame(pixels: frame.pixels, presentationTime: frame.presentationTime))
        case let (.patch(patch), .patch(before)): return .patch(patch.following(before))
        case let (.patch(patch), .frame):
            precondition(patch.isWhole, "a patch queued after a frame must be a whole picture")
            return self
        }
    }
}

/// The queue and the thread's loop; the thread holds it (not the public object), so releasing
/// an unfinished `FrameQueueRecorder` still lets the thread end.
private final class EncoderWorker: @unchecked Sendable {
    struct State {
        var queue: [QueuedPicture] = []
        var stopping = false
        var finishing = false
        var workerDone = false
        var held = false
        /// Whether `queue[0]` is the recording's first frame, which is never dropped.
        var firstFrameQueued = false
        var anySubmitted = false
        var dropped = 0
        var failure: RecorderError?
    }

    private let recorder: VideoRecorder
    private let capacity: Int
    private let keepAlive: FrameQueueRecorder.KeepAlive
    private let onFailure: (@Sendable (RecorderError) -> Void)?
    private let logger: Logger
    private let condition = NSCondition()
    private var state = State()  // guarded by `condition`

    init(
        recorder: VideoRecorder, capacity: Int, keepAlive: FrameQueueRecorder.KeepAlive,
        onFailure: (@Sendable (RecorderError) -> Void)?, logger: Logger
    ) {
        self.recorder = recorder
        self.capacity = capacity
        self.keepAlive = keepAlive
        self.onFailure = onFailure
        self.logger = logger
    }

    func locked<R>(_ body: (inout State) -> R) -> R {
        condition.lock()
        defer { condition.unlock() }
        return body(&state)
    }

    func submit(_ picture: QueuedPicture, waitingForRoom: Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while waitingForRoom, state.queue.count >= capacity, !state.stopping, state.failure == nil { condition.wait() }
        guard !state.stopping, state.failure == nil else { return false }
        var kept = true
        var picture = picture
        if state.queue.count >= capacity {
            let index = state.firstFrameQueued ? 1 : 0
            let dropped = state.queue.remove(at: index)
            state.dropped += 1
            kept = false
            // What the picture after the dropped one changed was counted from a picture the
            // recorder never sees.
            if index < state.queue.count {
                state.queue[index] = state.queue[index].following(dropped)
            } else {
                picture = picture.following(dropped)
            }
        }
        if !state.anySubmitted {
            state.anySubmitted = true
            state.firstFrameQueued = true
        }
        state.queue.append(picture)
        condition.signal()
        return kept
    }

    func hold(_ held: Bool) {
        condition.lock()
        state.held = held
        condition.broadcast()
        condition.unlock()
    }

    func abandon() {
        condition.lock()
        if !state.finishing {
            state.stopping = true
            state.held = false
            condition.broadcast()
            logger.warning("frame queue released without finish(); its recorder finalises the file")
        }
        condition.unlock()
    }

    /// Ends the encoding thread after what is queued (or, `droppingQueue`, after the frame in
    /// hand) and waits for it; then the recorder is the caller's alone. Nil when a finish or
    /// discard already did; else the first failure and the frames the queue dropped.
    private func stopThread(droppingQueue: Bool) -> (failure: RecorderError?, dropped: Int)? {
        condition.lock()
        defer { condition.unlock() }
        guard !state.finishing else { return nil }
        state.finishing = true
        state.stopping = true
        state.held = false
        if droppingQueue { state.queue.removeAll() }
        condition.broadcast()
        while !state.workerDone { condition.wait() }
        return (state.failure, state.dropped)
    }

    func discard() {
        guard stopThread(droppingQueue: true) != nil else { return }
        recorder.discard()
    }

    func finish(stopTime: Duration) throws(RecorderError) -> RecordingSummary {
        guard let (failure, dropped) = stopThread(droppingQueue: false) else {
            throw .alreadyFinished(file: recorder.url.path)
        }
        // The thread has exited: the recorder is ours alone now. finish() writes the trailer
        // even after a failure, then the first failure is what the caller hears about.
        let summary: RecordingSummary
        do {
            summary = try recorder.finish(stopTime: stopTime)
        } catch {
            throw failure ?? error
        }
        if let failure { throw failure }
        var result = summary
        result.framesDropped += dropped
        return result
    }

    func run() {
        var lastFlush = ContinuousClock.now
        while true {
            condition.lock()
            var idleTick = false
            while (state.queue.isEmpty && !state.stopping) || state.held {
                // Idle: wake when the file is due a flush (the thread's own recorder is not in use).
                guard recorder.fragmented, !state.held, state.failure == nil else { condition.wait(); continue }
                let due = lastFlush + keepAlive.interval
                let left = due - ContinuousClock.now
                if left <= .zero { idleTick = true; break }
                _ = condition.wait(until: Date(timeIntervalSinceNow: left.seconds))
            }
            if idleTick {
                condition.unlock()
                perform { () throws(RecorderError) in try recorder.keepCurrent(at: keepAlive.now?()) }
                lastFlush = .now
                continue
            }
            if state.queue.isEmpty {
                state.workerDone = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let picture = state.queue.removeFirst()
            state.firstFrameQueued = false
            condition.broadcast()  // a waiting submitter has room now
            condition.unlock()

            perform { () throws(RecorderError) in
                switch picture {
                case let .frame(frame): try recorder.append(frame)
                case let .patch(patch): try recorder.append(patch)
                }
            }
            if recorder.fragmented, ContinuousClock.now - lastFlush >= keepAlive.interval {
                // Busy: frames keep coming, so the file only needs flushing (no repeat).
                perform { () throws(RecorderError) in try recorder.keepCurrent(at: nil) }
                lastFlush = .now
            }
        }
    }

    /// Runs one encoder step; the first failure stops the recording's encoding and is reported.
    private func perform(_ step: () throws(RecorderError) -> Void) {
        do {
            try step()
        } catch {
            logger.error("encoding stopped: \(error)")
            condition.lock()
            let first = state.failure == nil
            state.failure = state.failure ?? error
            state.queue.removeAll()
            condition.broadcast()
            condition.unlock()
            if first { onFailure?(error) }
        }
    }
}
