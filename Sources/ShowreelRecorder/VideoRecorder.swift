import CFFmpeg
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
public final class VideoRecorder {
    public let url: URL
    public let container: VideoContainer
    public let options: RecordingOptions
    public let fragmented: Bool
    /// The screen size frames arrive at.
    public let inputWidth: Int
    public let inputHeight: Int
    /// The encoded size (scaled and rounded to even numbers).
    public let width: Int
    public let height: Int

    /// Frames written to the file so far.
    public private(set) var framesEncoded = 0
    /// Frames not encoded because their timestamp went backwards.
    public private(set) var framesDropped = 0
    /// Frames not encoded because a newer frame came within the same refresh (see
    /// `RecordingOptions.maximumFrameRate`).
    public private(set) var framesSuperseded = 0
    /// Frames encoded again while the screen was idle, to extend a fragmented file's timeline
    /// (see `keepCurrent(at:)`); they are included in `framesEncoded`.
    public private(set) var framesRepeated = 0
    /// The first error that made the recording incomplete, if any.
    public private(set) var failure: RecorderError?
    /// Whether frames are kept in memory, not encoded yet (see `spoolLimit` in `init`): no file
    /// has been written so far.
    public var isDeferred: Bool { spool != nil }

    static let timescale: Int64 = 90_000
    private static let encoderTimeBase = AVRational(num: 1, den: Int32(timescale))
    /// A `.mov` track counts time in milliseconds, as QuickTime's own recordings count in small
    /// units: its media header keeps the track's length in 32 bits only up to 2^31 units, 6.6
    /// hours at 90 kHz (beyond, FFmpeg writes 64-bit lengths that it says QuickTime cannot
    /// play), 24.8 days in milliseconds. Frames are then at least `minimumGap` apart, so no two
    /// share a millisecond. An `.mp4` keeps 90 kHz (its 64-bit lengths are standard).
    static let movTrackTimescale: Int64 = 1000
    /// The least time between two frames, in ticks: one unit of the file's track.
    private var minimumGap: Int64 { container == .mov ? Self.timescale / Self.movTrackTimescale : 1 }
    /// The longest a picture lasts in the file before it is encoded again (see `splitHold`).
    static let maximumHoldTicks: Int64 = 3600 * timescale
    /// How long the last frame lasts when the stop time is not after it: one frame at 60 Hz.
    private static let minimumLastFrameTicks = Frame.refreshInterval.nanoseconds * timescale / 1_000_000_000

    private let logger: Logger
    private let resources = EncoderResources()
    private var streamIndex: Int32 = 0
    private var streamTimeBase = AVRational(num: 1, den: 1)
    private let keyframeTicks: Int64
    /// BGRA -> YUV 4:2:0 (libyuv at the output size, else swscale, on slice threads when
    /// `options.threads` allows).
    private let converter: PixelConverter
    /// BT.601's matrix, tagged as such (SMPTE 170M), with BT.709 primaries and transfer (sRGB's):
    /// what libyuv's converter gives, and what players assume for a video under 720 lines.
    private let colour = ColourDetails.videoRange601

    private var firstFrameTime: Duration?
    /// With a maximum frame rate: the length of one refresh, and the newest frame of the
    /// current refresh, not encoded yet.
    private let refreshTicks: Int64?
    private var held: Frame?
    private var lastFrameTime: Duration?
    private var lastPts: Int64 = -1
    /// Whether the last frame sent to the encoder was a repeat of the held one: a new frame may
    /// then be stamped just after it, as the repeat's time was only an estimate of "now".
    private var lastWasRepeat = false
    /// Packets muxed since the last fragment was flushed.
    private var unflushedPackets = 0
    private var lastKeyframePts: Int64?
    private var framesSent = 0
    private var pendingValid = false
    private var endPts: Int64 = 0
    private var finished = false
    private var opened = false
    private var warnedAboutSize = false
    /// Paints what lies outside the screen's shape black before encoding (`--mask=black`).
    private let mask: ScreenMask?
    /// Frames are someone else's (an in-process device's own buffers): mask a copy, kept here
    /// and reused, so the device's screen is untouched and no frame-sized buffer is allocated per frame.
    private let masksCopies: Bool
    private var maskScratch: PixelBuffer?
    /// Frames recorded at a smaller size are shrunk into this buffer first, masked there and
    /// converted 1:1: cheaper than swscale's area filter on the full frame, and the mask touches
    /// the recorder's own buffer, so no copy is needed. Frames that come already shrunk (by a
    /// `RecordingSession`, on the device's thread) go straight to conversion.
    private let shrinker: FrameShrinker?
    private let shrinkScratch: PixelBuffer?
    /// The video's bands, in which the frames' changed areas are counted...
    private let bands: FrameSpool.Layout
    /// ...from screen pixels this many times the video's (nil: a size they do not map onto).
    private let changeScale: Int?
    /// What changed (from the frames' `changedAreas`, in the video's pixels; nil: unknown) since
    /// the frame in `shrinkScratch`, so a shrink redoes only that...
    private var changedSinceShrunk: BandSpans?
    /// ...and since the frame kept last, so the spool keeps only that.
    private var changedSinceKept: BandSpans?
    /// With a spool limit: frames converted and waiting for `openOutput()`, until they take
    /// more than the limit or the recording finishes (nil once the output is open).
    private let spoolLimit: Int?
    private var spool: FrameSpool?

