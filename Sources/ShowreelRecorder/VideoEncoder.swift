import CFFmpeg
import Foundation
import Logging
import ShowreelRender

/// The libav side of one recording: the encoder (libavcodec), the muxer and the file
/// (libavformat). It exists once the file's header is written; it takes pictures at the
/// timestamps a `FrameTimeline` gave them and writes each packet with its exact duration.
/// Unless its options keep all work on the recorder's thread (`threads` 1), pictures converted
/// here are encoded and written on an `EncodingThread` while the next is converted. Not
/// thread-safe: it belongs to one `VideoRecorder`.
final class VideoEncoder {
    /// A `.mov` track counts time in milliseconds, as QuickTime's own recordings count in small
    /// units: its media header keeps the track's length in 32 bits only up to 2^31 units, 6.6
    /// hours at 90 kHz (beyond, FFmpeg writes 64-bit lengths that it says QuickTime cannot
    /// play), 24.8 days in milliseconds. Frames are then at least a millisecond apart, so no two
    /// share one. An `.mp4` keeps 90 kHz (its 64-bit lengths are standard).
    static let movTrackTimescale: Int64 = 1000
    private static let timeBase = AVRational(num: 1, den: Int32(FrameTimeline.timescale))

    let url: URL
    let width: Int
    let height: Int
    /// Packets written to the file so far.
    var packetsWritten: Int {
        settled()
        return written.packets
    }
    /// Pictures sent to the encoder so far.
    private(set) var picturesSent = 0
    /// Where the video ends: the last packet written's time plus its duration, in ticks.
    var endPts: Int64 {
        settled()
        return written.endPts
    }
    /// What the encoding thread wrote; read here once it has settled.
    private var written = (packets: 0, endPts: Int64(0))

    private let resources = EncoderResources()
    private var streamIndex: Int32 = 0
    private var streamTimeBase = AVRational(num: 1, den: 1)
    /// BT.601's matrix, tagged as such (SMPTE 170M), with BT.709 primaries and transfer (sRGB's):
    /// what libyuv's converter gives, and what players assume for a video under 720 lines.
    private let colour = ColourDetails.videoRange601
    /// Packets muxed since the last fragment was flushed.
    private var unflushedPackets = 0
    /// Packets are written one behind (see `emit`): whether `resources.pending` holds one.
    private var pendingValid = false
    /// Takes each new picture for the video's animated preview as it is encoded.
    var preview: PreviewSampler?
    /// Whether pictures are encoded on an `EncodingThread` (all but `threads` 1).
    private let encodesAside: Bool
    /// Encodes the converted pictures, started with the first.
    private var encodingThread: EncodingThread?
    /// Of the pictures (`EncoderResources.pictures`: two encoding aside, else one), the one sent
    /// last: encoding aside, the other is converted next, while this one is encoded.
    private var lastSent = 0
    /// The bands the picture sent last changed (nil: all or unknown). The other picture, a
    /// picture older, lacks them too.
    private var changedByLastSent: BandSpans?

    /// FFmpeg's encoder for `options`' codec, or the error that says which package provides it.
    static func encoder(for options: RecordingOptions) throws(RecorderError) -> UnsafePointer<AVCodec> {
        guard let encoder = avcodec_find_encoder_by_name(options.encoderName) else {
            throw .encoderUnavailable(codec: options.codec, encoder: options.encoderName, package: options.codec.debianPackage)
        }
        return encoder
    }

