import Foundation
import ShowreelRender
import ShowreelTestSupport
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

    /// Writes the clips (name, width, height, frames, seconds) and a reel of them titled by name.
    func reel(_ clips: [(String, Int, Int, Int, Double)], in folder: URL, titleDuration: Duration) throws -> (ReelSummary, URL) {
        for (name, width, height, count, length) in clips {
            try clip(folder.appendingPathComponent(name), width: width, height: height, count: count, length: length)
        }
        let url = folder.appendingPathComponent("reel.mp4")
        let summary = try Reel.write(
            clips.map { ReelClip(title: String($0.0.split(separator: ".")[0]), video: folder.appendingPathComponent($0.0)) },
            to: url, titleDuration: titleDuration)
        return (summary, url)
    }

    func chapterTitles(_ url: URL) async throws -> [String] {
        let chapters = try await ffprobeJSON(url, ["-show_chapters"])["chapters"] as? [[String: Any]] ?? []
        return chapters.compactMap { ($0["tags"] as? [String: String])?["title"] }
    }

    @Test("clips of one size and encoder are copied behind title cards, with a chapter each")
    func copies() async throws {
        try await withTemporaryDirectory { folder in
            let (summary, reel) = try reel(
                [("First.mov", 320, 240, 5, 2), ("Second.mov", 320, 240, 3, 1)], in: folder,
                titleDuration: .seconds(1))
            #expect(summary.streamCopied)
            #expect(summary.chapters.map(\.title) == ["First", "Second"])
            #expect(abs(summary.chapters[0].end - 3) < 0.01 && abs(summary.chapters[1].end - 5) < 0.01)
            #expect(try await chapterTitles(reel) == ["First", "Second"])
            let info = try MediaProbe.probe(reel)
            #expect(abs(info.duration - 5) < 0.05)
            // Card, 5 frames, card, 3 frames: every clip frame is there, copied.
            #expect(info.frameCount == 1 + 5 + 1 + 3)
            let frames = try await decodedFrames(reel)
            #expect(isClose(frames[1].pixels.pixel(x: 308, y: 228), palette[0]))
        }
    }

    @Test("clips that differ in size are encoded once at the first one's size; chapters still mark each")
    func encodesOnce() async throws {
        try await withTemporaryDirectory { folder in
            let (summary, reel) = try reel(
                [("Big.mov", 320, 240, 4, 1), ("Small.mp4", 160, 120, 4, 1.5)], in: folder,
                titleDuration: .milliseconds(500))
            #expect(!summary.streamCopied)
            #expect(try await chapterTitles(reel) == ["Big", "Small"])
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
