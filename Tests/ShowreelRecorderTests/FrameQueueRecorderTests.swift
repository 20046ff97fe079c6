import Foundation
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelRecorder

@Suite("FrameQueueRecorder")
struct FrameQueueRecorderTests {
    @Test("a full queue drops the oldest intermediate frames but keeps the first and the newest")
    func dropsOldestKeepsNewest() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("queue.mp4")
            let queue = try FrameQueueRecorder(url: url, width: 160, height: 120, capacity: 8)
            queue.holdEncoder(true)  // the encoder is "busy": nothing leaves the queue
            var kept = 0
            for index in 0..<20 {
                if queue.submit(makeFrame(index: index, at: .milliseconds(100 * index), width: 160, height: 120)) { kept += 1 }
            }
            #expect(queue.queuedFrames == 8)
            #expect(queue.framesDropped == 12)
            #expect(kept == 8)
            let summary = try queue.finish(stopTime: .milliseconds(2_500))
            #expect(summary.framesEncoded == 8)
            #expect(summary.framesDropped == 12)
            #expect(abs(summary.duration.seconds - 2.5) < 0.001)

            // Frames 1...12 went; the first frame (0 s) and frames 13...19 stayed.
            let info = try MediaProbe.probe(url)
            #expect(info.frameCount == 8)
            let expected = [0.0] + (13..<20).map { Double($0) * 0.1 }
            #expect(info.frameTimestamps.count == expected.count)
            for (read, written) in zip(info.frameTimestamps, expected) { #expect(abs(read - written) < 0.001) }
            #expect(abs(info.duration - 2.5) <= 0.02)
            let frames = try await decodedFrames(url)
            let point = backgroundPoint(width: 160, height: 120)
            let first = try #require(frames.first)
            let last = try #require(frames.last)
            #expect(isClose(first.pixels.pixel(x: point.x, y: point.y), palette[0]))
            #expect(isClose(last.pixels.pixel(x: point.x, y: point.y), palette[19 % palette.count]))
        }
    }

    @Test("patches a full queue leaves out are pasted before the next one: every changed part reaches the video")
    func droppedPatchesArePasted() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("patches.mov")
            // A 320x240 screen at half size, shrunk in patches as a recording session does.
            let options = RecordingOptions(scale: 0.5)
            let queue = try FrameQueueRecorder(url: url, width: 320, height: 240, options: options, capacity: 4)
            let shrinker = try #require(FrameShrinker(width: 320, height: 240, options: options, mask: nil))
            queue.holdEncoder(true)  // the encoder is "busy": patches are left out
            var screen = makePixels(index: 7, width: 320, height: 240)
            queue.submit(shrinker.patch(Frame(pixels: screen, presentationTime: .zero), afterPicture: false))
            // Twelve squares of colour, one more per frame, each frame changing only its own.
            let squares = (0..<12).map {
                PixelArea(rows: ($0 / 4) * 64 + 16..<($0 / 4) * 64 + 64, columns: ($0 % 4) * 80 + 16..<($0 % 4) * 80 + 64)
            }
            for (index, square) in squares.enumerated() {
                screen = screen.copy()
                screen.paste(
                    Self.solid(palette[index % palette.count], width: square.columns.count, height: square.rows.count), over: square)
                let frame = Frame(pixels: screen, presentationTime: .milliseconds(100 * (index + 1)), changedAreas: [square])
                queue.submit(shrinker.patch(frame, afterPicture: true))
            }
            #expect(queue.framesDropped == 9)
            try queue.finish(stopTime: .milliseconds(1_400))
            let last = try #require(try await decodedFrames(url).last)
            for (index, square) in squares.enumerated() {
                let (x, y) = (
                    (square.columns.lowerBound + square.columns.upperBound) / 4, (square.rows.lowerBound + square.rows.upperBound) / 4
                )
                #expect(isClose(last.pixels.pixel(x: x, y: y), palette[index % palette.count]), "square \(index)")
            }
        }
    }

    static func solid(_ colour: RGBA, width: Int, height: Int) -> PixelBuffer {
        let pixels = PixelBuffer(width: width, height: height)
        pixels.withUnsafeMutableBytes { bytes in
            for offset in stride(from: 0, to: bytes.count, by: 4) {
                (bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3]) = (colour.blue, colour.green, colour.red, 255)
            }
        }
        return pixels
    }

    @Test("submitting as fast as possible never loses the last frame")
    func burstKeepsLastFrame() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("burst.mov")
            let queue = try FrameQueueRecorder(url: url, width: 320, height: 240, capacity: 2)
            let count = 60
            for index in 0..<count {
                queue.submit(makeFrame(index: index, at: .milliseconds(50 * index)))
            }
            let summary = try queue.finish(stopTime: .milliseconds(50 * count))
            #expect(summary.framesEncoded + summary.framesDropped == count)
            #expect(summary.framesEncoded >= 2)
            let info = try MediaProbe.probe(url)
            #expect(info.frameCount == summary.framesEncoded)
            let lastTime = Double(count - 1) * 0.05
            #expect(info.frameTimestamps.contains { abs($0 - lastTime) < 0.001 }, "the last frame was dropped")
            #expect(info.frameTimestamps.first == 0, "the first frame was dropped")
            #expect(abs(info.duration - Double(count) * 0.05) <= 0.02)
            // After finish, frames are refused and finish cannot run again.
            #expect(!queue.submit(makeFrame(index: 0, at: .seconds(10))))
            #expect(throws: RecorderError.self) { try queue.finish(stopTime: .seconds(11)) }
        }
    }

    @Test("submitWaiting on a full queue waits for the encoder: a burst loses nothing")
    func waitingBurstKeepsEveryFrame() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("waiting.mov")
            let queue = try FrameQueueRecorder(url: url, width: 320, height: 240, capacity: 2)
            let count = 60
            for index in 0..<count {
                #expect(queue.submitWaiting(makeFrame(index: index, at: .milliseconds(50 * index))))
            }
            let summary = try queue.finish(stopTime: .milliseconds(50 * count))
            #expect(summary.framesDropped == 0)
            #expect(summary.framesEncoded == count)
            let info = try MediaProbe.probe(url)
            #expect(info.frameCount == count)
            #expect(info.frameTimestamps.map { ($0 * 1000).rounded() } == (0..<count).map { Double($0 * 50) })
        }
    }

    @Test("discard drops the queued frames without encoding them and removes the file")
    func discardDropsTheQueue() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("discarded.mov")
            let queue = try FrameQueueRecorder(url: url, width: 64, height: 48, capacity: 8)
            queue.holdEncoder(true)
            for index in 0..<8 { queue.submit(makeFrame(index: index, at: .milliseconds(100 * index), width: 64, height: 48)) }
            #expect(queue.queuedFrames == 8)
            queue.discard()
            #expect(queue.queuedFrames == 0)
            #expect(!FileManager.default.fileExists(atPath: url.path))
            #expect(!queue.submit(makeFrame(index: 0, at: .seconds(1), width: 64, height: 48)), "a discarded recording takes no frames")
            #expect(throws: RecorderError.self) { try queue.finish(stopTime: .seconds(2)) }
        }
    }

    @Test("a queue released without finish still leaves a playable file")
    func releasedWithoutFinish() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("abandoned.mov")
            do {
                let queue = try FrameQueueRecorder(url: url, width: 64, height: 48)
                for index in 0..<5 {
                    queue.submit(makeFrame(index: index, at: .milliseconds(100 * index), width: 64, height: 48))
                }
            }
            // The encoder thread finishes the queue and the recorder finalises when released.
            var info: MediaInfo?
            for _ in 0..<200 {
                if let probed = try? MediaProbe.probe(url), probed.frameCount == 5 { info = probed; break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(info?.frameCount == 5)
        }
    }
}