    /// Opens `encoder` as every recording sets it up (YUV 4:2:0 at `width` x `height`, variable
    /// frame rate, keyframes on request, x264's zerolatency tuning): one place for the settings,
    /// which `EncoderLimit` measures the recorder against.
    static func openCodec(
        _ encoder: UnsafePointer<AVCodec>, options: RecordingOptions, width: Int, height: Int, globalHeader: Bool
    ) throws(RecorderError) -> UnsafeMutablePointer<AVCodecContext> {
        guard let codecContext = avcodec_alloc_context3(encoder) else { throw .outOfMemory("the \(options.encoderName) encoder") }
        codecContext.pointee.width = Int32(width)
        codecContext.pointee.height = Int32(height)
        codecContext.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        codecContext.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        codecContext.pointee.time_base = Self.timeBase
        // A nominal rate for rate control; timestamps are what count (variable frame rate).
        codecContext.pointee.framerate = AVRational(num: 60, den: 1)
        codecContext.pointee.gop_size = Int32(clamping: max(1, Int((options.keyframeInterval.seconds * 60).rounded(.up))))
        codecContext.pointee.max_b_frames = 0
        codecContext.pointee.thread_count = Int32(clamping: options.threads)
        codecContext.pointee.color_range = AVCOL_RANGE_MPEG
        codecContext.pointee.colorspace = AVCOL_SPC_SMPTE170M
        codecContext.pointee.color_primaries = AVCOL_PRI_BT709
        codecContext.pointee.color_trc = AVCOL_TRC_BT709
        if globalHeader { codecContext.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        var codecOptions: OpaquePointer?
        av_dict_set(&codecOptions, "preset", options.preset, 0)
        av_dict_set(&codecOptions, options.codec.qualityOption, String(options.effectiveQuality), 0)
        av_dict_set(&codecOptions, "forced-idr", "1", 0)
        // Live capture: no frames parked inside the encoder (frame threads, lookahead). On a
        // sparse VFR stream a parked frame could wait seconds for the next change, and a
        // killed recorder would lose it even though its keyframe came before the kill.
        av_dict_set(&codecOptions, "tune", "zerolatency", 0)
        if options.codec == .hevc {
            // x265 prints to stderr on its own; keep it quiet (errors come back as return codes).
            av_dict_set(&codecOptions, "x265-params", "log-level=none:bframes=0", 0)
        }
        let result = avcodec_open2(codecContext, encoder, &codecOptions)
        av_dict_free(&codecOptions)
        guard result >= 0 else {
            var context: UnsafeMutablePointer<AVCodecContext>? = codecContext
            avcodec_free_context(&context)
            throw .encoderOpenFailed(encoder: options.encoderName, message: ffmpegErrorMessage(result))
        }
        return codecContext
    }

    /// Opens the encoder, creates the file at `url` and writes its header.
    init(
        url: URL, container: VideoContainer, options: RecordingOptions, fragmented: Bool, width: Int, height: Int,
        logger: Logger
    ) throws(RecorderError) {
        self.url = url
        self.width = width
        self.height = height
        encodesAside = options.threads != 1
        let path = url.path
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
        let globalHeader = formatContext.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0
        let codecContext = try Self.openCodec(encoder, options: options, width: width, height: height, globalHeader: globalHeader)
        resources.codec = codecContext
        result = avcodec_parameters_from_context(stream.pointee.codecpar, codecContext)
        guard result >= 0 else {
            throw .muxerFailed(file: path, step: "describe the video stream", message: ffmpegErrorMessage(result))
        }
        stream.pointee.time_base = Self.timeBase
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

        // Reusable pictures (a second to convert into while one is encoded aside) and packets.
        for _ in 0..<(encodesAside ? 2 : 1) {
            guard let frame = av_frame_alloc() else { throw .outOfMemory("a video frame") }
            resources.pictures.append(frame)
            describeVideoFrame(frame)
            result = av_frame_get_buffer(frame, 0)
            guard result >= 0 else { throw .outOfMemory("a \(width)x\(height) video frame") }
        }
        guard let packet = av_packet_alloc(), let pending = av_packet_alloc() else { throw .outOfMemory("video packets") }
        resources.packet = packet
        resources.pending = pending

        logger.debug(
            "recording started",
            metadata: [
                "file": "\(path)", "codec": "\(codec.rawValue)", "container": "\(container.rawValue)",
                "size": "\(width)x\(height)", "fragmented": "\(fragmented)",
            ])
    }

    deinit {
        encodingThread?.stop()
    }

    // MARK: - Pictures

    /// Converts `pixels` (BGRA, prepared for this video) into a picture and has it encoded;
    /// false when they could not be converted. With `changed`, only those bands differ from the
    /// picture sent last, and only they are converted; encoding aside, the picture converted
    /// into is a picture older, while the last is encoded: the bands that one changed too.
    func send(
        converting pixels: PixelBuffer, changed: BandSpans? = nil, with converter: PixelConverter, pts: Int64, keyframe: Bool
    ) throws(RecorderError) -> Bool {
        let next = encodesAside ? 1 - lastSent : lastSent
        guard !resources.pictures.isEmpty else { return true }
        let avFrame = resources.pictures[next]
        var stale = changed
        if encodesAside { if let before = changedByLastSent { stale?.formUnion(before) } else { stale = nil } }
        // Not writable only while libavcodec holds it, and then made so with its pixels copied.
        guard av_frame_make_writable(avFrame) >= 0 else { throw .outOfMemory("a writable video frame") }
        guard converter.convert(pixels, into: avFrame, colour: colour, changed: stale) else { return false }
        // Read beside the encoder, which only reads it too.
        preview?.add(avFrame, pts: pts, changedRows: changed?.changedRows(in: FrameSpool.Layout(width: width, height: height)))
        try hand(next, pts: pts, keyframe: keyframe)
        changedByLastSent = changed
        return true
    }

    /// Encodes the picture sent last once more at `pts`: a hold split up, or an idle screen
    /// kept current.
    func sendCurrent(pts: Int64, keyframe: Bool) throws(RecorderError) {
        guard !resources.pictures.isEmpty else { return }
        try hand(lastSent, pts: pts, keyframe: keyframe)
    }

    /// Encodes picture `index`: here, or on the encoding thread (started with the first) once
    /// the one before is encoded.
    private func hand(_ index: Int, pts: Int64, keyframe: Bool) throws(RecorderError) {
        if encodesAside {
            if encodingThread == nil {
                encodingThread = EncodingThread(name: "showreel.encode") { [unowned self] job throws(RecorderError) in
                    try send(resources.pictures[job.picture], pts: job.pts, keyframe: job.keyframe)
                }
            }
            try encodingThread?.hand(EncodingThread.Job(picture: index, pts: pts, keyframe: keyframe))
        } else {
            try send(resources.pictures[index], pts: pts, keyframe: keyframe)
        }
        lastSent = index
        picturesSent += 1
    }

    /// Whether an encoding thread is running now (the first picture starts it; finishing ends it).
    var hasEncodingThread: Bool { encodingThread != nil }

    /// Waits for the picture handed over last to be encoded; throws what encoding failed with.
    private func settle() throws(RecorderError) {
        try encodingThread?.settle()
    }

    /// Waits as `settle()` does, leaving a failure to be thrown by the next call that can.
    private func settled() {
        try? encodingThread?.settle()
    }

    /// Ends the encoding thread once the picture in hand is encoded.
    private func stopEncodingThread() {
        encodingThread?.stop()
        encodingThread = nil
    }

    /// Encodes a picture rebuilt by a `FrameSpool` at `bytes` (YUV 4:2:0 in `layout`). The
    /// spool's memory is reused for the next picture, so the last one is copied into the
    /// current picture when it is to be repeated later (`keepAsCurrent`).
    func sendSpooled(
        at bytes: UnsafeMutableRawPointer, of layout: FrameSpool.Layout, pts: Int64, keyframe: Bool,
        keepAsCurrent: Bool
    ) throws(RecorderError) {
        // Sent from this thread: the spool's memory is reused once this returns.
        try settle()
        if resources.spoolFrame == nil { resources.spoolFrame = av_frame_alloc() }
        guard let avFrame = resources.spoolFrame else { throw .outOfMemory("a video frame") }
        // The frame's planes are the spool's memory (not owned by FFmpeg: the encoder copies what it keeps).
        let base = bytes.assumingMemoryBound(to: UInt8.self)
        let offsets = layout.planeOffsets
        describeVideoFrame(avFrame)
        avFrame.pointee.data.0 = base + offsets.0
        avFrame.pointee.data.1 = base + offsets.1
        avFrame.pointee.data.2 = base + offsets.2
        avFrame.pointee.linesize.0 = Int32(layout.width)
        avFrame.pointee.linesize.1 = Int32(layout.chromaWidth)
        avFrame.pointee.linesize.2 = Int32(layout.chromaWidth)
        try send(avFrame, pts: pts, keyframe: keyframe)
        picturesSent += 1
        preview?.add(avFrame, pts: pts)
        if keepAsCurrent, !resources.pictures.isEmpty {
            let current = resources.pictures[lastSent]
            guard av_frame_make_writable(current) >= 0, av_frame_copy(current, avFrame) >= 0 else {
                throw .outOfMemory("a writable video frame")
            }
            // The other picture is older than this: converted whole next.
            changedByLastSent = nil
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

    /// Sends a picture to the encoder and writes what comes out.
    private func send(_ avFrame: UnsafeMutablePointer<AVFrame>, pts: Int64, keyframe: Bool) throws(RecorderError) {
        guard let codecContext = resources.codec else { return }
        avFrame.pointee.pts = pts
        avFrame.pointee.pict_type = keyframe ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        let result = avcodec_send_frame(codecContext, avFrame)
        guard result >= 0 else { throw .encodeFailed(file: url.path, message: ffmpegErrorMessage(result)) }
        try drainEncoder()
    }

    // MARK: - Packets and the file

    /// Writes everything muxed so far out as a fragment (a fragmented file's flush: what is
    /// written survives a killed recorder).
    func flushFragment() throws(RecorderError) {
        try settle()
        guard unflushedPackets > 0, let formatContext = resources.format else { return }
        // A NULL packet asks the mov muxer to write the fragment it holds now.
        let result = av_write_frame(formatContext, nil)
        if result < 0 { throw .writeFailed(file: url.path, message: ffmpegErrorMessage(result)) }
        if let pb = formatContext.pointee.pb {
            avio_flush(pb)
            if pb.pointee.error < 0 { throw .writeFailed(file: url.path, message: ffmpegErrorMessage(pb.pointee.error)) }
        }
        unflushedPackets = 0
    }

    /// Finishes the file: with `flushing`, drains the encoder and writes the last packet with
    /// `lastFrameDuration(pts)`; then, in any case, writes the trailer for what fits and closes
    /// the file. Returns the first error on the way, if any.
    func finish(flushing: Bool, lastFrameDuration: (Int64) -> Int64) -> RecorderError? {
        let path = url.path
        var firstError: RecorderError?
        do { try settle() } catch { firstError = error }
        stopEncodingThread()
        if flushing, firstError == nil, picturesSent > 0, let codecContext = resources.codec {
            let result = avcodec_send_frame(codecContext, nil)
            if result < 0, result != showreel_averror_eof() {
                firstError = .encodeFailed(file: path, message: ffmpegErrorMessage(result))
            } else {
                do { try drainEncoder() } catch { firstError = error }
            }
        }
        if flushing, firstError == nil, pendingValid, let pending = resources.pending {
            pending.pointee.duration = lastFrameDuration(pending.pointee.pts)
            pendingValid = false
            do { try write(pending) } catch { firstError = error }
        }

        if let formatContext = resources.format {
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
        }
        resources.releaseCodec()
        return firstError
    }

    /// Closes the file unfinished (the caller removes it).
    func abandon() {
        stopEncodingThread()
        resources.closeFile()
        resources.releaseCodec()
    }

    /// What a failed write means: the disk's errors say to free space or move; anything else is
    /// the muxer refusing what it was given, said as such (no advice about disk space).
    private func writeError(_ code: Int32, step: String) -> RecorderError {
        let diskErrors = [ENOSPC, EFBIG, EIO, EDQUOT, EROFS, EPIPE, EACCES, EPERM]
        if diskErrors.contains(where: { code == -$0 }) { return .writeFailed(file: url.path, message: ffmpegErrorMessage(code)) }
        return .muxerFailed(file: url.path, step: step, message: ffmpegErrorMessage(code))
    }

    private func drainEncoder() throws(RecorderError) {
        guard let codecContext = resources.codec, let packet = resources.packet else { return }
        while true {
            let result = avcodec_receive_packet(codecContext, packet)
            if result == showreel_averror_eagain() || result == showreel_averror_eof() { return }
            guard result >= 0 else { throw .encodeFailed(file: url.path, message: ffmpegErrorMessage(result)) }
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
        written.endPts = packet.pointee.pts + packet.pointee.duration
        packet.pointee.stream_index = streamIndex
        av_packet_rescale_ts(packet, Self.timeBase, streamTimeBase)
        let result = av_interleaved_write_frame(formatContext, packet)
        av_packet_unref(packet)
        guard result >= 0 else { throw writeError(result, step: "write a video frame") }
        written.packets += 1
        unflushedPackets += 1
    }
}

/// Owns the FFmpeg objects of a recording and frees them, also when opening fails halfway.
private final class EncoderResources {
    var format: UnsafeMutablePointer<AVFormatContext>?
    var codec: UnsafeMutablePointer<AVCodecContext>?
    /// The pictures converted into (two when one is encoded while the other is converted).
    var pictures: [UnsafeMutablePointer<AVFrame>] = []
    var packet: UnsafeMutablePointer<AVPacket>?
    var pending: UnsafeMutablePointer<AVPacket>?
    /// A shell whose planes point into a `FrameSpool` (no buffers of its own).
    var spoolFrame: UnsafeMutablePointer<AVFrame>?

    @discardableResult
    func closeFile() -> Int32 {
        guard let format, format.pointee.pb != nil,
            format.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0
        else { return 0 }
        return avio_closep(&format.pointee.pb)
    }

    func releaseCodec() {
        avcodec_free_context(&codec)
        for picture in pictures {
            var freed: UnsafeMutablePointer<AVFrame>? = picture
            av_frame_free(&freed)
        }
        pictures = []
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
