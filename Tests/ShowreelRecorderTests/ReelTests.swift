import Foundation
import ShowreelRender
import Testing

@testable import ShowreelRecorder

@Suite("Demo reel")
struct ReelTests {
    /// A clip of `count` frames a tenth of a second apart, held to `length` seconds.
    func clip(_ url: URL, width: Int, height: Int, count: Int, length: Double, options: RecordingOptions = RecordingOptions()) throws {
        let recorder = try VideoRecorder(url: url, width: width, height: height, options: options)
        for index in 0..<count {
            try recorder.append(makeFrame(index: index, at: .milliseconds(100 * index), width: width, height: height))
        }
        try recorder.finish(stopTime: .milliseconds(Int64(length * 1000)))
    }

    func chapterTitles(_ url: URL) throws -> [String] {
        let data = try run("/usr/bin/ffprobe", ["-v", "error", "-show_chapters", "-of", "json", url.path])
        let chapters = (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["chapters"] as? [[String: Any]] ?? []
        return chapters.compactMap { ($0["tags"] as? [String: String])?["title"] }
    }

    @Test("clips of one size and encoder are copied behind title cards, with a chapter each")
    func copies() throws {
        try withTemporaryDirectory { folder in
            try clip(folder.appendingPathComponent("a.mov"), width: 320, height: 240, count: 5, length: 2)
            try clip(folder.appendingPathComponent("b.mov"), width: 320, height: 240, count: 3, length: 1)
            let reel = folder.appendingPathComponent("reel.mp4")
            let summary = try Reel.write([ReelClip(title: "First", video: folder.appendingPathComponent("a.mov")),
                                          ReelClip(title: "Second", video: folder.appendingPathComponent("b.mov"))],
                                         to: reel, titleDuration: .seconds(1))
            #expect(summary.streamCopied)
            #expect(summary.chapters.map(\.title) == ["First", "Second"])
            #expect(abs(summary.chapters[0].end - 3) < 0.01 && abs(summary.chapters[1].end - 5) < 0.01)
            #expect(try chapterTitles(reel) == ["First", "Second"])
            let info = try MediaProbe.probe(reel)
            #expect(abs(info.duration - 5) < 0.05)
            // Card, 5 frames, card, 3 frames: every clip frame is there, copied.
            #expect(info.frameCount == 1 + 5 + 1 + 3)
            let frames = try FrameDecoder.decodeFrames(reel)
            #expect(isClose(frames[1].pixels.pixel(x: 308, y: 228), palette[0]))
        }
    }

    @Test("clips that differ in size are encoded once at the first one's size; chapters still mark each")
    func encodesOnce() throws {
        try withTemporaryDirectory { folder in
            try clip(folder.appendingPathComponent("a.mov"), width: 320, height: 240, count: 4, length: 1)
            try clip(folder.appendingPathComponent("b.mp4"), width: 160, height: 120, count: 4, length: 1.5)
            let reel = folder.appendingPathComponent("reel.mp4")
            let summary = try Reel.write([ReelClip(title: "Big", video: folder.appendingPathComponent("a.mov")),
                                          ReelClip(title: "Small", video: folder.appendingPathComponent("b.mp4"))],
                                         to: reel, titleDuration: .milliseconds(500))
            #expect(!summary.streamCopied)
            #expect(try chapterTitles(reel) == ["Big", "Small"])
            let info = try MediaProbe.probe(reel)
            #expect(info.width == 320 && info.height == 240)
            #expect(abs(info.duration - 3.5) < 0.05, "\(info.duration)")
        }
    }

    @Test("no clips is an error that says so")
    func empty() {
        #expect(throws: RecorderError.invalidOption("a reel needs at least one video")) {
            try Reel.write([], to: URL(fileURLWithPath: "/tmp/never.mp4"))
        }
    }
}
