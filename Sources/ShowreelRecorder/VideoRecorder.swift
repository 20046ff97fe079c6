import Foundation
import Logging
import ShowreelRender

/// Encodes frames of a screen into an H.264 or HEVC video in a `.mov` or `.mp4` file, at a
/// variable frame rate: each frame is stamped with its presentation time relative to the
/// first frame, and the last frame is held until the stop time given to `finish(stopTime:)`.
///
/// The file is written in place at `url`. Fragmented output (the `.mp4` default) is flushed
/// at every keyframe and whenever `keepCurrent(at:)` asks, so a recorder killed with SIGKILL
/// leaves a file that plays up to its last flush. Not thread-safe: use it from one thread at a
/// time (see `FrameQueueRecorder`).
///
/// The jobs are in parts: `FrameTimeline` says which frame is written at which timestamp,
/// `FramePreparer` shrinks and masks frames and counts what changed, a `FrameSpool` keeps
/// frames of a deferred recording, and `VideoEncoder` encodes and writes the file.
package final class VideoRecorder {
    package let url: URL
    package let container: VideoContainer
    package let options: RecordingOptions
    package let fragmented: Bool
    /// The screen size frames arrive at.
    package let inputWidth: Int
    package let inputHeight: Int
    /// The encoded size (scaled and rounded to even numbers).
    package let width: Int
    package let height: Int

    /// Frames written to the file so far.
    package var framesEncoded: Int { encoder?.packetsWritten ?? 0 }
    /// Frames not encoded because their timestamp went backwards.
    package private(set) var framesDropped = 0
    /// Frames not encoded because a newer frame came within the same refresh (see
    /// `RecordingOptions.maximumFrameRate`).
    package private(set) var framesSuperseded = 0
    /// Frames encoded again while the screen was idle, to extend a fragmented file's timeline
    /// (see `keepCurrent(at:)`); they are included in `framesEncoded`.
    package private(set) var framesRepeated = 0
    /// The first error that made the recording incomplete, if any.
    package private(set) var failure: RecorderError?
    /// Whether frames are kept in memory, not encoded yet (see `spoolLimit` in `init`): no file
    /// has been written so far.
    package var isDeferred: Bool { spool != nil }

    private let logger: Logger
    private var timeline: FrameTimeline
    private let preparer: FramePreparer
    /// BGRA -> YUV 4:2:0 (libyuv at the output size, else swscale, on slice threads when
    /// `options.threads` allows).
    private let converter: PixelConverter
    /// The encoder and the file, once open.
    private var encoder: VideoEncoder?
    /// Whether this recording's pictures are encoded on a thread of their own now (see `VideoEncoder`).
    var encodesOnAThreadOfItsOwn: Bool { encoder?.hasEncodingThread ?? false }
    /// With a maximum frame rate: the newest frame of the current refresh, not encoded yet.
    private var held: Frame?
    /// The picture patches are pasted over (see `append(_: FramePatch)`), the recorder's own;
    /// nil until a whole one came, and again after a frame came as a frame.
    private var canvas: PixelBuffer?
    private var finished = false
    private var warnedAboutSize = false
    /// With a spool limit: frames converted and waiting for the encoder, until they take more
    /// than the limit or the recording finishes (nil once the encoder is open).
    private let spoolLimit: Int?
    private var spool: FrameSpool?
    /// With `previews`: the animated preview, sampled from the pictures as they are encoded
    /// (see `PreviewSampler`); read it once `finish` returned.
    let preview: PreviewSampler?

    /// Opens the encoder and creates the file at `url` (its extension picks the container).
    ///
    /// With `spoolLimit` (bytes), encoding is deferred: frames are converted and kept in memory
    /// until they take more than that, or until `finish`; only then are the encoder and the file
    /// opened, and the kept frames encoded. A recording that is `discard`ed before then costs
    /// no encoding at all (a passing test's video under `.retainOnFailure`). While deferred,
    /// nothing is on disk, so a killed process leaves no file.
    ///
    /// With `previews`, the pictures encoded are sampled for the video's animated preview as
    /// they go (`preview`), so that it is made without decoding the video again.
    package init(
        url: URL,
        width: Int,
        height: Int,
        options: RecordingOptions = RecordingOptions(),
        mask: ScreenMask? = nil,
        masksCopies: Bool = false,
        spoolLimit: Int? = nil,
        previews: Bool = false,
        logger: Logger = Logger(label: "showreel.recorder")
    ) throws(RecorderError) {
        guard width > 0, height > 0 else { throw .invalidDimensions(width: width, height: height) }
        try options.validate()
        let container = try VideoContainer(fileURL: url)
        installFFmpegLogging()

        let path = url.path
        let output = options.outputSize(width: width, height: height)
        converter = PixelConverter(threads: options.threads)
        preparer = FramePreparer(width: width, height: height, output: output, options: options, mask: mask, masksCopies: masksCopies)
        self.url = url
        self.container = container
        self.options = options
        self.fragmented = options.isFragmented(in: container)
        self.inputWidth = width
        self.inputHeight = height
        self.width = output.width
        self.height = output.height
        self.logger = logger
        preview = previews ? PreviewSampler(videoWidth: output.width, videoHeight: output.height) : nil
        // A `.mov` track counts milliseconds (see `VideoEncoder.movTrackTimescale`): frames are
        // at least one apart, so no two share one.
        timeline = FrameTimeline(
            minimumGap: container == .mov ? FrameTimeline.timescale / VideoEncoder.movTrackTimescale : 1,
            keyframeTicks: options.keyframeInterval.ticks(timescale: FrameTimeline.timescale),
            refreshTicks: options.maximumFrameRate.map { max(1, Int64((Double(FrameTimeline.timescale) / $0).rounded())) })

        self.spoolLimit = spoolLimit
        if let spoolLimit {
            // The encoder and the file come later: say now when they could not be opened.
            _ = try VideoEncoder.encoder(for: options)
            let folder = url.deletingLastPathComponent().path
            guard FileManager.default.isWritableFile(atPath: folder) else {
                throw .cannotCreateFile(file: path, message: "the folder \(folder) is missing or not writable")
            }
            spool = FrameSpool(layout: preparer.bands, converter: converter)
            logger.debug("recording deferred", metadata: ["file": "\(path)", "spool limit": "\(spoolLimit)"])
        } else {
            encoder = try openEncoder()
        }
    }

    private func openEncoder() throws(RecorderError) -> VideoEncoder {
        let encoder = try VideoEncoder(
            url: url, container: container, options: options, fragmented: fragmented, width: width, height: height,
            logger: logger)
        encoder.preview = preview
        return encoder
    }

    deinit {
        if encoder != nil || spool != nil, !finished {
            logger.warning("recorder released without finish(); finalising \(url.path) with the last frame held briefly")
            _ = try? finish(stopTime: timeline.fallbackStopTime)
        }
    }

    /// Encodes `frame`, stamped with its presentation time relative to the first appended frame.
    /// `frame` is screen-sized, or already at the video's size, shrunk and masked by a
    /// `FrameShrinker` (as `RecordingSession` does on the source's thread).
    ///
    /// A frame whose time is before the previous frame's is dropped (counted in
    /// `framesDropped`); one at the same time as the previous frame is moved one tick later.
    /// With `options.maximumFrameRate`, a frame is held until a frame of a later refresh
    /// arrives (or the file is kept current or finished): a newer frame in the same refresh
    /// replaces it, as a display shows only the newest (counted in `framesSuperseded`).
    package func append(_ frame: Frame) throws(RecorderError) {
        canvas = nil
        try append(frame, pasting: nil)
    }

    /// Appends the picture `patch` makes of the one appended before (a patch too, or a whole
    /// one), as `append(_: Frame)` appends a frame: its parts are pasted over the picture this
    /// recorder keeps, and masked, once the frame held before has been encoded.
    package func append(_ patch: FramePatch) throws(RecorderError) {
        guard let shrinker = preparer.shrinker else { preconditionFailure("a patch for a recorder that does not shrink") }
        precondition(patch.isWhole || canvas != nil, "a patch with no whole picture before it")
        let first = patch.isWhole ? patch.parts[0].pixels : canvas!
        let frame = Frame(pixels: first, presentationTime: patch.presentationTime, changedAreas: patch.changedAreas)
        try append(frame) {
            // A whole picture is taken as it is; the parts after it are pasted over it.
            self.canvas = first
            for part in patch.parts.dropFirst(patch.isWhole ? 1 : 0) {
                first.paste(part.pixels, over: part.area)
                shrinker.mask?.apply(to: first, rows: part.area.rows)
            }
        }
    }

    /// Appends `frame`; `pasting` (once, before the frame's pixels are first read, and after the
    /// frame held before them was encoded) makes its picture over the one before.
    private func append(_ frame: Frame, pasting: (() -> Void)?) throws(RecorderError) {
        guard !finished else { throw .alreadyFinished(file: url.path) }
        if let failure { throw failure }
        do {
            var pasting = pasting
            if timeline.firstFrameTime == nil, try holdsFirst(frame, pasting: &pasting) { return }
            switch timeline.arrival(of: frame.presentationTime, holding: held?.presentationTime) {
            case .write:
                notePicture(of: frame, pasting: &pasting)
                try encode(frame)
            case .drop:
                // Not shown, but what the next frame changed is counted from it. A patch's
                // picture is the held frame's too: that is encoded first, as it was.
                if pasting != nil, held?.pixels === frame.pixels { try encodeHeld() }
                notePicture(of: frame, pasting: &pasting)
                framesDropped += 1
            case .supersede:
                framesSuperseded += 1
                notePicture(of: frame, pasting: &pasting)
                held = holding(frame)
            case .hold:
                try encodeHeld()
                notePicture(of: frame, pasting: &pasting)
                held = holding(frame)
            }
        } catch {
            throw fail(error)
        }
    }

    /// Makes `frame`'s picture (pasting a patch, once) and counts what it changed.
    private func notePicture(of frame: Frame, pasting: inout (() -> Void)?) {
        pasting?()
        pasting = nil
        preparer.noteChanges(of: frame)
    }

    /// Changes of one instant that `Frame.stamped(after:)` moved a millisecond apart each.
    static let sameInstant = Frame.minimumGap * 5

    /// The first frame waits for the next: one stamped within a few milliseconds of it replaces
    /// it, taking its time. A device boots on its empty (black) home screen and launches the app
    /// at the same device time, so the video opens on the app's first drawn screen instead of a
    /// black frame no one saw. Returns whether `frame` was kept back; false once the first is
    /// encoded.
    private func holdsFirst(_ frame: Frame, pasting: inout (() -> Void)?) throws(RecorderError) -> Bool {
        guard let first = held else {
            notePicture(of: frame, pasting: &pasting)
            held = frame
            return true
        }
        if frame.presentationTime <= first.presentationTime + Self.sameInstant {
            notePicture(of: frame, pasting: &pasting)
            held = Frame(
                pixels: frame.pixels, presentationTime: min(first.presentationTime, frame.presentationTime),
                changedAreas: frame.changedAreas)
            framesSuperseded += 1
            return true
        }
        try encodeHeld()
        return false
    }

    /// The frame to hold until its refresh is over (see `FramePreparer.holding`).
    private func holding(_ frame: Frame) -> Frame {
        let refresh = Frame.refreshInterval.ticks(timescale: FrameTimeline.timescale)
        let mayBeReplaced = (timeline.ticksLeftInRefresh(at: frame.presentationTime) ?? 0) > refresh
        return preparer.holding(frame, mayBeReplaced: mayBeReplaced)
    }

    /// Encodes the frame held for its refresh, if any.
    private func encodeHeld() throws(RecorderError) {
        guard let frame = held else { return }
        held = nil
        try encode(frame)
    }

    private func encode(_ frame: Frame) throws(RecorderError) {
        guard let placement = timeline.place(frame.presentationTime) else {
            framesDropped += 1
            logger.debug("dropping a frame whose time went backwards", metadata: ["time": "\(frame.presentationTime)"])
            return
        }
        try writeRepeats(placement.repeats)
        if !warnedAboutSize, !preparer.isScreenSized(frame.pixels), preparer.shrinker?.isShrunk(frame.pixels) != true {
            warnedAboutSize = true
            logger.warning(
                "frame size \(frame.pixels.width)x\(frame.pixels.height) differs from the recording's \(inputWidth)x\(inputHeight); scaling it"
            )
        }
        let stamp = placement.stamp
        if let spool {
            try keep(frame, in: spool, at: stamp)
        } else if let encoder {
            let prepared = preparer.forEncoder(frame.pixels)
            guard
                try encoder.send(
                    converting: prepared.pixels, changed: prepared.spans, with: converter, pts: stamp.pts, keyframe: stamp.keyframe)
            else {
                throw conversionFailed(frame)
            }
        }
    }

    /// Writes the last picture again at each of `repeats` (a long hold split up; see
    /// `FrameTimeline.maximumHoldTicks`): the same picture, a keyframe of a few kilobytes.
    private func writeRepeats(_ repeats: [FrameTimeline.Stamp]) throws(RecorderError) {
        for stamp in repeats {
            if let spool {
                spool.appendRepeat(pts: stamp.pts, keyframe: stamp.keyframe)
            } else {
                guard let encoder else { return }
                try encoder.sendCurrent(pts: stamp.pts, keyframe: stamp.keyframe)
            }
            framesRepeated += 1
        }
    }

    /// Converts `frame` into the spool; past the spool limit, opens the output and encodes all
    /// that was kept.
    private func keep(_ frame: Frame, in spool: FrameSpool, at stamp: FrameTimeline.Stamp) throws(RecorderError) {
        // The frame kept is the last one noted: what changed since the one kept before is known.
        let pixels = preparer.prepared(frame.pixels)
        let converted = spool.append(pixels, pts: stamp.pts, keyframe: stamp.keyframe, spans: preparer.changedSinceKept)
        preparer.noteKept()
        guard converted else { throw conversionFailed(frame) }
        if let spoolLimit, spool.byteCount > spoolLimit {
            logger.debug(
                "spool limit reached: encoding from here on", metadata: ["file": "\(url.path)", "frames": "\(spool.entries.count)"])
            try encodeSpool()
        }
    }

    /// Opens the output and encodes the spooled frames; the recorder encodes as it goes after.
    private func encodeSpool() throws(RecorderError) {
        guard let spool else { return }
        self.spool = nil
        defer { spool.removeAll() }
        // No frame, no file (`finish` then says so).
        guard let last = spool.entries.last else { return }
        let encoder = try openEncoder()
        self.encoder = encoder
        try spool.replay { (bytes, entry) throws(RecorderError) in
            // The last picture is what `keepCurrent` repeats while the screen is idle.
            try encoder.sendSpooled(
                at: bytes, of: spool.layout, pts: entry.pts, keyframe: entry.keyframe,
                keepAsCurrent: entry.pts == last.pts)
        }
        preparer.forgetSent()
    }

    /// Makes what is recorded so far safe from a killed recorder (fragmented files only; a
    /// classic file is readable only once finished).
    ///
    /// With `time` (device-clock time, after the last frame), the held frame is encoded once
    /// more at that time: the same picture as a P-frame costs a few hundred bytes, and it gives
    /// the frame before it its duration up to `time`, so the file's timeline reaches `time`.
    /// Then everything muxed is written out as a fragment. Without `time` only the flush is
    /// done: the last frame stays in memory, since how long it lasts is not known yet.
    package func keepCurrent(at time: Duration?) throws(RecorderError) {
        // A deferred recording has no file yet: nothing to keep current.
        guard fragmented, !finished, failure == nil, spool == nil else { return }
        do {
            // The first frame waits for its instant to be over (see `holdsFirst`): on a virtual
            // clock only the next frame says so, on a real one `time` past it does.
            let firstIsOver = held.map { first in time.map { $0 > first.presentationTime + Self.sameInstant } ?? false } ?? false
            if timeline.firstFrameTime != nil || firstIsOver { try encodeHeld() }
            guard let encoder, encoder.picturesSent > 0 else { return }
            if let time, let pts = timeline.repeatCurrent(at: time) {
                try encoder.sendCurrent(pts: pts, keyframe: false)
                framesRepeated += 1
            }
            try encoder.flushFragment()
        } catch {
            throw fail(error)
        }
    }

    /// Holds the last frame until `stopTime` (device-clock time, like the frames'
    /// presentation times), flushes the encoder, writes the trailer and closes the file.
    ///
    /// After a write error it still writes the trailer for what fits, then throws that error.
    @discardableResult
    package func finish(stopTime: Duration) throws(RecorderError) -> RecordingSummary {
        guard !finished else { throw .alreadyFinished(file: url.path) }
        finished = true
        let path = url.path
        var firstError = failure

        if firstError == nil {
            do {
                try encodeHeld()
                try writeRepeats(timeline.repeats(until: stopTime))
                try encodeSpool()
            } catch { firstError = error }
        }
        if let encoder {
            let timeline = timeline
            let closing = encoder.finish(flushing: firstError == nil) { pts in timeline.lastFrameDuration(from: pts, stopTime: stopTime) }
            firstError = firstError ?? closing
        }
        if let firstError {
            failure = firstError
            throw firstError
        }
        guard let encoder, framesEncoded > 0 else { throw .noFrames(file: path) }

        let size = (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize).flatMap { $0 }.map(Int64.init) ?? 0
        let summary = RecordingSummary(
            url: url, codec: options.codec, container: container, fragmented: fragmented,
            width: width, height: height, framesEncoded: framesEncoded, framesDropped: framesDropped,
            framesRepeated: framesRepeated, framesSuperseded: framesSuperseded,
            duration: .ticks(encoder.endPts, timescale: FrameTimeline.timescale), fileSize: size)
        logger.debug(
            "recording finished",
            metadata: [
                "file": "\(path)", "frames": "\(framesEncoded)", "dropped": "\(framesDropped)",
                "duration": "\(summary.duration)", "bytes": "\(size)",
            ])
        return summary
    }

    /// Closes the file unfinished and removes it (see `FrameQueueRecorder.discard()`).
    package func discard() {
        guard !finished else { return }
        finished = true
        held = nil
        spool?.removeAll()
        spool = nil
        encoder?.abandon()
        try? FileManager.default.removeItem(at: url)
        logger.debug("recording discarded", metadata: ["file": "\(url.path)"])
    }

    private func conversionFailed(_ frame: Frame) -> RecorderError {
        .encodeFailed(file: url.path, message: "could not convert a \(frame.pixels.width)x\(frame.pixels.height) BGRA frame to YUV")
    }

    private func fail(_ error: RecorderError) -> RecorderError {
        if failure == nil { failure = error }
        return error
    }
}