    /// Opens the encoder and creates the file at `url` (its extension picks the container).
    ///
    /// With `spoolLimit` (bytes), encoding is deferred: frames are converted and kept in memory
    /// until they take more than that, or until `finish`; only then are the encoder and the file
    /// opened, and the kept frames encoded. A recording that is `discard`ed before then costs
    /// no encoding at all (a passing test's video under `.retainOnFailure`). While deferred,
    /// nothing is on disk, so a killed process leaves no file.
    public init(
        url: URL,
        width: Int,
        height: Int,
        options: RecordingOptions = RecordingOptions(),
        mask: ScreenMask? = nil,
        masksCopies: Bool = false,
        spoolLimit: Int? = nil,
        logger: Logger = Logger(label: "showreel.recorder")
    ) throws(RecorderError) {
        guard width > 0, height > 0 else { throw .invalidDimensions(width: width, height: height) }
        try options.validate()
        let container = try VideoContainer(fileURL: url)
        installFFmpegLogging()

        let path = url.path
        let output = options.outputSize(width: width, height: height)
        converter = PixelConverter(threads: options.threads)
        self.mask = mask
        self.masksCopies = masksCopies
        shrinker = FrameShrinker(width: width, height: height, options: options, mask: mask)
        shrinkScratch = shrinker.map { PixelBuffer(width: $0.width, height: $0.height, zeroed: false) }
        let fragmented = options.isFragmented(in: container)
        self.url = url
        self.container = container
        self.options = options
        self.fragmented = fragmented
        self.inputWidth = width
        self.inputHeight = height
        self.width = output.width
        bands = FrameSpool.Layout(width: output.width, height: output.height)
        changeScale = if let shrinker { shrinker.shrinksInParts ? 2 : nil } else { 1 }
        self.height = output.height
        self.logger = logger
        self.keyframeTicks = options.keyframeInterval.ticks(timescale: Self.timescale)
        refreshTicks = options.maximumFrameRate.map { max(1, Int64((Double(Self.timescale) / $0).rounded())) }

        self.spoolLimit = spoolLimit
        if spoolLimit != nil {
            // The encoder and the file come later: say now when they could not be opened.
            _ = try Self.encoder(for: options)
            let folder = url.deletingLastPathComponent().path
            guard FileManager.default.isWritableFile(atPath: folder) else {
                throw .cannotCreateFile(file: path, message: "the folder \(folder) is missing or not writable")
            }
            spool = FrameSpool(layout: bands, converter: converter)
            logger.debug("recording deferred", metadata: ["file": "\(path)", "spool limit": "\(spoolLimit!)"])
        } else {
            try openOutput()
        }
    }

    /// FFmpeg's encoder for `options`' codec, or the error that says which package provides it.
    private static func encoder(for options: RecordingOptions) throws(RecorderError) -> UnsafePointer<AVCodec> {
        guard let encoder = avcodec_find_encoder_by_name(options.encoderName) else {
            throw .encoderUnavailable(codec: options.codec, encoder: options.encoderName, package: options.codec.debianPackage)
        }
        return encoder
    }

