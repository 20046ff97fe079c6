import CFFmpeg
import Foundation

/// A subtitle: its text and when it shows, in seconds.
package struct TimedText: Sendable, Equatable {
    package var text: String
    package var start: Double
    package var end: Double
}

/// What a video says of its steps: chapters and the timed-text (`mov_text`) subtitle track.
package struct StepTracksInfo: Sendable, Equatable {
    package var chapters: [VideoChapter]
    /// The subtitles' text as the packets hold it, in order; samples with no text (the gaps a
    /// muxer fills in) are left out.
    package var subtitles: [TimedText]
    /// Whether the subtitle track is on by default (nil when there is none).
    package var subtitlesShownByDefault: Bool?
    /// The subtitle track's name (`handler_name`).
    package var subtitleTrackName: String?
}

extension MediaProbe {
    /// Reads the chapters and the first `mov_text` track of `url`.
    package static func stepTracks(_ url: URL) throws(RecorderError) -> StepTracksInfo {
        let input = try MediaInput(url: url)
        let format = input.format
        var chapters: [VideoChapter] = []
        for index in 0..<Int(format.pointee.nb_chapters) {
            guard let chapter = format.pointee.chapters[index] else { continue }
            let base = av_q2d(chapter.pointee.time_base)
            let title = av_dict_get(chapter.pointee.metadata, "title", nil, 0).map { String(cString: $0.pointee.value) } ?? ""
            chapters.append(
                VideoChapter(title: title, start: Double(chapter.pointee.start) * base, end: Double(chapter.pointee.end) * base))
        }
        var info = StepTracksInfo(chapters: chapters, subtitles: [])
        guard
            let text = (0..<Int(format.pointee.nb_streams)).compactMap({ format.pointee.streams[$0] })
                .first(where: { $0.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_MOV_TEXT })
        else { return info }
        info.subtitlesShownByDefault = text.pointee.disposition & AV_DISPOSITION_DEFAULT != 0
        info.subtitleTrackName = av_dict_get(text.pointee.metadata, "handler_name", nil, 0).map { String(cString: $0.pointee.value) }
        let base = av_q2d(text.pointee.time_base)
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard let packet else { throw .outOfMemory("a packet") }
        while av_read_frame(format, packet) >= 0 {
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == text.pointee.index, packet.pointee.size >= 2, let data = packet.pointee.data else {
                continue
            }
            // A timed-text sample: the text's length in bytes (16 bits, big-endian), the text, then style boxes.
            let length = min(Int(data[0]) << 8 | Int(data[1]), Int(packet.pointee.size) - 2)
            guard length > 0 else { continue }
            let start = Double(packet.pointee.pts) * base
            info.subtitles.append(
                TimedText(
                    text: String(decoding: UnsafeBufferPointer(start: data + 2, count: length), as: UTF8.self),
                    start: start, end: start + Double(packet.pointee.duration) * base))
        }
        return info
    }
}
