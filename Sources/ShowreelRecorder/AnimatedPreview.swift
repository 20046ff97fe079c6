import CFFmpeg
import Foundation
import Logging
import ShowreelRender

/// What a preview holds.
package struct PreviewSummary: Sendable, Equatable {
    package var url: URL
    package var width: Int
    package var height: Int
    /// Pictures in the file: a screen that did not change between two ticks adds none.
    package var frames: Int
    package var bytes: Int
}

/// A small animated WebP of a video, for places that show images but not videos: a pull
/// request's comment, a CI job's summary. At most `maxWidth` pixels wide, sampled at
/// `framesPerSecond` (the screen as it was at each tick), looping. A video longer than
/// `maxSeconds` plays sped up to last that long: a preview is a glance, and its cost (and size)
/// stays bounded however long the recording ran.
///
/// The pictures on screen at each tick (`TickFrames`) are scaled when too wide; of each, only
/// the rectangle that changed since the one before is encoded (`PreviewEncoder`: libwebp's still
/// encoder, through FFmpeg, straight from YUV) and `AnimatedWebP` writes the animation; a tick
/// whose picture did not change is not encoded at all. A recording
/// made in this process samples its pictures as it encodes them (`PreviewSampler`); any other
/// video is decoded (`write(from:to:)`: only the pictures on screen at a tick are converted).
package enum AnimatedPreview {
    package static let fileExtension = "webp"
    package static let maxWidth = 480
    package static let framesPerSecond = 10
    package static let maxSeconds = 60.0
    /// Lossy quality of each changed rectangle (a whole first picture included): a 31 s flow's
    /// preview is about 0.4 MB at 85, well under the 2 MB a pull request's page can carry.
    package static let quality = 85.0

    /// Where the preview of `video` goes: beside it, `name.webp`.
    package static func url(for video: URL) -> URL { video.deletingPathExtension().appendingPathExtension(fileExtension) }

    /// Writes the preview of `video` beside it (`name.webp`) and returns where; nil, logged,
    /// when it cannot be made: a recording is whole without its preview.
    package static func make(for video: URL, logger: Logger = Logger(label: "showreel.preview")) -> URL? {
        let url = url(for: video)
        return make(at: url, logger: logger) { () throws(RecorderError) in try write(from: video, to: url) }
    }

    /// Runs `write`, which makes the preview at `url`, and logs what it made; nil when it made
    /// none (it returned nil, or failed: logged).
    static func make(at url: URL, logger: Logger, _ write: () throws(RecorderError) -> PreviewSummary?) -> URL? {
        let started = ContinuousClock.now
        do {
            guard let summary = try write() else { return nil }
            logger.debug(
                "preview written",
                metadata: [
                    "file": "\(url.path)", "bytes": "\(summary.bytes)",
                    "frames": "\(summary.frames)", "time": "\(ContinuousClock.now - started)",
                ])
            return url
        } catch {
            logger.warning("no preview: \(error)", metadata: ["file": "\(url.path)"])
            return nil
        }
    }

    /// The preview's size for a `width` x `height` video: at most `maxWidth` wide, even sides.
    static func size(width: Int, height: Int, maxWidth: Int) -> (width: Int, height: Int) {
        let previewWidth = min(width, maxWidth) & ~1
        return (previewWidth, max(2, Int((Double(height) * Double(previewWidth) / Double(width)).rounded()) & ~1))
    }

    /// The tick the preview ends at: a picture first on screen there never shows.
    static func endTick(duration: Double, ticksPerSecond: Double) -> Int64 {
        max(1, Int64((duration * ticksPerSecond).rounded()))
    }

    /// The preview of the video file `video`, decoded.
    package static func write(
        from video: URL, to url: URL, maxWidth: Int = maxWidth, framesPerSecond: Int = framesPerSecond,
        maxSeconds: Double = maxSeconds, quality: Double = quality
    ) throws(RecorderError) -> PreviewSummary {
        installFFmpegLogging()
        let info = try MediaProbe.probe(video)
        guard info.width > 0, info.height > 0 else { throw .noVideoStream(file: video.path) }
        let (width, height) = size(width: info.width, height: info.height, maxWidth: maxWidth)
        let encoder = try PreviewEncoder(width: width, height: height, framesPerSecond: framesPerSecond, quality: quality, file: url.path)

        // The video is sampled at `ticksPerSecond` and played at `framesPerSecond`: the same for a
        // short video, fewer samples (sped up) for one longer than `maxSeconds`.
        let ticksPerSecond = Double(framesPerSecond) * min(1, maxSeconds / max(info.duration, 1e-3))
        let endTick = endTick(duration: info.duration, ticksPerSecond: ticksPerSecond)
        var failure: RecorderError?
        // The decoder's YUV pictures are scaled straight into the encoder's: no BGRA in between.
        try FrameDecoder.forEachTickFrame(video, ticksPerSecond: ticksPerSecond) { frame, tick in
            guard tick < endTick || !encoder.hasPictures else { return false }
            do throws(RecorderError) {
                try encoder.add(frame, tick: tick)
                return true
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        return try encoder.finish(endTick: endTick, to: url)
    }
}

/// An animated preview made while a video is encoded, from the pictures its encoder is given
/// (`VideoEncoder`): nothing is decoded afterwards. Each picture is copied as it comes, until
/// the next says whether it is on screen at a tick (`TickFrames`); those are encoded as they
/// are known, so finishing the preview is writing it out. A recording that outlasts
/// `maxSeconds` stops sampling: its preview plays sped up, which only the decoding path makes.
/// Used on the encoder's thread while recording, then by whoever finishes the recording.
final class PreviewSampler: @unchecked Sendable {
    let width: Int
    let height: Int
    private let framesPerSecond: Int
    private let maxSeconds: Double
    private let quality: Double
    private var ticks: TickFrames?
    private var encoder: PreviewEncoder?
    private var failure: RecorderError?
    /// The recording outlasted `maxSeconds`: no preview is made here.
    private var tooLong = false

    /// A sampler for a `videoWidth` x `videoHeight` recording.
    init(
        videoWidth: Int, videoHeight: Int, maxWidth: Int = AnimatedPreview.maxWidth,
        framesPerSecond: Int = AnimatedPreview.framesPerSecond, maxSeconds: Double = AnimatedPreview.maxSeconds,
        quality: Double = AnimatedPreview.quality
    ) {
        (width, height) = AnimatedPreview.size(width: videoWidth, height: videoHeight, maxWidth: maxWidth)
        self.framesPerSecond = framesPerSecond
        self.maxSeconds = maxSeconds
        self.quality = quality
    }

    /// Takes the picture the video shows from `pts` (`FrameTimeline` ticks since its first frame)
    /// on; `picture` is only lent. A picture encoded again (a hold split up) is not taken.
    /// `changedRows` (luma rows; nil: unknown) say where it differs from the picture added before.
    func add(_ picture: UnsafeMutablePointer<AVFrame>, pts: Int64, changedRows: [Range<Int>]? = nil) {
        guard failure == nil, !tooLong else { return }
        let time = Double(pts) / Double(FrameTimeline.timescale)
        guard time <= maxSeconds else {
            // Sped up, a preview samples other ticks: the decoding path makes it.
            (tooLong, ticks, encoder) = (true, nil, nil)
            return
        }
        do throws(RecorderError) {
            if ticks == nil { ticks = try TickFrames(ticksPerSecond: Double(framesPerSecond), copies: true) }
            _ = ticks?.offer(picture, at: time, changedRows: changedRows) { held, tick in encode(held, tick: tick) }
        } catch {
            failure = error
        }
    }

    private func encode(_ picture: UnsafeMutablePointer<AVFrame>, tick: Int64) -> Bool {
        do throws(RecorderError) {
            if encoder == nil {
                encoder = try PreviewEncoder(
                    width: width, height: height, framesPerSecond: framesPerSecond, quality: quality, file: "a preview")
            }
            try encoder?.add(picture, tick: tick)
            return true
        } catch {
            failure = error
            return false
        }
    }

    /// Writes the preview of a video of `duration` to `url`; nil when this recording's preview
    /// must be decoded from its file instead (longer than `maxSeconds`, or no picture taken).
    func write(to url: URL, duration: Duration) throws(RecorderError) -> PreviewSummary? {
        if let failure { throw failure }
        let seconds = duration.seconds
        guard !tooLong, seconds <= maxSeconds, let ticks else { return nil }
        let endTick = AnimatedPreview.endTick(duration: seconds, ticksPerSecond: Double(framesPerSecond))
        // The last picture, as the decoding path takes it: unless it begins after the end.
        _ = ticks.deliver { held, tick in
            guard tick < endTick || !(encoder?.hasPictures ?? false) else { return false }
            return encode(held, tick: tick)
        }
        if let failure { throw failure }
        guard let encoder else { return nil }
        return try encoder.finish(endTick: endTick, to: url)
    }
}

/// Pictures a tick each, and the animated WebP they make. A picture waits (staged) until the
/// next comes or the preview ends, since only the end says whether the last one shows. Only
/// the rectangle that changed since the picture before is encoded (libwebp, through FFmpeg's
/// still `libwebp` encoder, straight from YUV), as a frame that replaces that part of the
/// canvas; a picture that changed nothing is not encoded at all.
final class PreviewEncoder {
    let width: Int
    let height: Int
    private let codec: UnsafePointer<AVCodec>
    /// The picture staged; then the one last sent (the two swap as pictures are sent).
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var sent: UnsafeMutablePointer<AVFrame>?
    /// A view of a rectangle of `frame` (cropped references to its buffers).
    private var part: UnsafeMutablePointer<AVFrame>?
    private let converter = PixelConverter()
    private let file: String
    private let framesPerSecond: Int
    private let quality: Double
    private var staged: (tick: Int64, rect: PixelRect)?
    private var written: [(tick: Int64, frame: AnimatedWebP.FrameToWrite)] = []

    /// Pictures sent to the animation.
    var picturesAdded: Int { written.count }
    /// Whether a picture was sent or waits to be.
    var hasPictures: Bool { !written.isEmpty || staged != nil }

    init(width: Int, height: Int, framesPerSecond: Int, quality: Double, file: String) throws(RecorderError) {
        self.width = width
        self.height = height
        self.file = file
        self.framesPerSecond = framesPerSecond
        self.quality = quality
        guard let codec = avcodec_find_encoder_by_name("libwebp") else {
            throw .imageEncodingFailed(format: "webp", message: "FFmpeg has no libwebp encoder (libavcodec built without libwebp)")
        }
        self.codec = codec
        guard let frame = av_frame_alloc(), let sent = av_frame_alloc(), let part = av_frame_alloc() else {
            throw .outOfMemory("a preview encoder")
        }
        (self.frame, self.sent, self.part) = (frame, sent, part)
        for picture in [frame, sent] {
            picture.pointee.format = AV_PIX_FMT_YUV420P.rawValue
            picture.pointee.width = Int32(width)
            picture.pointee.height = Int32(height)
            guard av_frame_get_buffer(picture, 0) >= 0 else { throw .outOfMemory("a preview picture") }
        }
    }

    deinit {
        av_frame_free(&frame)
        av_frame_free(&sent)
        av_frame_free(&part)
    }

    /// Adds the picture shown from `tick` on (scaled to the preview's size), after sending the
    /// one staged before; it is staged unless it is the picture sent last.
    func add(_ picture: UnsafeMutablePointer<AVFrame>, tick: Int64) throws(RecorderError) {
        if let staged { try send(staged) }
        guard let frame, let sent else { return }
        let d = picture.pointee, f = frame.pointee
        let source = ColourDetails(
            matrix: d.colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_ITU601,
            fullRange: d.color_range == AVCOL_RANGE_JPEG)
        // A recording's own pictures (or a video's as it was recorded): copied as they are.
        let copies = source == .videoRange601 && AVPixelFormat(d.format) == AV_PIX_FMT_YUV420P && d.width == f.width && d.height == f.height
        let ok =
            copies
            ? av_frame_copy(frame, picture) >= 0
            : converter.convert(
                source: (
                    [UnsafePointer(d.data.0), UnsafePointer(d.data.1), UnsafePointer(d.data.2), UnsafePointer(d.data.3)],
                    [d.linesize.0, d.linesize.1, d.linesize.2, d.linesize.3], d.width, d.height, AVPixelFormat(d.format)
                ),
                sourceColour: source,
                destination: (
                    [f.data.0, f.data.1, f.data.2, nil], [f.linesize.0, f.linesize.1, f.linesize.2, 0], f.width, f.height,
                    AV_PIX_FMT_YUV420P
                ),
                destinationColour: .videoRange601)
        guard ok else { throw .imageEncodingFailed(format: "webp", message: "could not scale a picture for \(file)") }
        let whole = PixelRect(x: 0, y: 0, width: width, height: height)
        staged = (written.isEmpty ? whole : PixelRect.changed(between: frame, and: sent)).map { (tick, $0) }
    }

    /// Encodes the staged picture's changed rectangle as the animation's next frame; the
    /// picture is then the one sent last.
    private func send(_ picture: (tick: Int64, rect: PixelRect)) throws(RecorderError) {
        staged = nil
        guard let frame, let part else { return }
        let rect = picture.rect
        av_frame_unref(part)
        guard av_frame_ref(part, frame) >= 0 else { throw .outOfMemory("a preview picture") }
        part.pointee.crop_left = rect.x
        part.pointee.crop_top = rect.y
        part.pointee.crop_right = width - rect.x - rect.width
        part.pointee.crop_bottom = height - rect.y - rect.height
        guard av_frame_apply_cropping(part, Int32(AV_FRAME_CROP_UNALIGNED)) >= 0 else {
            throw .imageEncodingFailed(format: "webp", message: "could not crop a picture for \(file)")
        }
        let still = try ImageEncoder.encode(part, with: codec, format: "webp") { context in
            // libwebp's method: 0 is fastest, 6 smallest. A changed rectangle is small and the
            // preview a glance: 0 costs a fifth less than 1 for a few percent more bytes.
            context.pointee.compression_level = 0
            av_opt_set_double(context.pointee.priv_data, "quality", quality, 0)
        }
        av_frame_unref(part)
        let chunks = AnimatedWebP.pictureChunks(ofStill: still)
        guard !chunks.isEmpty else { throw .imageEncodingFailed(format: "webp", message: "libwebp made no picture for \(file)") }
        written.append(
            (
                picture.tick,
                AnimatedWebP.FrameToWrite(x: rect.x, y: rect.y, width: rect.width, height: rect.height, duration: 0, chunks: chunks)
            ))
        (self.frame, sent) = (sent, frame)
    }

    /// Ends the animation at `endTick` and writes the file. The staged picture is sent unless
    /// it begins at or after the end (a first picture is always sent, within the end).
    func finish(endTick: Int64, to url: URL) throws(RecorderError) -> PreviewSummary {
        if let staged, staged.tick < endTick || written.isEmpty { try send((min(staged.tick, endTick - 1), staged.rect)) }
        guard !written.isEmpty else { throw .noFrames(file: url.path) }
        // Each picture lasts until the next; the last until the video ends.
        let ends = written.dropFirst().map(\.tick) + [endTick]
        let frames = zip(written, ends).map { picture, end in
            var frame = picture.frame
            frame.duration = Int(end - picture.tick) * 1000 / framesPerSecond
            return frame
        }
        let bytes = try AnimatedWebP.write(width: width, height: height, frames: frames, to: url)
        return PreviewSummary(url: url, width: width, height: height, frames: frames.count, bytes: bytes)
    }
}

/// A rectangle of a picture, in pixels, at even coordinates (where YUV 4:2:0's chroma rows and
/// columns begin).
struct PixelRect: Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    /// The smallest such rectangle around every pixel whose Y, U or V differs between two YUV
    /// 4:2:0 pictures of the same size; nil when none does.
    static func changed(between a: UnsafeMutablePointer<AVFrame>, and b: UnsafeMutablePointer<AVFrame>) -> PixelRect? {
        let a = a.pointee, b = b.pointee
        let width = Int(a.width), height = Int(a.height)
        var (top, bottom, left, right) = (Int.max, -1, Int.max, -1)
        // Each plane's rows, and how many of the picture's rows and columns one of its bytes covers.
        for (p, pStride, q, qStride, w, h, scale) in [
            (a.data.0, a.linesize.0, b.data.0, b.linesize.0, width, height, 1),
            (a.data.1, a.linesize.1, b.data.1, b.linesize.1, (width + 1) / 2, (height + 1) / 2, 2),
            (a.data.2, a.linesize.2, b.data.2, b.linesize.2, (width + 1) / 2, (height + 1) / 2, 2),
        ] {
            guard let p, let q else { continue }
            for row in 0..<h {
                let x = p + row * Int(pStride), y = q + row * Int(qStride)
                guard memcmp(x, y, w) != 0 else { continue }
                top = min(top, row * scale)
                bottom = max(bottom, min(height, (row + 1) * scale) - 1)
                // Only what widens the rectangle is looked at: the bytes left of it, right of it.
                let before = left == Int.max ? w : min(w, (left + scale - 1) / scale)
                if let first = difference(x, y, in: 0..<before) { left = min(left, first * scale) }
                let after = max(0, (right + 1) / scale)
                if after < w, let last = difference(x, y, in: after..<w, fromEnd: true) {
                    right = max(right, min(width, (last + 1) * scale) - 1)
                }
            }
        }
        guard bottom >= 0 else { return nil }
        let x = left & ~1, y = top & ~1
        return PixelRect(x: x, y: y, width: right + 1 - x, height: bottom + 1 - y)
    }

    /// Runs this short or shorter are compared byte by byte; longer ones are halved with
    /// `memcmp`, which stays fast in the debug builds tests record in (a Swift loop over each
    /// byte of every changed row was a fifth of a preview's own work there).
    private static let shortRun = 16

    /// The first index of `range` where `x` and `y` differ (the last, `fromEnd`), if any.
    static func difference(_ x: UnsafePointer<UInt8>, _ y: UnsafePointer<UInt8>, in range: Range<Int>, fromEnd: Bool = false) -> Int? {
        guard !range.isEmpty, memcmp(x + range.lowerBound, y + range.lowerBound, range.count) != 0 else { return nil }
        // The difference sought lies in lower..<upper: none before lower (from the end: none from upper on).
        var (lower, upper) = (range.lowerBound, range.upperBound)
        while upper - lower > shortRun {
            let middle = (lower + upper) / 2
            let (start, end) = fromEnd ? (middle, upper) : (lower, middle)
            let same = memcmp(x + start, y + start, end - start) == 0
            if same == fromEnd { upper = middle } else { lower = middle }
        }
        let rest = lower..<upper
        return fromEnd ? rest.reversed().first { x[$0] != y[$0] } : rest.first { x[$0] != y[$0] }
    }
}
