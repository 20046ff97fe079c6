import Foundation
import ShowreelGraphics
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelRecorder

@Suite("Animated previews")
struct AnimatedPreviewTests {
    /// A `seconds`-long video at `width` x `height` whose picture changes every `every` seconds.
    func video(_ url: URL, seconds: Double, every: Double, width: Int, height: Int) throws {
        let recorder = try VideoRecorder(url: url, width: width, height: height, options: RecordingOptions(scale: 1))
        for index in 0..<Int(seconds / every) {
            try recorder.append(
                makeFrame(index: index, at: .milliseconds(Int64(Double(index) * every * 1000)), width: width, height: height))
        }
        try recorder.finish(stopTime: .milliseconds(Int64(seconds * 1000)))
    }

    @Test("a wide video's preview is 480 px wide, 10 pictures a second at most, and decodes to the video's pictures")
    func preview() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("wide.mp4")
            // A change every 50 ms: faster than the preview's 10 fps.
            try video(url, seconds: 3, every: 0.05, width: 960, height: 540)
            let summary = try AnimatedPreview.write(from: url, to: folder.appendingPathComponent("wide.webp"))
            #expect(summary.width == 480 && summary.height == 270)

            let preview = try AnimatedWebP(url: summary.url)
            #expect(preview.width == 480 && preview.height == 270)
            #expect(abs(preview.duration - 3) < 0.001)
            // 10 fps: every frame lasts a whole number of tenths, and there are at most 10 a second.
            #expect(preview.frames.allSatisfy { $0.duration > 0 && $0.duration % 100 == 0 })
            #expect(preview.frames.count >= 25 && preview.frames.count <= 30)
            // Each frame decodes; the first is the video's first picture, scaled.
            let first = try preview.decodeFrame(0)
            #expect(first.width == preview.frames[0].width && first.height == preview.frames[0].height)
            let point = backgroundPoint(width: 480, height: 270)
            #expect(isClose(first.pixel(x: point.x, y: point.y), palette[0], tolerance: 24))
            for index in preview.frames.indices {
                let frame = try preview.decodeFrame(index)
                #expect(frame.width == preview.frames[index].width)
            }
        }
    }

    @Test("a picture held still adds no frame: its frame lasts until the next change or the end")
    func stillPictures() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("slow.mov")
            try video(url, seconds: 4, every: 1, width: 320, height: 240)
            let summary = try AnimatedPreview.write(from: url, to: folder.appendingPathComponent("slow.webp"))
            #expect(summary.width == 320)
            let preview = try AnimatedWebP(url: summary.url)
            #expect(preview.frames.map(\.duration) == [1000, 1000, 1000, 1000])
        }
    }

    @Test("a video longer than the preview's limit plays sped up to fit it, with at most 10 pictures a second of preview")
    func longVideo() async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("long.mov")
            // 40 s with a change every 100 ms, previewed in at most 10 s: sped up four times.
            try video(url, seconds: 40, every: 0.1, width: 320, height: 240)
            let summary = try AnimatedPreview.write(from: url, to: folder.appendingPathComponent("long.webp"), maxSeconds: 10)
            let preview = try AnimatedWebP(url: summary.url)
            #expect(abs(preview.duration - 10) < 0.001)
            #expect(preview.frames.count >= 90 && preview.frames.count <= 100)
            #expect(preview.frames.allSatisfy { $0.duration > 0 && $0.duration % 100 == 0 })
        }
    }
}
