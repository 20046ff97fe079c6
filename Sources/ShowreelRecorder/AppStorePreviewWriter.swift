import CFFmpeg
import Foundation

/// Writes an app preview file: H.264 High at a constant 30 fps and a constant bit rate (x264's
/// CBR with filler, so even a still screen's video carries the 10-12 Mbps App Store Connect asks
/// for), an AAC stereo 48 kHz track beside it, and the `moov` atom at the front (`faststart`).
///
/// Pictures come in as decoded frames of any size and format; each is scaled to the class's
/// size once and sent for as many ticks (1/30 s) as it stays on screen.
final class AppStorePreviewWriter {
    private let path: String
    private let width: Int32
    private let height: Int32
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var video: UnsafeMutablePointer<AVCodecContext>?
    private var audio: UnsafeMutablePointer<AVCodecContext>?
    private var videoStream: UnsafeMutablePointer<AVStream>?
    private var audioStream: UnsafeMutablePointer<AVStream>?
    private var picture: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var scaler: OpaquePointer?
    private let sound: AppStorePreviewAudio
    /// Ticks sent so far: the next picture's pts.
    private(set) var ticks: Int64 = 0
    private var headerWritten = false

    /// The source's colour tags: scaling keeps its matrix, so the preview says the same.
    private let colour: ColourTags

    /// Opens `url` for a `previewClass` preview whose sound comes from `sound`.
    init(url: URL, previewClass: AppStorePreviewClass, colour: ColourTags, sound: AppStorePreviewAudio) throws(RecorderError) {
        self.colour = colour
        installFFmpegLogging()
        path = url.path
        width = Int32(previewClass.width)
        height = Int32(previewClass.height)
        self.sound = sound
        var context: UnsafeMutablePointer<AVFormatContext>?
        var result = avformat_alloc_output_context2(&context, nil, nil, path)
        guard result >= 0, let context else {
            throw .muxerFailed(file: path, step: "set up the muxer for \(url.pathExtension)", message: ffmpegErrorMessage(result))
        }
        format = context
        try openVideo(in: context)
        try openAudio(in: context)
        result = avio_open(&context.pointee.pb, path, AVIO_FLAG_WRITE)
        guard result >= 0 else { throw .cannotCreateFile(file: path, message: ffmpegErrorMessage(result)) }
        var options: OpaquePointer?
        av_dict_set(&options, "movflags", "+faststart", 0)
        result = avformat_write_header(context, &options)
        av_dict_free(&options)
        guard result >= 0 else { throw .muxerFailed(file: path, step: "write the header", message: ffmpegErrorMessage(result)) }
        headerWritten = true
        guard let frame = av_frame_alloc(), let packet = av_packet_alloc() else { throw .outOfMemory("a preview frame") }
        picture = frame
        self.packet = packet
        frame.pointee.width = width
        frame.pointee.height = height
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        guard av_frame_get_buffer(frame, 0) >= 0 else { throw .outOfMemory("a \(width)x\(height) frame") }
    }

