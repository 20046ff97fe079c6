import CFFmpeg
import Foundation
import Logging
import ShowreelRender

/// One flow in a demo reel: its video and the title on its card.
package struct ReelClip: Sendable, Equatable {
    package var title: String
    package var subtitle: String?
    package var video: URL

    package init(title: String, subtitle: String? = nil, video: URL) {
        self.title = title
        self.subtitle = subtitle
        self.video = video
    }
}

/// What a reel holds.
package struct ReelSummary: Sendable, Equatable {
    package typealias Chapter = VideoChapter

    package var url: URL
    package var chapters: [Chapter]
    /// True when the flows' frames were copied as they are (same codec, size and encoder
    /// settings); false when everything was encoded again in one pass.
    package var streamCopied: Bool
    package var duration: Double
}

/// Joins videos into one MP4 for a client: a title card (rendered with Cairo) before each
/// clip, and an MP4 chapter per clip named after it. Packets are copied without re-encoding
/// when every clip matches the first one's codec, size and encoder headers (the title cards
/// are encoded to match); otherwise everything is decoded and encoded once.
package enum Reel {
    package static func write(
        _ clips: [ReelClip], to url: URL, options: RecordingOptions = RecordingOptions(),
        titleDuration: Duration = .milliseconds(1500),
        logger: Logger = Logger(label: "showreel.reel")
    ) throws(RecorderError) -> ReelSummary {
        guard !clips.isEmpty else { throw .invalidOption("a reel needs at least one video") }
        installFFmpegLogging()
        let first = try MediaProbe.probe(clips[0].video)
        guard let codec = VideoCodec(rawValue: first.codecName) else {
            throw .invalidOption("the reel's first video \(clips[0].video.path) is \(first.codecName); reels take H.264 or HEVC")
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("showreel-reel-\(UUID().uuidString)")
        do { try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true) } catch {
            throw .cannotCreateFile(file: work.path, message: error.localizedDescription)
        }
        defer { try? FileManager.default.removeItem(at: work) }

        // Title cards encoded like the clips, so their packets can sit in the same stream.
        var cardOptions = options
        cardOptions.codec = codec
        cardOptions.scale = 1
        cardOptions.fragmented = false
        var segments: [URL] = []
        for (index, clip) in clips.enumerated() {
            let card = work.appendingPathComponent("card-\(index).mp4")
            let recorder = try VideoRecorder(url: card, width: first.width, height: first.height, options: cardOptions, logger: logger)
            let pixels = TitleCard.render(title: clip.title, subtitle: clip.subtitle, width: first.width, height: first.height)
            try recorder.append(Frame(pixels: pixels, presentationTime: .zero))
            try recorder.finish(stopTime: titleDuration)
            segments += [card, clip.video]
        }

        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial.mp4")
        // Claimed while written (see `WriterLock`): only a killed reel's is removed by others.
        PartialFiles.removeStale(in: url.deletingLastPathComponent(), logger: logger)
        var claim = WriterLock(temporary, creating: true)
        defer {
            try? FileManager.default.removeItem(at: temporary)
            claim?.release()
        }
        let spans: [Double]
        let copied = try Self.streamsMatch(segments)
        if copied {
            spans = try Self.remux(segments, chapters: nil, to: temporary)
        } else {
            logger.info("the clips differ in codec, size or encoder settings: encoding the reel once")
            let joined = work.appendingPathComponent("joined.mp4")
            spans = try Self.transcode(segments, to: joined, width: first.width, height: first.height, options: cardOptions, logger: logger)
            _ = try Self.remux([joined], chapters: nil, to: temporary)
        }
        // Chapter i runs from its title card's start to its clip's end.
        var chapters: [ReelSummary.Chapter] = []
        var time = 0.0
        for (index, clip) in clips.enumerated() {
            let length = spans[2 * index] + spans[2 * index + 1]
            chapters.append(ReelSummary.Chapter(title: clip.title, start: time, end: time + length))
            time += length
        }
        // The chapters go in with the final mux (libavformat writes them from the header on).
        let source = work.appendingPathComponent("nochapters.mp4")
        do { try FileManager.default.moveItem(at: temporary, to: source) } catch {
            throw .writeFailed(file: url.path, message: error.localizedDescription)
        }
        claim?.release()
        claim = WriterLock(temporary, creating: true)
        _ = try Self.remux([source], chapters: chapters, to: temporary)
        do {
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
            try FileManager.default.moveItem(at: temporary, to: url)
        } catch {
            throw .writeFailed(file: url.path, message: error.localizedDescription)
        }
        return ReelSummary(url: url, chapters: chapters, streamCopied: copied, duration: time)
    }

    /// Whether every segment's video stream has the first one's codec, size and headers.
    static func streamsMatch(_ segments: [URL]) throws(RecorderError) -> Bool {
        let inputs = try segments.map { url throws(RecorderError) in try MediaInput(url: url) }
        func signature(_ input: MediaInput) -> [Int64] {
            let p = input.stream.pointee.codecpar.pointee
            let extra = p.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(p.extradata_size))) } ?? []
            return [Int64(p.codec_id.rawValue), Int64(p.width), Int64(p.height), Int64(p.format)] + extra.map(Int64.init)
        }
        let reference = signature(inputs[0])
        return inputs.allSatisfy { signature($0) == reference }
    }

    /// Copies the video packets of `segments` one after another into an MP4, each segment
    /// starting where the previous one ended; returns each segment's length in seconds.
    @discardableResult
    static func remux(_ segments: [URL], chapters: [ReelSummary.Chapter]?, to url: URL) throws(RecorderError) -> [Double] {
        let path = url.path
        let inputs = try segments.map { url throws(RecorderError) in try MediaInput(url: url) }
        var formatContext: UnsafeMutablePointer<AVFormatContext>?
        var result = avformat_alloc_output_context2(&formatContext, nil, "mp4", path)
        guard result >= 0, let output = formatContext else {
            throw .muxerFailed(file: path, step: "set up the mp4 muxer", message: ffmpegErrorMessage(result))
        }
        defer { avformat_free_context(output) }
        guard let stream = avformat_new_stream(output, nil) else { throw .outOfMemory("a video stream") }
        let inputStream = inputs[0].stream
        avcodec_parameters_copy(stream.pointee.codecpar, inputStream.pointee.codecpar)
        stream.pointee.codecpar.pointee.codec_tag = 0
        stream.pointee.time_base = inputStream.pointee.time_base
        if let chapters { try VideoChapter.attach(chapters, to: output) }
        result = avio_open(&output.pointee.pb, path, AVIO_FLAG_WRITE)
        guard result >= 0 else { throw .cannotCreateFile(file: path, message: ffmpegErrorMessage(result)) }
        defer { avio_closep(&output.pointee.pb) }
        result = avformat_write_header(output, nil)
        guard result >= 0 else { throw .muxerFailed(file: path, step: "write the header", message: ffmpegErrorMessage(result)) }
        let outBase = stream.pointee.time_base

        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let packet else { throw .outOfMemory("a packet") }
        var offset: Int64 = 0
        var lengths: [Double] = []
        for input in inputs {
            let inBase = input.stream.pointee.time_base
            var start: Int64?
            var end = offset
            while av_read_frame(input.format, packet) >= 0 {
                defer { av_packet_unref(packet) }
                guard packet.pointee.stream_index == input.stream.pointee.index else { continue }
                av_packet_rescale_ts(packet, inBase, outBase)
                let first = start ?? packet.pointee.pts
                start = first
                packet.pointee.pts += offset - first
                packet.pointee.dts += offset - first
                packet.pointee.stream_index = stream.pointee.index
                packet.pointee.pos = -1
                end = max(end, packet.pointee.pts + max(packet.pointee.duration, 0))
                result = av_interleaved_write_frame(output, packet)
                guard result >= 0 else { throw .writeFailed(file: path, message: ffmpegErrorMessage(result)) }
            }
            lengths.append(Double(end - offset) * av_q2d(outBase))
            offset = end
        }
        result = av_write_trailer(output)
        guard result >= 0 else { throw .writeFailed(file: path, message: ffmpegErrorMessage(result)) }
        return lengths
    }

    /// Decodes every segment and encodes them once into one video at `width` x `height`;
    /// returns each segment's length in seconds.
    private static func transcode(
        _ segments: [URL], to url: URL, width: Int, height: Int, options: RecordingOptions,
        logger: Logger
    ) throws(RecorderError) -> [Double] {
        let recorder = try VideoRecorder(url: url, width: width, height: height, options: options, logger: logger)
        var offset = Duration.zero
        var lengths: [Double] = []
        for segment in segments {
            let length = try MediaProbe.probe(segment).duration
            var failure: RecorderError?
            try FrameDecoder.forEachFrame(segment) { frame in
                do throws(RecorderError) {
                    try recorder.append(Frame(pixels: frame.pixels, presentationTime: offset + .nanoseconds(Int64(frame.time * 1e9))))
                    return true
                } catch {
                    failure = error
                    return false
                }
            }
            if let failure { throw failure }
            lengths.append(length)
            offset += .nanoseconds(Int64(length * 1e9))
        }
        try recorder.finish(stopTime: offset)
        return lengths
    }
}
