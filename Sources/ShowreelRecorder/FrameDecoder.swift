import CFFmpeg
import Foundation
import ShowreelRender

/// A decoded video frame as BGRA pixels.
package struct DecodedFrame: Sendable {
    package var pixels: PixelBuffer
    /// Presentation time in seconds.
    package var time: Double
    package var isKeyframe: Bool
}

/// Decodes the frames of a video (or image) file to BGRA pixel buffers.
package enum FrameDecoder {
    /// Decodes the video frames of `url` in presentation order, up to `limit` frames.
    /// A truncated file gives the frames that could be decoded.
    package static func decodeFrames(_ url: URL, limit: Int? = nil) throws(RecorderError) -> [DecodedFrame] {
        var frames: [DecodedFrame] = []
        let maximum = limit ?? Int.max
        try forEachFrame(url) { frame in
            if frames.count < maximum { frames.append(frame) }
            return frames.count < maximum
        }
        return frames.sorted { $0.time < $1.time }
    }

    /// Decodes the video frames of `url` one at a time, in the decoder's (presentation) order,
    /// handing each to `body` until it returns false: a long video never sits in memory whole.
    package static func forEachFrame(_ url: URL, _ body: (DecodedFrame) -> Bool) throws(RecorderError) {
        let converter = PixelConverter(precise: true)
        try forEachDecoded(url) { frame, time in
            guard let pixels = converter.bgraBuffer(from: frame) else { return true }
            return body(DecodedFrame(pixels: pixels, time: time, isKeyframe: frame.pointee.key_frame != 0))
        }
    }

    /// The picture on screen at each tick of a `ticksPerSecond` clock (tick k is k / rate
    /// seconds), as the video shows it: the last frame at or before the tick. `body` gets each
    /// such frame (lent: the decoder's own, unconverted) with the first tick it is on screen at,
    /// until it returns false; a frame replaced within a tick is skipped (never converted). The
    /// last frame comes even when it begins after the video's last tick.
    static func forEachTickFrame(
        _ url: URL, ticksPerSecond: Double,
        _ body: (UnsafeMutablePointer<AVFrame>, _ tick: Int64) -> Bool
    ) throws(RecorderError) {
        let ticks = try TickFrames(ticksPerSecond: ticksPerSecond, copies: false)
        var wantsMore = true
        try forEachDecoded(url) { frame, time in
            wantsMore = ticks.offer(frame, at: time, body)
            return wantsMore
        }
        if wantsMore { _ = ticks.deliver(body) }
    }

    /// Decodes the video frames of `url`, handing each decoded frame and its time in seconds
    /// to `body` (the frame is only lent) until it returns false. A truncated file gives the
    /// frames that could be decoded.
    private static func forEachDecoded(_ url: URL, _ body: (UnsafeMutablePointer<AVFrame>, Double) -> Bool) throws(RecorderError) {
        let input = try MediaInput(url: url)
        let path = url.path
        let stream = input.stream
        let parameters: UnsafeMutablePointer<AVCodecParameters> = stream.pointee.codecpar
        guard let decoder = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw .decoderUnavailable(file: path, codec: String(cString: avcodec_get_name(parameters.pointee.codec_id)))
        }
        var codecContext = avcodec_alloc_context3(decoder)
        guard let context = codecContext else { throw .outOfMemory("a decoder") }
        defer { avcodec_free_context(&codecContext) }
        var result = avcodec_parameters_to_context(context, parameters)
        guard result >= 0 else { throw .cannotOpenMedia(file: path, message: ffmpegErrorMessage(result)) }
        context.pointee.pkt_timebase = stream.pointee.time_base
        result = avcodec_open2(context, decoder, nil)
        guard result >= 0 else { throw .cannotOpenMedia(file: path, message: ffmpegErrorMessage(result)) }

        var packet = av_packet_alloc()
        var frame = av_frame_alloc()
        defer {
            av_packet_free(&packet)
            av_frame_free(&frame)
        }
        guard let packet, let frame else { throw .outOfMemory("a packet and a frame") }

        let timeBase = av_q2d(stream.pointee.time_base)
        let nopts = showreel_nopts_value()
        var count = 0
        var wantsMore = true

        func receive() {
            while wantsMore {
                let r = avcodec_receive_frame(context, frame)
                guard r >= 0 else { return }
                defer { av_frame_unref(frame) }
                let pts = frame.pointee.best_effort_timestamp
                let time = pts == nopts ? Double(count) : Double(pts) * timeBase
                count += 1
                wantsMore = body(frame, time)
            }
        }

        while wantsMore {
            result = av_read_frame(input.format, packet)
            if result < 0 { break }  // end of file, or a truncated file: decode what we have
            if packet.pointee.stream_index == stream.pointee.index {
                // A damaged packet is skipped; the decoder recovers at the next keyframe.
                _ = avcodec_send_packet(context, packet)
                receive()
            }
            av_packet_unref(packet)
        }
        if wantsMore {
            _ = avcodec_send_packet(context, nil)
            receive()
        }
    }
}

