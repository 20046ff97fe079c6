import CFFmpeg
import Foundation

/// Puts a recording's steps into the file itself: a chapter per step (players' chapter menus,
/// `ffprobe -show_chapters`) and a soft subtitle track (`mov_text`, 3GPP timed text) with each
/// step's title, off until the viewer turns it on.
///
/// Done by remuxing a finished video into a new file with the video packets copied as they
/// are (nothing is encoded again, nothing decoded to probe it): the cost is reading and
/// writing the file once. The result
/// is a classic (non-fragmented) MOV or MP4: only a recording that finished gets here, so a
/// killed one still leaves its fragmented file.
package enum StepTracks {
    /// The subtitle track's name (its `hdlr` box): how players list it, and how it is told apart
    /// from the chapter track QuickTime-style chapters add.
    package static let subtitleTrackName = "Steps"

    /// Copies the video of `source` into `destination` (same container, by extension) with
    /// `steps` as chapters and subtitles; returns the chapters written.
    @discardableResult
    package static func write(_ steps: [StepMark], from source: URL, to destination: URL) throws(RecorderError) -> [VideoChapter] {
        let input = try MediaInput(url: source, probing: false)
        let path = destination.path
        let nopts = showreel_nopts_value()
        let inputStream = input.stream
        let inBase = inputStream.pointee.time_base
        let duration: Double = {
            let format = input.format.pointee
            if format.duration != nopts, format.duration > 0 { return Double(format.duration) / Double(AV_TIME_BASE) }
            if inputStream.pointee.duration != nopts { return Double(inputStream.pointee.duration) * av_q2d(inBase) }
            return 0
        }()
        let chapters = StepMark.chapters(steps, videoEnd: duration)
        let cues = StepMark.chapters(steps, videoEnd: duration, separator: "\n")

        var formatContext: UnsafeMutablePointer<AVFormatContext>?
        var result = avformat_alloc_output_context2(&formatContext, nil, nil, path)
        guard result >= 0, let output = formatContext else {
            throw .muxerFailed(file: path, step: "set up the muxer", message: ffmpegErrorMessage(result))
        }
        defer { avformat_free_context(output) }
        guard let video = avformat_new_stream(output, nil), let text = avformat_new_stream(output, nil) else {
            throw .outOfMemory("the output's streams")
        }
        avcodec_parameters_copy(video.pointee.codecpar, inputStream.pointee.codecpar)
        // Unprobed, the pixel aspect ratio is the container's (its `pasp` box), not the codec's.
        if video.pointee.codecpar.pointee.sample_aspect_ratio.num == 0 {
            video.pointee.codecpar.pointee.sample_aspect_ratio = inputStream.pointee.sample_aspect_ratio
        }
        video.pointee.sample_aspect_ratio = inputStream.pointee.sample_aspect_ratio
        video.pointee.time_base = inBase
        try describeSubtitles(text)
        try VideoChapter.attach(chapters, to: output)

        result = avio_open(&output.pointee.pb, path, AVIO_FLAG_WRITE)
        guard result >= 0 else { throw .cannotCreateFile(file: path, message: ffmpegErrorMessage(result)) }
        var closed = false
        defer { if !closed { avio_closep(&output.pointee.pb) } }
        result = avformat_write_header(output, nil)
        guard result >= 0 else { throw .muxerFailed(file: path, step: "write the header", message: ffmpegErrorMessage(result)) }

        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let packet else { throw .outOfMemory("a packet") }
        var nextCue = 0
        /// Writes the cues that begin by `time` (seconds), so both tracks go in in time order.
        func writeCues(through time: Double) throws(RecorderError) {
            while nextCue < cues.count, cues[nextCue].start <= time {
                try writeCue(cues[nextCue], stream: text, output: output, path: path)
                nextCue += 1
            }
        }
        while av_read_frame(input.format, packet) >= 0 {
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == inputStream.pointee.index else { continue }
            let dts = packet.pointee.dts != nopts ? packet.pointee.dts : packet.pointee.pts
            try writeCues(through: Double(dts) * av_q2d(inBase))
            av_packet_rescale_ts(packet, inBase, video.pointee.time_base)
            packet.pointee.stream_index = video.pointee.index
            packet.pointee.pos = -1
            result = av_interleaved_write_frame(output, packet)
            guard result >= 0 else { throw .writeFailed(file: path, message: ffmpegErrorMessage(result)) }
        }
        try writeCues(through: .infinity)
        result = av_write_trailer(output)
        guard result >= 0 else { throw .writeFailed(file: path, message: ffmpegErrorMessage(result)) }
        avio_closep(&output.pointee.pb)
        closed = true
        // The MOV muxer turns on the first track of each kind whatever its disposition says.
        try TrackHeaders.disable(trackID: Int(text.pointee.index) + 1, in: destination)
        return chapters
    }

    /// A `mov_text` stream in milliseconds, not shown by default, with the default text sample
    /// description (the one FFmpeg's own mov_text encoder writes).
    private static func describeSubtitles(_ stream: UnsafeMutablePointer<AVStream>) throws(RecorderError) {
        let parameters = stream.pointee.codecpar!
        parameters.pointee.codec_type = AVMEDIA_TYPE_SUBTITLE
        parameters.pointee.codec_id = AV_CODEC_ID_MOV_TEXT
        // 3GPP timed text, in a MOV too (where the muxer would pick QuickTime's older 'text',
        // whose sample description differs): what Apple's players list as subtitles ('sbtl').
        parameters.pointee.codec_tag = showreel_mktag(
            CChar(UInt8(ascii: "t")), CChar(UInt8(ascii: "x")),
            CChar(UInt8(ascii: "3")), CChar(UInt8(ascii: "g")))
        stream.pointee.time_base = AVRational(num: 1, den: 1000)
        stream.pointee.disposition = 0
        av_dict_set(&stream.pointee.metadata, "handler_name", subtitleTrackName, 0)
        av_dict_set(&stream.pointee.metadata, "language", "eng", 0)
        let sampleEntry: [UInt8] = [
            0, 0, 0, 0,  // display flags
            1, 0xFF,  // horizontally centred, at the bottom
            0, 0, 0, 0,  // background: transparent
            0, 0, 0, 0, 0, 0, 0, 0,  // text box: the default
            0, 0, 0, 0, 0, 1,  // style record: characters 0-0, font 1
            0, 0x12,  // plain, 18 pt
            0xFF, 0xFF, 0xFF, 0xFF,  // white, opaque
            0, 0, 0, 0x12, 0x66, 0x74, 0x61, 0x62, 0, 1,  // font table: one font
            0, 1, 5, 0x53, 0x65, 0x72, 0x69, 0x66,  // 1: "Serif"
        ]
        guard let extradata = av_mallocz(sampleEntry.count + Int(AV_INPUT_BUFFER_PADDING_SIZE))?.assumingMemoryBound(to: UInt8.self) else {
            throw .outOfMemory("the subtitle track's description")
        }
        extradata.update(from: sampleEntry, count: sampleEntry.count)
        parameters.pointee.extradata = extradata
        parameters.pointee.extradata_size = Int32(sampleEntry.count)
    }

    /// One timed-text sample: the text's length in bytes (16 bits, big-endian), then the text.
    private static func writeCue(
        _ cue: VideoChapter, stream: UnsafeMutablePointer<AVStream>,
        output: UnsafeMutablePointer<AVFormatContext>, path: String
    ) throws(RecorderError) {
        var text = Array(cue.title.utf8.prefix(0xFFFF))
        // A cut must not split a UTF-8 sequence.
        while let last = text.last, text.count == 0xFFFF, last & 0xC0 == 0x80 { text.removeLast() }
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let packet, av_new_packet(packet, Int32(text.count + 2)) >= 0, let data = packet.pointee.data else {
            throw .outOfMemory("a subtitle packet")
        }
        data[0] = UInt8(text.count >> 8)
        data[1] = UInt8(text.count & 0xFF)
        (data + 2).update(from: text, count: text.count)
        let start = Int64((cue.start * 1000).rounded())
        packet.pointee.pts = start
        packet.pointee.dts = start
        packet.pointee.duration = Int64((cue.end * 1000).rounded()) - start
        packet.pointee.stream_index = stream.pointee.index
        packet.pointee.flags |= AV_PKT_FLAG_KEY
        let result = av_interleaved_write_frame(output, packet)
        guard result >= 0 else { throw .writeFailed(file: path, message: ffmpegErrorMessage(result)) }
    }
}