    private func openVideo(in context: UnsafeMutablePointer<AVFormatContext>) throws(RecorderError) {
        guard let encoder = avcodec_find_encoder_by_name("libx264") else {
            throw .encoderUnavailable(codec: .h264, encoder: "libx264", package: VideoCodec.h264.debianPackage)
        }
        guard let stream = avformat_new_stream(context, nil), let codec = avcodec_alloc_context3(encoder) else {
            throw .outOfMemory("the video encoder")
        }
        videoStream = stream
        video = codec
        let rate = Int32(AppStorePreviewRules.frameRate)
        let bitRate = Int64(AppStorePreviewRules.targetBitRate)
        codec.pointee.width = width
        codec.pointee.height = height
        codec.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        codec.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        codec.pointee.time_base = AVRational(num: 1, den: rate)
        codec.pointee.framerate = AVRational(num: rate, den: 1)
        codec.pointee.gop_size = rate
        codec.pointee.bit_rate = bitRate
        codec.pointee.rc_max_rate = bitRate
        codec.pointee.rc_min_rate = bitRate
        codec.pointee.rc_buffer_size = Int32(bitRate)
        codec.pointee.color_range = AVCOL_RANGE_MPEG
        codec.pointee.colorspace = colour.space
        codec.pointee.color_primaries = colour.primaries
        codec.pointee.color_trc = colour.transfer
        if context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 { codec.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        var options: OpaquePointer?
        // The fastest preset, with CABAC and 8x8 transforms back on: what makes it High profile.
        // At 11 Mbps a screen recording loses nothing to the faster search.
        av_dict_set(&options, "preset", "ultrafast", 0)
        av_dict_set(&options, "profile", "high", 0)
        // CBR with filler data: the bit rate holds whatever the screen does.
        av_dict_set(&options, "x264-params", "cabac=1:8x8dct=1:deblock=1:nal-hrd=cbr:force-cfr=1", 0)
        let result = avcodec_open2(codec, encoder, &options)
        av_dict_free(&options)
        guard result >= 0 else { throw .encoderOpenFailed(encoder: "libx264", message: ffmpegErrorMessage(result)) }
        avcodec_parameters_from_context(stream.pointee.codecpar, codec)
        stream.pointee.time_base = codec.pointee.time_base
        stream.pointee.avg_frame_rate = codec.pointee.framerate
    }

    private func openAudio(in context: UnsafeMutablePointer<AVFormatContext>) throws(RecorderError) {
        guard let encoder = avcodec_find_encoder_by_name("aac") else {
            throw .encoderOpenFailed(encoder: "aac", message: "FFmpeg's native AAC encoder is missing from this libavcodec")
        }
        guard let stream = avformat_new_stream(context, nil), let codec = avcodec_alloc_context3(encoder) else {
            throw .outOfMemory("the audio encoder")
        }
        audioStream = stream
        audio = codec
        codec.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        codec.pointee.sample_rate = Int32(AppStorePreviewRules.audioSampleRate)
        av_channel_layout_default(&codec.pointee.ch_layout, Int32(AppStorePreviewRules.audioChannels))
        codec.pointee.bit_rate = 128_000
        codec.pointee.time_base = AVRational(num: 1, den: Int32(AppStorePreviewRules.audioSampleRate))
        if context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 { codec.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        let result = avcodec_open2(codec, encoder, nil)
        guard result >= 0 else { throw .encoderOpenFailed(encoder: "aac", message: ffmpegErrorMessage(result)) }
        avcodec_parameters_from_context(stream.pointee.codecpar, codec)
        stream.pointee.time_base = codec.pointee.time_base
    }

    /// Scales `source` (a decoded frame, only read) to the preview's size: the picture the
    /// next `send(ticks:)` sends.
    func setPicture(_ source: UnsafeMutablePointer<AVFrame>) throws(RecorderError) {
        guard let picture else { return }
        scaler = sws_getCachedContext(
            scaler, source.pointee.width, source.pointee.height, AVPixelFormat(source.pointee.format),
            width, height, AV_PIX_FMT_YUV420P, SWS_BICUBIC, nil, nil, nil)
        guard let scaler else { throw .invalidOption("cannot scale \(source.pointee.width)x\(source.pointee.height) frames") }
        guard av_frame_make_writable(picture) >= 0 else { throw .outOfMemory("a writable preview frame") }
        let sourceData = withUnsafePointer(to: &source.pointee.data) {
            $0.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { $0 }
        }
        let sourceLines = withUnsafePointer(to: &source.pointee.linesize) { $0.withMemoryRebound(to: Int32.self, capacity: 8) { $0 } }
        let targetData = withUnsafeMutablePointer(to: &picture.pointee.data) {
            $0.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { $0 }
        }
        let targetLines = withUnsafeMutablePointer(to: &picture.pointee.linesize) {
            $0.withMemoryRebound(to: Int32.self, capacity: 8) { $0 }
        }
        sws_scale(scaler, sourceData, sourceLines, 0, source.pointee.height, targetData, targetLines)
    }

    /// Sends the current picture for `count` more ticks, with the sound that goes with them.
    func send(ticks count: Int64) throws(RecorderError) {
        guard let picture, let video, count > 0 else { return }
        for _ in 0..<count {
            picture.pointee.pts = ticks
            ticks += 1
            let result = avcodec_send_frame(video, picture)
            guard result >= 0 else { throw .encodeFailed(file: path, message: ffmpegErrorMessage(result)) }
            try drain(video, into: videoStream)
            try sendSound(until: Double(ticks) / Double(AppStorePreviewRules.frameRate))
        }
    }

    /// Audio frames until the track reaches `seconds`.
    private func sendSound(until seconds: Double) throws(RecorderError) {
        guard let audio else { return }
        let target = Int64(seconds * Double(AppStorePreviewRules.audioSampleRate))
        while sound.samplesSent < target {
            let frame = try sound.nextFrame(samples: Int(audio.pointee.frame_size))
            let result = avcodec_send_frame(audio, frame)
            guard result >= 0 else { throw .encodeFailed(file: path, message: "audio: \(ffmpegErrorMessage(result))") }
            try drain(audio, into: audioStream)
        }
    }

    private func drain(_ codec: UnsafeMutablePointer<AVCodecContext>, into stream: UnsafeMutablePointer<AVStream>?) throws(RecorderError) {
        guard let packet, let format, let stream else { return }
        while true {
            let result = avcodec_receive_packet(codec, packet)
            if result == showreel_averror_eagain() || result == showreel_averror_eof() { return }
            guard result >= 0 else { throw .encodeFailed(file: path, message: ffmpegErrorMessage(result)) }
            av_packet_rescale_ts(packet, codec.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            let written = av_interleaved_write_frame(format, packet)
            guard written >= 0 else { throw .writeFailed(file: path, message: ffmpegErrorMessage(written)) }
        }
    }

    /// Flushes both encoders and writes the trailer (faststart moves `moov` to the front).
    func finish() throws(RecorderError) {
        guard let video, let audio, let format else { return }
        avcodec_send_frame(video, nil)
        try drain(video, into: videoStream)
        avcodec_send_frame(audio, nil)
        try drain(audio, into: audioStream)
        let result = av_write_trailer(format)
        guard result >= 0 else { throw .writeFailed(file: path, message: ffmpegErrorMessage(result)) }
        headerWritten = false
    }

    deinit {
        if let format {
            if headerWritten { av_write_trailer(format) }
            avio_closep(&format.pointee.pb)
            avformat_free_context(format)
        }
        avcodec_free_context(&video)
        avcodec_free_context(&audio)
        av_frame_free(&picture)
        av_packet_free(&packet)
        sws_freeContext(scaler)
    }
}

/// A video's colour matrix, primaries and transfer, BT.709's where the source leaves them unsaid.
struct ColourTags {
    var space = AVCOL_SPC_BT709
    var primaries = AVCOL_PRI_BT709
    var transfer = AVCOL_TRC_BT709

    init(of parameters: AVCodecParameters) {
        if parameters.color_space != AVCOL_SPC_UNSPECIFIED { space = parameters.color_space }
        if parameters.color_primaries != AVCOL_PRI_UNSPECIFIED { primaries = parameters.color_primaries }
        if parameters.color_trc != AVCOL_TRC_UNSPECIFIED { transfer = parameters.color_trc }
    }
}