    /// Opens the encoder, creates the file and writes its header.
    private func openOutput() throws(RecorderError) {
        let path = url.path
        let output = (width: width, height: height)
        let codec = options.codec
        let encoder = try Self.encoder(for: options)

        // Muxer and stream.
        var formatContext: UnsafeMutablePointer<AVFormatContext>?
        var result = avformat_alloc_output_context2(&formatContext, nil, container.muxerName, path)
        guard result >= 0, let formatContext else {
            throw .muxerFailed(file: path, step: "set up the \(container.muxerName) muxer", message: ffmpegErrorMessage(result))
        }
        resources.format = formatContext
        guard let stream = avformat_new_stream(formatContext, nil) else { throw .outOfMemory("a video stream") }
        streamIndex = stream.pointee.index

        // Encoder.
        guard let codecContext = avcodec_alloc_context3(encoder) else { throw .outOfMemory("the \(options.encoderName) encoder") }
        resources.codec = codecContext
        codecContext.pointee.width = Int32(output.width)
        codecContext.pointee.height = Int32(output.height)
        codecContext.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        codecContext.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        codecContext.pointee.time_base = Self.encoderTimeBase
        // A nominal rate for rate control; timestamps are what count (variable frame rate).
        codecContext.pointee.framerate = AVRational(num: 60, den: 1)
        codecContext.pointee.gop_size = Int32(clamping: max(1, Int((options.keyframeInterval.seconds * 60).rounded(.up))))
        codecContext.pointee.max_b_frames = 0
        codecContext.pointee.thread_count = Int32(clamping: options.threads)
        codecContext.pointee.color_range = AVCOL_RANGE_MPEG
        codecContext.pointee.colorspace = AVCOL_SPC_SMPTE170M
        codecContext.pointee.color_primaries = AVCOL_PRI_BT709
        codecContext.pointee.color_trc = AVCOL_TRC_BT709
        if formatContext.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            codecContext.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        var codecOptions: OpaquePointer?
        av_dict_set(&codecOptions, "preset", options.preset, 0)
        av_dict_set(&codecOptions, "crf", String(options.effectiveQuality), 0)
        av_dict_set(&codecOptions, "forced-idr", "1", 0)
        // Live capture: no frames parked inside the encoder (frame threads, lookahead). On a
        // sparse VFR stream a parked frame could wait seconds for the next change, and a
        // killed recorder would lose it even though its keyframe came before the kill.
        av_dict_set(&codecOptions, "tune", "zerolatency", 0)
        if codec == .hevc {
            // x265 prints to stderr on its own; keep it quiet (errors come back as return codes).
            av_dict_set(&codecOptions, "x265-params", "log-level=none:bframes=0", 0)
        }
        result = avcodec_open2(codecContext, encoder, &codecOptions)
        av_dict_free(&codecOptions)
        guard result >= 0 else {
            throw .encoderOpenFailed(encoder: options.encoderName, message: ffmpegErrorMessage(result))
        }
        result = avcodec_parameters_from_context(stream.pointee.codecpar, codecContext)
        guard result >= 0 else {
            throw .muxerFailed(file: path, step: "describe the video stream", message: ffmpegErrorMessage(result))
        }
        stream.pointee.time_base = Self.encoderTimeBase
        if codec == .hevc {
            // 'hvc1' (parameter sets in the sample description) is what QuickTime and Safari play.
            stream.pointee.codecpar.pointee.codec_tag = showreel_mktag(
                CChar(UInt8(ascii: "h")), CChar(UInt8(ascii: "v")), CChar(UInt8(ascii: "c")), CChar(UInt8(ascii: "1")))
        }

        // File and header.
        result = avio_open(&formatContext.pointee.pb, path, AVIO_FLAG_WRITE)
        guard result >= 0 else { throw .cannotCreateFile(file: path, message: ffmpegErrorMessage(result)) }
        var headerOptions: OpaquePointer?
        if fragmented {
            av_dict_set(&headerOptions, "movflags", "frag_keyframe+empty_moov+default_base_moof", 0)
            av_dict_set(&headerOptions, "flush_packets", "1", 0)
        }
        if container == .mov {
            av_dict_set(&headerOptions, "video_track_timescale", String(Self.movTrackTimescale), 0)
        }
        result = avformat_write_header(formatContext, &headerOptions)
        av_dict_free(&headerOptions)
        guard result >= 0 else {
            throw .muxerFailed(file: path, step: "write the video header", message: ffmpegErrorMessage(result))
        }
        // The muxer picks the stream's time base while writing the header.
        streamTimeBase = stream.pointee.time_base

        // Reusable frame and packets.
        guard let frame = av_frame_alloc() else { throw .outOfMemory("a video frame") }
        resources.frame = frame
        describeVideoFrame(frame)
        result = av_frame_get_buffer(frame, 0)
        guard result >= 0 else { throw .outOfMemory("a \(output.width)x\(output.height) video frame") }
        guard let packet = av_packet_alloc(), let pending = av_packet_alloc() else { throw .outOfMemory("video packets") }
        resources.packet = packet
        resources.pending = pending

        opened = true
        logger.debug("recording started", metadata: [
            "file": "\(path)", "codec": "\(codec.rawValue)", "container": "\(container.rawValue)",
            "size": "\(output.width)x\(output.height)", "fragmented": "\(fragmented)",
        ])
    }

