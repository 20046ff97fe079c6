import CFFmpeg
import Foundation
import ShowreelGraphics

/// The encoder alone: libavcodec set up as every recording sets it up (`VideoEncoder.openCodec`),
/// fed pictures already converted to YUV, at the timestamps and keyframes a recording gives them
/// (`FrameTimeline`). No conversion while it encodes, no muxing, no file: packets are counted and
/// dropped. What a recorder could reach at best on this machine, which `make bench` measures the
/// recorder against; the conversion it skips is timed apart (`add`), so the bench can say where
/// the rest of the recorder's time goes.
package final class EncoderLimit {
    package let width: Int
    package let height: Int
    private let options: RecordingOptions
    private let converter: PixelConverter
    private var timeline: FrameTimeline
    /// Converted pictures, owned here, in the order they are encoded.
    private var pictures: [UnsafeMutablePointer<AVFrame>?] = []
    /// What the encoder is sent: a picture (index into `pictures`) at a stamp.
    private var sends: [(picture: Int, stamp: FrameTimeline.Stamp)] = []

    /// Pictures of a `width` x `height` screen, encoded at the size `options` give it.
    package init(width: Int, height: Int, options: RecordingOptions = RecordingOptions()) throws(RecorderError) {
        try options.validate()
        installFFmpegLogging()
        let output = options.outputSize(width: width, height: height)
        (self.width, self.height, self.options) = (output.width, output.height, options)
        converter = PixelConverter(threads: options.threads)
        timeline = FrameTimeline(minimumGap: 1, keyframeTicks: options.keyframeInterval.ticks(timescale: FrameTimeline.timescale))
    }

    deinit {
        for index in pictures.indices { av_frame_free(&pictures[index]) }
    }

    /// Converts `pixels` (BGRA at the video's size) with the recorder's converter and keeps the
    /// picture, stamped for `time` as a recording would stamp it. Returns how long the conversion
    /// alone took (into memory already touched, as a recorder's reused picture is), or nil when
    /// the pixels could not be converted.
    package func add(_ pixels: PixelBuffer, at time: Duration) throws(RecorderError) -> Duration? {
        guard let placement = timeline.place(time) else { return .zero }
        for stamp in placement.repeats where !pictures.isEmpty { sends.append((pictures.count - 1, stamp)) }
        guard let frame = av_frame_alloc() else { throw .outOfMemory("a video frame") }
        pictures.append(frame)
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        guard av_frame_get_buffer(frame, 0) >= 0, let buffer = frame.pointee.buf.0 else {
            throw .outOfMemory("a \(width)x\(height) video frame")
        }
        // Fresh memory faults its pages in on first write: not the conversion's cost.
        memset(buffer.pointee.data, 0, buffer.pointee.size)
        let started = ContinuousClock.now
        guard converter.convert(pixels, into: frame, colour: .videoRange601) else { return nil }
        let took = ContinuousClock.now - started
        sends.append((pictures.count - 1, placement.stamp))
        return took
    }

    /// Opens the encoder and encodes every picture kept, then flushes it: what a recording's
    /// encoder does and nothing else. Returns the packets and bytes it made.
    package func encodeAll() throws(RecorderError) -> (packets: Int, bytes: Int) {
        let encoder = try VideoEncoder.encoder(for: options)
        var codec: UnsafeMutablePointer<AVCodecContext>? = try VideoEncoder.openCodec(
            encoder, options: options, width: width, height: height, globalHeader: true)
        var packet = av_packet_alloc()
        defer {
            avcodec_free_context(&codec)
            av_packet_free(&packet)
        }
        guard let context = codec, let packet else { throw .outOfMemory("video packets") }
        var made = (packets: 0, bytes: 0)
        func drain() throws(RecorderError) {
            while true {
                let result = avcodec_receive_packet(context, packet)
                if result == showreel_averror_eagain() || result == showreel_averror_eof() { return }
                guard result >= 0 else { throw .encodeFailed(file: "(none)", message: ffmpegErrorMessage(result)) }
                made = (made.packets + 1, made.bytes + Int(packet.pointee.size))
                av_packet_unref(packet)
            }
        }
        for (index, stamp) in sends {
            guard let frame = pictures[index] else { continue }
            frame.pointee.pts = stamp.pts
            frame.pointee.pict_type = stamp.keyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
            let result = avcodec_send_frame(context, frame)
            guard result >= 0 else { throw .encodeFailed(file: "(none)", message: ffmpegErrorMessage(result)) }
            try drain()
        }
        _ = avcodec_send_frame(context, nil)
        try drain()
        return made
    }
}