/// Which pictures of a video are on screen at the ticks of a `ticksPerSecond` clock (tick k is
/// k / rate seconds): the last picture at or before each tick. Pictures are offered in order;
/// each is held until the next says whether it shows at a tick of its own (a picture replaced
/// within a tick is skipped), then delivered with the first tick it is on screen at. Decoding
/// a video (`FrameDecoder.forEachTickFrame`) and recording one (`PreviewSampler`) both pick a
/// preview's pictures through it.
final class TickFrames {
    let ticksPerSecond: Double
    /// Whether the held picture is a copy (the offered one is reused by its owner: an encoder's
    /// picture) or a reference (a decoder's, which hands out a new frame each time).
    let copies: Bool
    private var held: UnsafeMutablePointer<AVFrame>?
    /// The first tick the held picture shows at; nil when none is held.
    private(set) var heldTick: Int64?
    /// Whether the held copy is of the picture offered last, so that the next one, where it
    /// says which rows changed, needs only those copied.
    private var holdsLastOffered = false

    init(ticksPerSecond: Double, copies: Bool) throws(RecorderError) {
        guard let held = av_frame_alloc() else { throw .outOfMemory("a frame") }
        self.held = held
        self.ticksPerSecond = ticksPerSecond
        self.copies = copies
    }

    deinit { av_frame_free(&held) }

    /// The first tick at or after `time` (seconds).
    func tick(at time: Double) -> Int64 { Int64((time * ticksPerSecond - 1e-9).rounded(.up)) }

    /// Offers the picture that shows from `time` (seconds) on: the held one is delivered first
    /// when a tick of its own comes before this one's, else replaced. `changedRows` (luma rows,
    /// even-aligned; nil: unknown) are where it differs from the picture offered before: a copy
    /// brings only those up to date. Returns what `deliver` returned (true when nothing was
    /// delivered): false asks for no more pictures, and this one is then not held.
    func offer(
        _ frame: UnsafeMutablePointer<AVFrame>, at time: Double, changedRows: [Range<Int>]? = nil,
        _ deliver: (UnsafeMutablePointer<AVFrame>, Int64) -> Bool
    ) -> Bool {
        guard let held else { return false }
        var tick = tick(at: time)
        if let heldTick {
            if heldTick < tick {
                guard self.deliver(deliver) else {
                    holdsLastOffered = false
                    return false
                }
            } else {
                tick = heldTick
            }
        }
        let isHeld = hold(frame, in: held, changedRows: holdsLastOffered ? changedRows : nil)
        holdsLastOffered = copies && isHeld
        guard isHeld else {
            heldTick = nil
            return true
        }
        heldTick = tick
        return true
    }

    /// Delivers the held picture, if any, with its tick; returns what `deliver` returned.
    func deliver(_ deliver: (UnsafeMutablePointer<AVFrame>, Int64) -> Bool) -> Bool {
        guard let held, let tick = heldTick else { return true }
        heldTick = nil
        defer { if !copies { av_frame_unref(held) } }
        return deliver(held, tick)
    }

    private func hold(
        _ frame: UnsafeMutablePointer<AVFrame>, in held: UnsafeMutablePointer<AVFrame>, changedRows: [Range<Int>]?
    ) -> Bool {
        guard copies else {
            av_frame_unref(held)
            return av_frame_ref(held, frame) >= 0
        }
        // The held picture's buffer is reused while the pictures keep their size and format.
        let f = frame.pointee, h = held.pointee
        if h.data.0 == nil || h.width != f.width || h.height != f.height || h.format != f.format {
            av_frame_unref(held)
            held.pointee.format = f.format
            held.pointee.width = f.width
            held.pointee.height = f.height
            guard av_frame_get_buffer(held, 0) >= 0 else { return false }
        } else if let changedRows, AVPixelFormat(f.format) == AV_PIX_FMT_YUV420P {
            // An encoder's picture changes where its frame did: a copy of every picture it
            // encodes need not be whole.
            for rows in changedRows {
                let lower = max(0, rows.lowerBound) & ~1, upper = min(Int(f.height), rows.upperBound)
                guard lower < upper else { continue }
                copyRows(lower..<upper, plane: 0, of: frame, to: held, width: Int(f.width))
                let chroma = lower / 2..<(upper + 1) / 2
                copyRows(chroma, plane: 1, of: frame, to: held, width: (Int(f.width) + 1) / 2)
                copyRows(chroma, plane: 2, of: frame, to: held, width: (Int(f.width) + 1) / 2)
            }
            return av_frame_copy_props(held, frame) >= 0
        }
        return av_frame_copy(held, frame) >= 0 && av_frame_copy_props(held, frame) >= 0
    }

    private func copyRows(
        _ rows: Range<Int>, plane: Int, of frame: UnsafeMutablePointer<AVFrame>, to held: UnsafeMutablePointer<AVFrame>, width: Int
    ) {
        func pointer(_ picture: AVFrame) -> (UnsafeMutablePointer<UInt8>?, Int32) {
            switch plane {
            case 0: (picture.data.0, picture.linesize.0)
            case 1: (picture.data.1, picture.linesize.1)
            default: (picture.data.2, picture.linesize.2)
            }
        }
        let ((source, sourceStride), (target, targetStride)) = (pointer(frame.pointee), pointer(held.pointee))
        guard let source, let target else { return }
        av_image_copy_plane(
            target + rows.lowerBound * Int(targetStride), targetStride, source + rows.lowerBound * Int(sourceStride), sourceStride,
            Int32(width), Int32(rows.count))
    }
}