    deinit {
        if opened || spool != nil, !finished {
            logger.warning("recorder released without finish(); finalising \(url.path) with the last frame held briefly")
            let stop = (lastFrameTime ?? .zero) + .ticks(Self.minimumLastFrameTicks, timescale: Self.timescale)
            _ = try? finish(stopTime: stop)
        }
    }

    /// `pixels` ready for conversion: shrunk and masked in the recorder's own buffer, or masked.
    private func prepared(_ pixels: PixelBuffer) -> PixelBuffer {
        guard let shrinker, let shrinkScratch else { return masked(pixels) }
        if shrinker.isShrunk(pixels) { return pixels }
        guard isScreenSized(pixels) else { return masked(pixels) }
        shrinkIntoScratch(pixels)
        return shrinkScratch
    }

    private func isScreenSized(_ pixels: PixelBuffer) -> Bool {
        pixels.width == inputWidth && pixels.height == inputHeight
    }

    /// Shrinks a screen-sized frame into `shrinkScratch`: only what changed since the frame
    /// there, when every frame in between said what.
    private func shrinkIntoScratch(_ pixels: PixelBuffer) {
        guard let shrinker, let shrinkScratch else { return }
        shrinker.shrink(pixels, into: shrinkScratch, spans: changedSinceShrunk)
        changedSinceShrunk = BandSpans(bandCount: bands.bandCount)
    }

    /// Counts a frame's changed areas towards the next shrink and the next frame kept. A frame
    /// that does not say, or that the video's bands cannot map (not screen-sized, a video not
    /// exactly half or whole size), makes both unknown.
    private func noteChanges(of frame: Frame) {
        guard let changeScale, isScreenSized(frame.pixels), let areas = frame.changedAreas else {
            (changedSinceShrunk, changedSinceKept) = (nil, nil)
            return
        }
        let changed = BandSpans(areas: areas, factor: changeScale, layout: bands)
        changedSinceShrunk?.formUnion(changed)
        changedSinceKept?.formUnion(changed)
    }

