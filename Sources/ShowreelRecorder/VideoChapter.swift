import CFFmpeg

/// A titled span of a video, as a player's chapter menu lists it.
package struct VideoChapter: Sendable, Equatable {
    package var title: String
    /// Seconds into the video.
    package var start: Double
    package var end: Double

    package init(title: String, start: Double, end: Double) {
        self.title = title
        self.start = start
        self.end = end
    }
}

/// A step of a flow or test: what it did and when it began, in seconds into the video.
package struct StepMark: Sendable, Equatable {
    package var title: String
    package var time: Double

    package init(title: String, time: Double) {
        self.title = title
        self.time = time
    }

    /// One chapter per instant at which steps began, ending where the next one begins (the last
    /// at `videoEnd`). Steps that begin together (an assertion takes no device time on a virtual
    /// clock) share a chapter: a chapter of no length could not be picked, and a muxer needs
    /// strictly increasing times. Steps that begin as the video ends (a last assertion) join the
    /// chapter before, for the same reason. Titles are joined with `separator`.
    package static func chapters(_ marks: [StepMark], videoEnd: Double, separator: String = " · ") -> [VideoChapter] {
        // Milliseconds: what the chapters and subtitles are timed in.
        func ms(_ time: Double) -> Double { (time * 1000).rounded() }
        var groups: [(time: Double, titles: [String])] = []
        for mark in marks {
            let time = min(max(0, mark.time), videoEnd)
            if let last = groups.last, ms(time) <= ms(last.time) || (ms(time) >= ms(videoEnd) && last.time < time) {
                groups[groups.count - 1].titles.append(mark.title)
            } else {
                groups.append((time, [mark.title]))
            }
        }
        return groups.enumerated().compactMap { index, group in
            let end = index + 1 < groups.count ? groups[index + 1].time : videoEnd
            guard ms(end) > ms(group.time) else { return nil }
            return VideoChapter(title: group.titles.joined(separator: separator), start: group.time, end: end)
        }
    }
}

extension VideoChapter {
    /// Puts `chapters` (in milliseconds, titled) into `output`, where the MP4 and MOV muxers
    /// write them from: call before `avformat_write_header`.
    static func attach(_ chapters: [VideoChapter], to output: UnsafeMutablePointer<AVFormatContext>) throws(RecorderError) {
        guard !chapters.isEmpty else { return }
        let size = MemoryLayout<UnsafeMutablePointer<AVChapter>?>.stride
        guard let list = av_calloc(chapters.count, size)?.assumingMemoryBound(to: UnsafeMutablePointer<AVChapter>?.self) else {
            throw .outOfMemory("the chapter list")
        }
        output.pointee.chapters = list
        for (index, chapter) in chapters.enumerated() {
            guard let entry = av_mallocz(MemoryLayout<AVChapter>.size)?.assumingMemoryBound(to: AVChapter.self) else {
                throw .outOfMemory("a chapter")
            }
            entry.pointee.id = Int64(index)
            entry.pointee.time_base = AVRational(num: 1, den: 1000)
            entry.pointee.start = Int64((chapter.start * 1000).rounded())
            entry.pointee.end = Int64((chapter.end * 1000).rounded())
            av_dict_set(&entry.pointee.metadata, "title", chapter.title, 0)
            list[index] = entry
            output.pointee.nb_chapters = UInt32(index + 1)
        }
    }
}
