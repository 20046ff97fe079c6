import CFFmpeg
import Foundation

/// A preview's sound as frames for the AAC encoder (planar float, stereo, 48 kHz): silence, or
/// an audio file decoded and resampled, then silence once the file ends (App Store Connect
/// wants an audio track; a silent one is fine).
final class AppStorePreviewAudio {
    private(set) var samplesSent: Int64 = 0
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var input: UnsafeMutablePointer<AVFormatContext>?
    private var decoder: UnsafeMutablePointer<AVCodecContext>?
    private var resampler: OpaquePointer?
    private var fifo: OpaquePointer?
    private var streamIndex: Int32 = -1
    private var decoded: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var inputEnded = true
    private let channels = Int32(AppStorePreviewRules.audioChannels)
    private let rate = Int32(AppStorePreviewRules.audioSampleRate)

    /// Silence, or the sound of `file` (its first audio stream).
    init(file: URL?) throws(RecorderError) {
        guard let file else { return }
        installFFmpegLogging()
        let path = file.path
        let context = try MediaInput.open(path)
        input = context
        var result = avformat_find_stream_info(context, nil)
        guard result >= 0 else { throw .cannotOpenMedia(file: path, message: ffmpegErrorMessage(result)) }
        streamIndex = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard streamIndex >= 0, let stream = context.pointee.streams[Int(streamIndex)] else {
            throw .cannotOpenMedia(file: path, message: "it has no audio stream")
        }
        let parameters = stream.pointee.codecpar!
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id), let decoder = avcodec_alloc_context3(codec) else {
            throw .decoderUnavailable(file: path, codec: String(cString: avcodec_get_name(parameters.pointee.codec_id)))
        }
        self.decoder = decoder
        avcodec_parameters_to_context(decoder, parameters)
        result = avcodec_open2(decoder, codec, nil)
        guard result >= 0 else { throw .cannotOpenMedia(file: path, message: ffmpegErrorMessage(result)) }
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, channels)
        var swr: OpaquePointer?
        result = swr_alloc_set_opts2(
            &swr, &layout, AV_SAMPLE_FMT_FLTP, rate,
            &decoder.pointee.ch_layout, decoder.pointee.sample_fmt, decoder.pointee.sample_rate, 0, nil)
        guard result >= 0, let swr, swr_init(swr) >= 0 else {
            throw .cannotOpenMedia(file: path, message: "its sound cannot be converted to 48 kHz stereo")
        }
        resampler = swr
        fifo = av_audio_fifo_alloc(AV_SAMPLE_FMT_FLTP, channels, rate)
        decoded = av_frame_alloc()
        packet = av_packet_alloc()
        guard fifo != nil, decoded != nil, packet != nil else { throw .outOfMemory("audio buffers") }
        inputEnded = false
    }

    /// The next `samples` samples, stamped in samples (the encoder's time base); lent until
    /// the next call.
    func nextFrame(samples: Int) throws(RecorderError) -> UnsafeMutablePointer<AVFrame> {
        let count = Int32(max(samples, 1))
        if frame == nil || frame!.pointee.nb_samples != count {
            av_frame_free(&frame)
            guard let made = av_frame_alloc() else { throw .outOfMemory("an audio frame") }
            made.pointee.nb_samples = count
            made.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
            made.pointee.sample_rate = rate
            av_channel_layout_default(&made.pointee.ch_layout, channels)
            guard av_frame_get_buffer(made, 0) >= 0 else { throw .outOfMemory("an audio frame") }
            frame = made
        }
        let frame = frame!
        guard av_frame_make_writable(frame) >= 0 else { throw .outOfMemory("a writable audio frame") }
        fill(until: count)
        let planes = withUnsafeMutablePointer(to: &frame.pointee.data) {
            $0.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) { $0 }
        }
        let available = fifo.map { min(av_audio_fifo_size($0), count) } ?? 0
        if let fifo, available > 0 { av_audio_fifo_read(fifo, planes, available) }
        if available < count {
            let silence = withUnsafeMutablePointer(to: &frame.pointee.data) {
                $0.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { $0 }
            }
            av_samples_set_silence(silence, available, count - available, channels, AV_SAMPLE_FMT_FLTP)
        }
        frame.pointee.pts = samplesSent
        samplesSent += Int64(count)
        return frame
    }

    /// Decodes the file until the FIFO holds `count` samples or the file ends.
    private func fill(until count: Int32) {
        guard let fifo, let input, let decoder, let decoded, let packet, let resampler else { return }
        var flushing = false
        while !inputEnded, av_audio_fifo_size(fifo) < count {
            let received = avcodec_receive_frame(decoder, decoded)
            if received >= 0 {
                convert(decoded, with: resampler, into: fifo)
                av_frame_unref(decoded)
                continue
            }
            // EOF, or nothing more to feed the decoder: the file is done.
            if received != showreel_averror_eagain() || flushing {
                inputEnded = true
                return
            }
            if av_read_frame(input, packet) < 0 {
                avcodec_send_packet(decoder, nil)
                flushing = true
                continue
            }
            if packet.pointee.stream_index == streamIndex { avcodec_send_packet(decoder, packet) }
            av_packet_unref(packet)
        }
    }

    private func convert(_ decoded: UnsafeMutablePointer<AVFrame>, with resampler: OpaquePointer, into fifo: OpaquePointer) {
        let room = swr_get_out_samples(resampler, decoded.pointee.nb_samples)
        var planes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?
        guard room > 0, av_samples_alloc_array_and_samples(&planes, nil, channels, room, AV_SAMPLE_FMT_FLTP, 0) >= 0, let planes else {
            return
        }
        let source = withUnsafeMutablePointer(to: &decoded.pointee.data) {
            $0.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { $0 }
        }
        let converted = swr_convert(resampler, planes, room, source, decoded.pointee.nb_samples)
        if converted > 0 {
            planes.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: Int(channels)) {
                _ = av_audio_fifo_write(fifo, $0, converted)
            }
        }
        av_freep(planes)
        var array: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>? = planes
        av_freep(&array)
    }

    deinit {
        av_frame_free(&frame)
        av_frame_free(&decoded)
        av_packet_free(&packet)
        avcodec_free_context(&decoder)
        if let fifo { av_audio_fifo_free(fifo) }
        swr_free(&resampler)
        avformat_close_input(&input)
    }
}