    /// `pixels` with the mask applied: in place, or on the scratch copy when they are shared.
    private func masked(_ pixels: PixelBuffer) -> PixelBuffer {
        guard let mask, mask.width == pixels.width, mask.height == pixels.height else { return pixels }
        guard masksCopies else {
            mask.apply(to: pixels)
            return pixels
        }
        if maskScratch?.byteCount != pixels.byteCount || maskScratch?.bytesPerRow != pixels.bytesPerRow {
            maskScratch = PixelBuffer(width: pixels.width, height: pixels.height, bytesPerRow: pixels.bytesPerRow, zeroed: false)
        }
        let scratch = maskScratch!
        pixels.withUnsafeBytes { source in scratch.withUnsafeMutableBytes { $0.copyMemory(from: source) } }
        mask.apply(to: scratch)
        return scratch
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
    public func append(_ frame: Frame) throws(RecorderError) {
        guard !finished else { throw .alreadyFinished(file: url.path) }
        if let failure { throw failure }
        if firstFrameTime == nil, try holdsFirst(frame) { return }
        guard let refreshTicks, let firstFrameTime else {
            noteChanges(of: frame)
            return try encode(frame)
        }
        if let held {
            if frame.presentationTime < held.presentationTime {
                // Not shown, but what the next frame changed is counted from it.
                noteChanges(of: frame)
                framesDropped += 1
                return
            }
            let refresh = { (time: Duration) in (time - firstFrameTime).ticks(timescale: Self.timescale) / refreshTicks }
            if refresh(frame.presentationTime) == refresh(held.presentationTime) {
                framesSuperseded += 1
                noteChanges(of: frame)
                self.held = holding(frame, firstFrameTime: firstFrameTime, refreshTicks: refreshTicks)
                return
            }
            try encode(held)
        }
        noteChanges(of: frame)
        held = holding(frame, firstFrameTime: firstFrameTime, refreshTicks: refreshTicks)
    }

    /// The first frame waits for the next: one stamped within a few milliseconds of it replaces
    /// it, taking its time. Those are changes of one instant that `Frame.stamped(after:)` moved
    /// a millisecond apart each: a device boots on its empty (black) home screen and launches
    /// the app at the same device time, so the video opens on the app's first drawn screen
    /// instead of a black frame no one saw. Returns whether `frame` was kept back; false once
    /// the first is encoded.
    static let sameInstant = Frame.minimumGap * 5

    private func holdsFirst(_ frame: Frame) throws(RecorderError) -> Bool {
        guard let first = held else {
            noteChanges(of: frame)
            held = frame
            return true
        }
        if frame.presentationTime <= first.presentationTime + Self.sameInstant {
            noteChanges(of: frame)
            held = Frame(pixels: frame.pixels, presentationTime: min(first.presentationTime, frame.presentationTime),
                         changedAreas: frame.changedAreas)
            framesSuperseded += 1
            return true
        }
        held = nil
        try encode(first)
        return false
    }

    /// The frame to hold until its refresh is over, shrunk at once while the source's thread
    /// still has it in cache, and so that the source's buffer is not held (one more buffer the
    /// source would draw into cold). Only a frame that changed all over (an animation's step)
    /// and that a newer frame may still replace in its refresh is held as it is, and shrunk
    /// only if it is not replaced: a whole shrink is worth saving, a few bands are not.
    private func holding(_ frame: Frame, firstFrameTime: Duration, refreshTicks: Int64) -> Frame {
        guard let shrinkScratch, isScreenSized(frame.pixels) else { return frame }
        if changedSinceShrunk.map({ $0.changedBandCount * 2 > bands.bandCount }) ?? true {
            let ticks = (frame.presentationTime - firstFrameTime).ticks(timescale: Self.timescale)
            let refreshEnd = (ticks / refreshTicks + 1) * refreshTicks
            if refreshEnd - ticks > Frame.refreshInterval.ticks(timescale: Self.timescale) { return frame }
        }
        shrinkIntoScratch(frame.pixels)
        return Frame(pixels: shrinkScratch, presentationTime: frame.presentationTime)
    }

    /// Encodes the frame held for its refresh, if any.
    private func encodeHeld() throws(RecorderError) {
        guard let frame = held else { return }
        held = nil
        try encode(frame)
    }

    private func encode(_ frame: Frame) throws(RecorderError) {
        let first = firstFrameTime ?? frame.presentationTime
        var pts = (frame.presentationTime - first).ticks(timescale: Self.timescale)
        if lastWasRepeat, lastPts >= 0, pts < lastPts + minimumGap { pts = lastPts + minimumGap }
        if pts < 0 || pts < lastPts {
            framesDropped += 1
            logger.debug("dropping a frame whose time went backwards", metadata: ["time": "\(frame.presentationTime)"])
            return
        }
        if lastPts >= 0, pts < lastPts + minimumGap { pts = lastPts + minimumGap }
        try splitHold(before: pts)
        if !warnedAboutSize, !isScreenSized(frame.pixels), shrinker?.isShrunk(frame.pixels) != true {
            warnedAboutSize = true
            logger.warning("frame size \(frame.pixels.width)x\(frame.pixels.height) differs from the recording's \(inputWidth)x\(inputHeight); scaling it")
        }
        let keyframe = lastKeyframePts.map { pts - $0 >= keyframeTicks } ?? true
        if let spool {
            try keep(frame, in: spool, pts: pts, keyframe: keyframe)
        } else {
            guard let avFrame = resources.frame else { return }
            guard av_frame_make_writable(avFrame) >= 0 else { throw fail(.outOfMemory("a writable video frame")) }
            try convert(frame, into: avFrame)
            try send(avFrame, pts: pts, keyframe: keyframe)
        }
        if keyframe { lastKeyframePts = pts }
        firstFrameTime = first
        lastFrameTime = frame.presentationTime
        lastPts = pts
        lastWasRepeat = false
    }

    /// Encodes the last picture again every `maximumHoldTicks` until `pts`: mov and mp4 keep a
    /// sample's duration in 32 bits of the 90 kHz time scale (6.6 hours at most), so a screen
    /// held for half a day would otherwise be refused by the muxer and lose the video. Each
    /// repeat is the same picture, a keyframe of a few kilobytes (so the video seeks there).
    private func splitHold(before pts: Int64) throws(RecorderError) {
        guard lastPts >= 0 else { return }
        while pts - lastPts > Self.maximumHoldTicks {
            let at = lastPts + Self.maximumHoldTicks
            let keyframe = lastKeyframePts.map { at - $0 >= keyframeTicks } ?? true
            if let spool {
                spool.appendRepeat(pts: at, keyframe: keyframe)
            } else {
                guard let avFrame = resources.frame else { return }
                try send(avFrame, pts: at, keyframe: keyframe)
            }
            if keyframe { lastKeyframePts = at }
            lastPts = at
            framesRepeated += 1
        }
    }

    private func convert(_ frame: Frame, into avFrame: UnsafeMutablePointer<AVFrame>) throws(RecorderError) {
        guard converter.convert(prepared(frame.pixels), into: avFrame, colour: colour) else { throw conversionFailed(frame) }
    }

    private func conversionFailed(_ frame: Frame) -> RecorderError {
        fail(.encodeFailed(file: url.path, message: "could not convert a \(frame.pixels.width)x\(frame.pixels.height) BGRA frame to YUV"))
    }

    /// Sends a picture to the encoder and writes what comes out.
    private func send(_ avFrame: UnsafeMutablePointer<AVFrame>, pts: Int64, keyframe: Bool) throws(RecorderError) {
        guard let codecContext = resources.codec else { return }
        avFrame.pointee.pts = pts
        avFrame.pointee.pict_type = keyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        let result = avcodec_send_frame(codecContext, avFrame)
        guard result >= 0 else { throw fail(.encodeFailed(file: url.path, message: ffmpegErrorMessage(result))) }
        framesSent += 1
        try drainEncoder()
    }

    /// Converts `frame` into the spool; past the spool limit, opens the output and encodes all
    /// that was kept.
    private func keep(_ frame: Frame, in spool: FrameSpool, pts: Int64, keyframe: Bool) throws(RecorderError) {
        // The frame kept is the last one noted: what changed since the one kept before is known.
        let converted = spool.append(prepared(frame.pixels), pts: pts, keyframe: keyframe, spans: changedSinceKept)
        changedSinceKept = BandSpans(bandCount: bands.bandCount)
        guard converted else { throw conversionFailed(frame) }
        if let spoolLimit, spool.byteCount > spoolLimit {
            logger.debug("spool limit reached: encoding from here on", metadata: ["file": "\(url.path)", "frames": "\(spool.entries.count)"])
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
        do {
            try openOutput()
        } catch {
            throw fail(error)
        }
        try spool.replay { (bytes, entry) throws(RecorderError) in
            try withSpoolFrame(at: bytes, of: spool.layout) { avFrame throws(RecorderError) in
                try send(avFrame, pts: entry.pts, keyframe: entry.keyframe)
                // The last picture is what `keepCurrent` repeats while the screen is idle.
                if entry.pts == last.pts, let current = resources.frame {
                    guard av_frame_make_writable(current) >= 0, av_frame_copy(current, avFrame) >= 0 else {
                        throw fail(.outOfMemory("a writable video frame"))
                    }
                }
            }
        }
    }

    /// Sets `frame` up as one of this video's pictures: size, YUV 4:2:0 and colour tags.
    private func describeVideoFrame(_ frame: UnsafeMutablePointer<AVFrame>) {
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.color_range = AVCOL_RANGE_MPEG
        frame.pointee.colorspace = AVCOL_SPC_SMPTE170M
        frame.pointee.color_primaries = AVCOL_PRI_BT709
        frame.pointee.color_trc = AVCOL_TRC_BT709
    }

    /// `body` with an AVFrame whose planes are the spool's memory at `bytes` (not owned by
    /// FFmpeg: the encoder copies what it keeps).
    private func withSpoolFrame(at bytes: UnsafeMutableRawPointer, of layout: FrameSpool.Layout,
                                _ body: (UnsafeMutablePointer<AVFrame>) throws(RecorderError) -> Void) throws(RecorderError) {
        if resources.spoolFrame == nil { resources.spoolFrame = av_frame_alloc() }
        guard let avFrame = resources.spoolFrame else { throw fail(.outOfMemory("a video frame")) }
        let base = bytes.assumingMemoryBound(to: UInt8.self)
        let offsets = layout.planeOffsets
        describeVideoFrame(avFrame)
        avFrame.pointee.data.0 = base + offsets.0
        avFrame.pointee.data.1 = base + offsets.1
        avFrame.pointee.data.2 = base + offsets.2
        avFrame.pointee.linesize.0 = Int32(layout.width)
        avFrame.pointee.linesize.1 = Int32(layout.chromaWidth)
        avFrame.pointee.linesize.2 = Int32(layout.chromaWidth)
        try body(avFrame)
    }

    /// Makes what is recorded so far safe from a killed recorder (fragmented files only; a
    /// classic file is readable only once finished).
    ///
    /// With `time` (device-clock time, after the last frame), the held frame is encoded once
    /// more at that time: the same picture as a P-frame costs a few hundred bytes, and it gives
    /// the frame before it its duration up to `time`, so the file's timeline reaches `time`.
    /// Then everything muxed is written out as a fragment. Without `time` only the flush is
    /// done: the last frame stays in memory, since how long it lasts is not known yet.
    public func keepCurrent(at time: Duration?) throws(RecorderError) {
        // A deferred recording has no file yet: nothing to keep current.
        guard fragmented, !finished, failure == nil, spool == nil else { return }
        // The first frame waits for its instant to be over (see `holdsFirst`): on a virtual
        // clock only the next frame says so, on a real one `time` past it does.
        let firstIsOver = held.map { first in time.map { $0 > first.presentationTime + Self.sameInstant } ?? false } ?? false
        if firstFrameTime != nil || firstIsOver { try encodeHeld() }
        guard framesSent > 0 else { return }
        if let time, let firstFrameTime, let avFrame = resources.frame, let codecContext = resources.codec {
            let pts = (time - firstFrameTime).ticks(timescale: Self.timescale)
            if pts >= lastPts + minimumGap {
                avFrame.pointee.pts = pts
                avFrame.pointee.pict_type = AV_PICTURE_TYPE_NONE
                let result = avcodec_send_frame(codecContext, avFrame)
                guard result >= 0 else { throw fail(.encodeFailed(file: url.path, message: ffmpegErrorMessage(result))) }
                lastPts = pts
                lastWasRepeat = true
                framesSent += 1
                framesRepeated += 1
                try drainEncoder()
            }
        }
        guard unflushedPackets > 0, let formatContext = resources.format else { return }
        // A NULL packet asks the mov muxer to write the fragment it holds now.
        let result = av_write_frame(formatContext, nil)
        if result < 0 { throw fail(.writeFailed(file: url.path, message: ffmpegErrorMessage(result))) }
        if let pb = formatContext.pointee.pb {
            avio_flush(pb)
            if pb.pointee.error < 0 { throw fail(.writeFailed(file: url.path, message: ffmpegErrorMessage(pb.pointee.error))) }
        }
        unflushedPackets = 0
    }

    /// Holds the last frame until `stopTime` (device-clock time, like the frames'
    /// presentation times), flushes the encoder, writes the trailer and closes the file.
    ///
    /// After a write error it still writes the trailer for what fits, then throws that error.
    @discardableResult
    public func finish(stopTime: Duration) throws(RecorderError) -> RecordingSummary {
        guard !finished else { throw .alreadyFinished(file: url.path) }
        finished = true
        let path = url.path
        var firstError = failure

        if firstError == nil {
            do {
                try encodeHeld()
                if let firstFrameTime { try splitHold(before: (stopTime - firstFrameTime).ticks(timescale: Self.timescale)) }
                try encodeSpool()
            } catch { firstError = error }
        }
        if firstError == nil, framesSent > 0, let codecContext = resources.codec {
            let result = avcodec_send_frame(codecContext, nil)
            if result < 0, result != showreel_averror_eof() {
                firstError = .encodeFailed(file: path, message: ffmpegErrorMessage(result))
            } else {
                do { try drainEncoder() } catch { firstError = error }
            }
        }
        if firstError == nil, pendingValid, let pending = resources.pending {
            let pts = pending.pointee.pts
            var duration = Self.minimumLastFrameTicks
            if let firstFrameTime {
                let stopPts = (stopTime - firstFrameTime).ticks(timescale: Self.timescale)
                if stopPts > pts { duration = stopPts - pts }
            }
            pending.pointee.duration = duration
            pendingValid = false
            do { try write(pending) } catch { firstError = error }
        }

        // The trailer only follows a header: a deferred recording's output can fail to open at
        // finish, after which there is only the file to close.
        if let formatContext = resources.format, opened {
            let result = av_write_trailer(formatContext)
            if result < 0, firstError == nil {
                firstError = writeError(result, step: "write the video's index (trailer)")
            }
            if let pb = formatContext.pointee.pb {
                avio_flush(pb)
                if pb.pointee.error < 0, firstError == nil {
                    firstError = .writeFailed(file: path, message: ffmpegErrorMessage(pb.pointee.error))
                }
            }
            let closed = resources.closeFile()
            if closed < 0, firstError == nil {
                firstError = .writeFailed(file: path, message: ffmpegErrorMessage(closed))
            }
        } else {
            resources.closeFile()
        }
        resources.releaseCodec()
        if let firstError {
            failure = firstError
            throw firstError
        }
        guard framesEncoded > 0 else { throw .noFrames(file: path) }

        let size = (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize).flatMap { $0 }.map(Int64.init) ?? 0
        let summary = RecordingSummary(
            url: url, codec: options.codec, container: container, fragmented: fragmented,
            width: width, height: height, framesEncoded: framesEncoded, framesDropped: framesDropped,
            framesRepeated: framesRepeated, framesSuperseded: framesSuperseded, duration: .ticks(endPts, timescale: Self.timescale),
            fileSize: size)
        logger.debug("recording finished", metadata: [
            "file": "\(path)", "frames": "\(framesEncoded)", "dropped": "\(framesDropped)",
            "duration": "\(summary.duration)", "bytes": "\(size)",
        ])
        return summary
    }

    /// Closes the file unfinished and removes it (see `FrameQueueRecorder.discard()`).
    public func discard() {
        guard !finished else { return }
        finished = true
        held = nil
        spool?.removeAll()
        spool = nil
        resources.closeFile()
        resources.releaseCodec()
        try? FileManager.default.removeItem(at: url)
        logger.debug("recording discarded", metadata: ["file": "\(url.path)"])
    }

    // MARK: - Internals

    /// What a failed write means: the disk's errors say to free space or move; anything else is
    /// the muxer refusing what it was given, said as such (no advice about disk space).
    private func writeError(_ code: Int32, step: String) -> RecorderError {
        let diskErrors = [ENOSPC, EFBIG, EIO, EDQUOT, EROFS, EPIPE, EACCES, EPERM]
        if diskErrors.contains(where: { code == -$0 }) { return .writeFailed(file: url.path, message: ffmpegErrorMessage(code)) }
        return .muxerFailed(file: url.path, step: step, message: ffmpegErrorMessage(code))
    }

    private func fail(_ error: RecorderError) -> RecorderError {
        if failure == nil { failure = error }
        return error
    }

    private func drainEncoder() throws(RecorderError) {
        guard let codecContext = resources.codec, let packet = resources.packet else { return }
        while true {
            let result = avcodec_receive_packet(codecContext, packet)
            if result == showreel_averror_eagain() || result == showreel_averror_eof() { return }
            guard result >= 0 else { throw fail(.encodeFailed(file: url.path, message: ffmpegErrorMessage(result))) }
            try emit(packet)
        }
    }

    /// Packets are written one behind, so each gets the exact duration up to the next one.
    private func emit(_ packet: UnsafeMutablePointer<AVPacket>) throws(RecorderError) {
        guard let pending = resources.pending else { return }
        if pendingValid {
            pending.pointee.duration = max(1, packet.pointee.pts - pending.pointee.pts)
            pendingValid = false
            try write(pending)
        }
        av_packet_move_ref(pending, packet)
        pendingValid = true
    }

    private func write(_ packet: UnsafeMutablePointer<AVPacket>) throws(RecorderError) {
        guard let formatContext = resources.format else { return }
        endPts = packet.pointee.pts + packet.pointee.duration
        packet.pointee.stream_index = streamIndex
        av_packet_rescale_ts(packet, Self.encoderTimeBase, streamTimeBase)
        let result = av_interleaved_write_frame(formatContext, packet)
        av_packet_unref(packet)
        guard result >= 0 else { throw fail(writeError(result, step: "write a video frame")) }
        framesEncoded += 1
        unflushedPackets += 1
    }
}

/// Owns the FFmpeg objects of a recorder and frees them, also when `init` fails halfway.
private final class EncoderResources {
    var format: UnsafeMutablePointer<AVFormatContext>?
    var codec: UnsafeMutablePointer<AVCodecContext>?
    var frame: UnsafeMutablePointer<AVFrame>?
    var packet: UnsafeMutablePointer<AVPacket>?
    var pending: UnsafeMutablePointer<AVPacket>?
    /// A shell whose planes point into a `FrameSpool` (no buffers of its own).
    var spoolFrame: UnsafeMutablePointer<AVFrame>?

    @discardableResult
    func closeFile() -> Int32 {
        guard let format, format.pointee.pb != nil,
              format.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 else { return 0 }
        return avio_closep(&format.pointee.pb)
    }

    func releaseCodec() {
        avcodec_free_context(&codec)
        av_frame_free(&frame)
        av_packet_free(&packet)
        av_packet_free(&pending)
        av_frame_free(&spoolFrame)
    }

    deinit {
        closeFile()
        avformat_free_context(format)
        releaseCodec()
    }
}
