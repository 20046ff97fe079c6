import Foundation
import ShowreelGraphics
import ShowreelRender
import ShowreelTestSupport
import ShowreelWire
import Testing

@testable import ShowreelRecorder

@Suite("Steps in the video: chapters and subtitles")
struct StepTracksTests {
    /// A 320x240 "device" at scale 1, so frames go to the encoder as they are.
    static let profile = DeviceProfile(
        name: "test", displayName: "Test", pointSize: Size(width: 320, height: 240), scale: 1,
        cornerRadius: 0, sensorHousing: nil, statusBarHeight: 0)

    /// Records frames every half second for `seconds` into `url` through a staged session, and
    /// finishes it with `steps`.
    func record(_ url: URL, seconds: Int, steps: [StepMark]) throws -> RecordingSummary {
        let info = DisplayInfo(udid: "test", deviceName: "Test", profile: Self.profile, clock: .virtual)
        let session = try RecordingSession(url: url, info: info, options: RecordingOptions(scale: 1))
        for index in 0..<(seconds * 2) {
            session.receive(.frame(makeFrame(index: index, at: .milliseconds(500 * index))))
        }
        session.receive(.end(stopTime: .seconds(seconds), reason: .stopRequested))
        return try session.finish(steps: steps)
    }

    struct Probe: Decodable {
        struct Stream: Decodable {
            var codec_type: String
            var codec_name: String?
            var codec_tag_string: String?
            var disposition: [String: Int]?
            var tags: [String: String]?
        }
        struct Chapter: Decodable {
            var start_time: String
            var end_time: String
            var tags: [String: String]?
        }
        var streams: [Stream]
        var chapters: [Chapter]
    }

    func ffprobeStepTracks(_ url: URL) async throws -> Probe {
        let data = try await runTool(ffprobePath, ["-v", "error", "-show_chapters", "-show_streams", "-of", "json", url.path])
        return try JSONDecoder().decode(Probe.self, from: data)
    }

    static let steps = [
        StepMark(title: "launchApp", time: 0), StepMark(title: "tapOn: \"Canada\"", time: 1.25),
        StepMark(title: "assertVisible: \"Canada\"", time: 1.25), StepMark(title: "wait: 2 — «done»", time: 2.5),
    ]

    @Test(
        "a finished recording carries a chapter and a subtitle per step, the subtitles off by default",
        .enabled(if: haveFFmpegTools), arguments: ["mov", "mp4"])
    func chaptersAndSubtitles(container: String) async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("flow.\(container)")
            let summary = try record(url, seconds: 4, steps: Self.steps)
            #expect(summary.url == url)
            // Nothing left beside it: the partial file took the remuxed one's place.
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["flow.\(container)"])

            // ffprobe: chapters (steps that begin together share one) and a mov_text track, not default.
            let probe = try await ffprobeStepTracks(url)
            #expect(
                probe.chapters.map { $0.tags?["title"] } == [
                    "launchApp", "tapOn: \"Canada\" · assertVisible: \"Canada\"", "wait: 2 — «done»",
                ])
            #expect(probe.chapters.map { Double($0.start_time)! } == [0, 1.25, 2.5])
            #expect(probe.chapters.map { Double($0.end_time)! } == [1.25, 2.5, 4])
            let subtitles = probe.streams.filter { $0.codec_name == "mov_text" && $0.tags?["handler_name"] == StepTracks.subtitleTrackName }
            #expect(subtitles.count == 1)
            #expect(subtitles.first?.codec_type == "subtitle")
            #expect(subtitles.first?.codec_tag_string == "tx3g")
            #expect(subtitles.first?.disposition?["default"] == 0)
            #expect(probe.streams.first { $0.codec_type == "video" }?.disposition?["default"] == 1)

            // The subtitle packets, decoded: each step's title, in order, until the next step.
            let tracks = try MediaProbe.stepTracks(url)
            #expect(tracks.subtitles.map(\.text) == ["launchApp", "tapOn: \"Canada\"\nassertVisible: \"Canada\"", "wait: 2 — «done»"])
            #expect(tracks.subtitles.map(\.start) == [0, 1.25, 2.5])
            #expect(tracks.subtitles.map(\.end) == [1.25, 2.5, 4])
            #expect(tracks.subtitlesShownByDefault == false)

            // The video itself is copied untouched, its square pixels said in the container too
            // (a `pasp` box, as the recorder wrote it: the remux reads the container only).
            let info = try MediaProbe.probe(url)
            #expect(info.frameCount == 8)
            #expect(abs(info.duration - 4) < 0.01)
            let bytes = try Data(contentsOf: url)
            #expect(bytes.range(of: Data("pasp".utf8)) != nil, "the video's pixel aspect ratio box was left out")
        }
    }

    @Test("without steps the video has no chapters and no subtitle track", .enabled(if: haveFFmpegTools))
    func noSteps() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("plain.mov")
            _ = try record(url, seconds: 2, steps: [])
            let probe = try await ffprobeStepTracks(url)
            #expect(probe.chapters.isEmpty)
            #expect(probe.streams.map(\.codec_type) == ["video"])
        }
    }

    @Test("steps become chapters: together ones share, the last ones join the chapter before, none of no length")
    func chapterSpans() {
        let marks = [
            StepMark(title: "a", time: -1), StepMark(title: "b", time: 0), StepMark(title: "c", time: 2),
            StepMark(title: "d", time: 9), StepMark(title: "e", time: 9.5),
        ]
        // d and e begin as the video ends: they join c.
        #expect(
            StepMark.chapters(marks, videoEnd: 5) == [
                VideoChapter(title: "a · b", start: 0, end: 2),
                VideoChapter(title: "c · d · e", start: 2, end: 5),
            ])
        // A video of no length has no chapter to pick.
        #expect(StepMark.chapters([StepMark(title: "a", time: 0)], videoEnd: 0).isEmpty)
        #expect(StepMark.chapters(marks, videoEnd: 5, separator: "\n").first?.title == "a\nb")
        #expect(StepMark.chapters([], videoEnd: 5).isEmpty)
    }
}
