import CFFmpeg
import Foundation
import Logging
import ShowreelRender

/// What a preview holds.
package struct PreviewSummary: Sendable, Equatable {
    public var url: URL
    public var width: Int
    public var height: Int
    /// Pictures in the file: a screen that did not change between two ticks adds none.
    public var frames: Int
    public var bytes: Int
}

/// A small animated WebP of a video, for places that show images but not videos: a pull
/// request's comment, a CI job's summary. At most `maxWidth` pixels wide, sampled at
/// `framesPerSecond` (the screen as it was at each tick), looping. A video longer than
/// `maxSeconds` plays sped up to last that long: a preview is a glance, and its cost (and size)
/// stays bounded however long the recording ran.
///
/// The video is decoded (`FrameDecoder.forEachTickFrame`: only the pictures on screen at a tick
/// are used), each scaled when it is too wide, and encoded by libwebp's animation encoder
/// (FFmpeg's `libwebp_anim`), which stores only the part of each picture that changed; a tick
/// whose picture did not change is not encoded at all.
package enum AnimatedPreview {
    public static let fileExtension = "webp"

    /// Writes the preview of `video` beside it (`name.webp`) and returns where; nil, logged,
    /// when it cannot be made: a recording is whole without its preview.
    public static func make(for video: URL, logger: Logger = Logger(label: "showreel.preview")) -> URL? {
        let url = video.deletingPathExtension().appendingPathExtension(fileExtension)
        let started = ContinuousClock.now
        do {
            let summary = try write(from: video, to: url)
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

    /// `quality` 85: libwebp's animation encoder keeps pixels that changed less than a
    /// quality-dependent amount from the frame before, with no keyframes, so at 60 a screen left
    /// ghosts of earlier ones (a pushed screen's fields over the list it returned to); at 85 a
    /// 24 s flow's preview is under 1 MB and clean.
    public static func write(
        from video: URL, to url: URL, maxWidth: Int = 480, framesPerSecond: Int = 10,
        maxSeconds: Double = 60, quality: Double = 85
    ) throws(RecorderError) -> PreviewSummary {
        installFFmpegLogging()
        let info = try MediaProbe.probe(video)
        guard info.width > 0, info.height > 0 else { throw .noVideoStream(file: video.path) }
        let width = min(info.width, maxWidth) & ~1
        let height = max(2, Int((Double(info.height) * Double(width) / Double(info.width)).rounded()) & ~1)
        let encoder = try PreviewEncoder(width: width, height: height, framesPerSecond: framesPerSecond, quality: quality, file: url.path)

        // The video is sampled at `ticksPerSecond` and played at `framesPerSecond`: the same for a
        // short video, fewer samples (sped up) for one longer than `maxSeconds`.
        let ticksPerSecond = Double(framesPerSecond) * min(1, maxSeconds / max(info.duration, 1e-3))
        // Ticks 0 ..< endTick fall inside the video; a frame first on screen at endTick never shows.
        let endTick = max(1, Int64((info.duration * ticksPerSecond).rounded()))
        var failure: RecorderError?
        // The decoder's YUV pictures are scaled straight into the encoder's: no BGRA in between.
        try FrameDecoder.forEachTickFrame(video, ticksPerSecond: ticksPerSecond) { frame, tick in
            guard tick < endTick || encoder.picturesAdded == 0 else { return false }
            do throws(RecorderError) {
                try encoder.add(frame, tick: min(tick, endTick - 1))
                return true
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        // The last picture stays until the video ends.
        let bytes = try encoder.finish(endTick: endTick, to: url)
        return PreviewSummary(url: url, width: width, height: height, frames: encoder.picturesAdded, bytes: bytes)
    }
}

/// libwebp_anim fed pictures, a tick each, and the file it makes.
private final class PreviewEncoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private let converter = PixelConverter()
    private let file: String
    private let framesPerSecond: Int
    private var lastPicture: [UInt8]?
    private var lastTick: Int64 = -1
    private(set) var picturesAdded = 0
    private var output = Data()

    init(width: Int, height: Int, framesPerSecond: Int, quality: Double, file: String) throws(RecorderError) {
        self.file = file
        self.framesPerSecond = framesPerSecond
        guard let codec = avcodec_find_encoder_by_name("libwebp_anim") else {
            throw .imageEncodingFailed(format: "webp", message: "FFmpeg has no libwebp_anim encoder (libavcodec built without libwebp)")
        }
        guard let context = avcodec_alloc_context3(codec), let frame = av_frame_alloc() else { throw .outOfMemory("a preview encoder") }
        self.context = context
        self.frame = frame
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = AVRational(num: 1, den: Int32(framesPerSecond))
        context.pointee.framerate = AVRational(num: Int32(framesPerSecond), den: 1)
        // libwebp's method: 0 is fastest, 6 smallest; 1 costs a third of the default's time.
        context.pointee.compression_level = 1
        av_opt_set_double(context.pointee.priv_data, "quality", quality, 0)
        var result = avcodec_open2(context, codec, nil)
        guard result >= 0 else { throw .encoderOpenFailed(encoder: "libwebp_anim", message: ffmpegErrorMessage(result)) }
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        result = av_frame_get_buffer(frame, 0)
        guard result >= 0 else { throw .outOfMemory("a preview picture") }
    }

    deinit {
        avcodec_free_context(&context)
        av_frame_free(&frame)
    }

    /// Adds the picture shown from `tick` on (a decoded frame, scaled to the preview's size);
    /// skipped when it is the picture shown already.
    func add(_ decoded: UnsafeMutablePointer<AVFrame>, tick: Int64) throws(RecorderError) {
        guard let context, let frame else { return }
        guard av_frame_make_writable(frame) >= 0 else { throw .outOfMemory("a preview picture") }
        let d = decoded.pointee, f = frame.pointee
        let source = ColourDetails(
            matrix: d.colorspace == AVCOL_SPC_BT709 ? SWS_CS_ITU709 : SWS_CS_ITU601,
            fullRange: d.color_range == AVCOL_RANGE_JPEG)
        let ok = converter.convert(
            source: (
                [UnsafePointer(d.data.0), UnsafePointer(d.data.1), UnsafePointer(d.data.2), UnsafePointer(d.data.3)],
                [d.linesize.0, d.linesize.1, d.linesize.2, d.linesize.3], d.width, d.height, AVPixelFormat(d.format)
            ),
            sourceColour: source,
            destination: (
                [f.data.0, f.data.1, f.data.2, nil], [f.linesize.0, f.linesize.1, f.linesize.2, 0], f.width, f.height, AV_PIX_FMT_YUV420P
            ),
            destinationColour: .videoRange601)
        guard ok else { throw .imageEncodingFailed(format: "webp", message: "could not scale a picture for \(file)") }
        let picture = Self.planes(of: frame)
        if picture == lastPicture { return }
        lastPicture = picture
        frame.pointee.pts = tick
        let result = avcodec_send_frame(context, frame)
        guard result >= 0 else { throw .imageEncodingFailed(format: "webp", message: "\(file): \(ffmpegErrorMessage(result))") }
        lastTick = tick
        picturesAdded += 1
        try drain(flush: false)
    }

    /// The picture's Y, U and V rows, without the planes' padding.
    private static func planes(of frame: UnsafeMutablePointer<AVFrame>) -> [UInt8] {
        let f = frame.pointee
        let width = Int(f.width), height = Int(f.height)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 3 / 2)
        for (plane, stride, w, h) in [
            (f.data.0, f.linesize.0, width, height), (f.data.1, f.linesize.1, (width + 1) / 2, (height + 1) / 2),
            (f.data.2, f.linesize.2, (width + 1) / 2, (height + 1) / 2),
        ] {
            guard let plane else { continue }
            for row in 0..<h { bytes.append(contentsOf: UnsafeBufferPointer(start: plane + row * Int(stride), count: w)) }
        }
        return bytes
    }

    /// Ends the animation at `endTick` and writes the file; returns its size in bytes.
    func finish(endTick: Int64, to url: URL) throws(RecorderError) -> Int {
        try drain(flush: true)
        do { try output.write(to: url, options: .atomic) } catch {
            throw .writeFailed(file: url.path, message: error.localizedDescription)
        }
        // The encoder guesses how long the last picture lasts: it lasts until the video ends.
        try AnimatedWebP.setLastDuration(Int(endTick - lastTick) * 1000 / framesPerSecond, in: url)
        return output.count
    }

    private func drain(flush: Bool) throws(RecorderError) {
        guard let context else { return }
        if flush { avcodec_send_frame(context, nil) }
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let packet else { throw .outOfMemory("a packet") }
        while true {
            let result = avcodec_receive_packet(context, packet)
            if result == showreel_averror_eof() || result == showreel_averror_eagain() { return }
            guard result >= 0 else { throw .imageEncodingFailed(format: "webp", message: "\(file): \(ffmpegErrorMessage(result))") }
            // The animation comes out whole, as one packet: a complete WebP file.
            if let data = packet.pointee.data { output.append(data, count: Int(packet.pointee.size)) }
            av_packet_unref(packet)
        }
    }
}
