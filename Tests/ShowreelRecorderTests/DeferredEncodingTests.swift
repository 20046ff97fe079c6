import Foundation
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelRecorder

/// A recorder with a spool limit keeps converted frames in memory and encodes them only when
/// it must: these read the files back to check that waiting changes nothing in the video.
@Suite("Deferred encoding")
struct DeferredEncodingTests {
    /// Frames where most of the screen stays put (a moving square on a fixed background), as a
    /// UI's do, with two colour changes that redraw everything.
    func frames() -> [Frame] {
        (0..<12).map { index in
            let pixels = makePixels(index: index < 5 ? 0 : (index < 9 ? 1 : 2))
            pixels.withUnsafeMutableBytes { bytes in
                for y in 150..<160 {
                    for x in (10 * index)..<(10 * index + 10) {
                        bytes.storeBytes(of: 0xFFFF_FFFF, toByteOffset: y * pixels.bytesPerRow + x * 4, as: UInt32.self)
                    }
                }
            }
            return Frame(pixels: pixels, presentationTime: clockOrigin + .milliseconds(40 * index))
        }
    }

    func record(
        _ frames: [Frame], to url: URL, spoolLimit: Int?, options: RecordingOptions = RecordingOptions(threads: 1),
        whileRecording: (VideoRecorder) throws -> Void = { _ in }
    ) throws -> RecordingSummary {
        let recorder = try VideoRecorder(url: url, width: 320, height: 240, options: options, spoolLimit: spoolLimit)
        for frame in frames { try recorder.append(frame) }
        try whileRecording(recorder)
        return try recorder.finish(stopTime: clockOrigin + .seconds(1))
    }

    @Test("a deferred recording writes nothing until finish, then the same video as one encoded as it went")
    func sameVideoWhenFinished() async throws {
        try await withTemporaryDirectory { directory in
            let streamed = directory.appendingPathComponent("streamed.mov")
            let deferred = directory.appendingPathComponent("deferred.mov")
            let frames = frames()
            try record(frames, to: streamed, spoolLimit: nil)
            let summary = try record(frames, to: deferred, spoolLimit: 64 << 20) { recorder in
                #expect(recorder.isDeferred)
                #expect(!FileManager.default.fileExists(atPath: deferred.path), "nothing on disk while frames wait")
            }
            #expect(summary.framesEncoded == frames.count)
            let info = try MediaProbe.probe(deferred)
            #expect(info.frameCount == frames.count)
            #expect(abs(info.duration - 1.0) < 0.01)
            let a = try await decodedFrames(streamed), b = try await decodedFrames(deferred)
            #expect(a.count == b.count)
            for (x, y) in zip(a, b) {
                #expect(x.time == y.time && x.isKeyframe == y.isKeyframe)
                #expect(x.pixels.hasSamePixels(as: y.pixels), "frame at \(x.time) s differs")
            }
        }
    }

    @Test(
        "at half size and 30 fps, the newest frame of each refresh is kept, shrunk at once or when its refresh ends",
        arguments: [nil, 64 << 20] as [Int?])
    func newestFramePerRefreshShrunk(spoolLimit: Int?) async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("refresh.mov")
            let options = RecordingOptions(scale: 0.5, threads: 1, maximumFrameRate: 30)
            let recorder = try VideoRecorder(url: url, width: 320, height: 240, options: options, spoolLimit: spoolLimit)
            // Refreshes of 33.3 ms from the first frame: [0], [40, 50, 60], [100]. 40 ms may still
            // be replaced, so it is held as it is (and is, by 50); 50 and 60 are within a display
            // refresh of their refresh's end, so they are shrunk at once (60 replaces 50); 100 is
            // held as it is until finish.
            let times: [Int64] = [0, 40, 50, 60, 100]
            for (index, time) in times.enumerated() {
                try recorder.append(makeFrame(index: index, at: .milliseconds(time)))
            }
            let summary = try recorder.finish(stopTime: .milliseconds(150))
            #expect(summary.framesSuperseded == 2)
            let frames = try await decodedFrames(url)
            #expect(frames.map { ($0.time * 1000).rounded() } == [0, 60, 100])
            let (x, y) = backgroundPoint(width: 160, height: 120)
            for (frame, index) in zip(frames, [0, 3, 4]) {
                #expect(isClose(frame.pixels.pixel(x: x, y: y), palette[index]), "frame at \(frame.time) s is frame \(index)")
            }
        }
    }

    @Test("a discarded deferred recording never writes a file")
    func discardWritesNothing() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("passing.mov")
            let recorder = try VideoRecorder(url: url, width: 320, height: 240, spoolLimit: 64 << 20)
            for frame in frames() { try recorder.append(frame) }
            recorder.discard()
            #expect(!FileManager.default.fileExists(atPath: url.path))
            #expect(throws: RecorderError.self) { try recorder.append(makeFrame(index: 0, at: .seconds(9))) }
        }
    }

    @Test(
        "past the spool limit the recorder opens the file and encodes as it goes; a fragmented file kept current repeats the last picture")
    func overflowEncodesFromThere() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("long.mp4")
            // Frames that differ from each other fill the one chunk the limit allows; the frame
            // that outgrows it has the spool encoded, with nothing after it yet.
            let recorder = try VideoRecorder(
                url: url, width: 320, height: 240, options: RecordingOptions(fragmented: true, threads: 1),
                spoolLimit: FrameSpool.chunkBytes)
            var frames: [Frame] = []
            while recorder.isDeferred, frames.count < 500 {
                frames.append(makeFrame(index: frames.count, at: clockOrigin + .milliseconds(10 * frames.count)))
                try recorder.append(frames.last!)
            }
            #expect(!recorder.isDeferred)
            let layout = FrameSpool.Layout(width: 320, height: 240)
            #expect(frames.count > FrameSpool.chunkBytes / (layout.bandCount * layout.bandBytes(columns: 0..<320)), "a chunk's worth first")
            #expect(FileManager.default.fileExists(atPath: url.path))
            let idle = frames.last!.presentationTime + .milliseconds(500)
            try recorder.keepCurrent(at: idle)
            let summary = try recorder.finish(stopTime: idle + .milliseconds(100))
            #expect(summary.framesEncoded == frames.count + 1, "the frames and one repeat")
            let decoded = try await decodedFrames(url)
            let repeated = try #require(decoded.last)
            let (x, y) = backgroundPoint(width: 320, height: 240)
            #expect(
                isClose(repeated.pixels.pixel(x: x, y: y), palette[(frames.count - 1) % palette.count]), "the repeat shows the last frame")
            #expect(repeated.pixels.meanDifference(from: decoded[decoded.count - 2].pixels) < 2)
        }
    }

    @Test("a deferred recording whose file cannot be written says so when it finishes")
    func unwritableAtFinish() async throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("full.mov")
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: "/dev/full")
            let error = #expect(throws: RecorderError.self) { try record(frames(), to: url, spoolLimit: 64 << 20) }
            #expect(error?.description.contains("No space left on device") == true, "\(String(describing: error))")
            #expect(error?.description.contains(url.path) == true)
        }
        let missing = URL(fileURLWithPath: "/nonexistent-folder/clip.mov")
        let error = #expect(throws: RecorderError.self) { try VideoRecorder(url: missing, width: 64, height: 48, spoolLimit: 1 << 20) }
        #expect(error?.description.contains("/nonexistent-folder") == true, "said at once, not at finish")
    }

    @Test(
        "the spool keeps only what changed (the changed columns of the changed bands) and replays every frame as a whole-frame conversion gives it"
    )
    func spoolKeepsChangedBands() throws {
        let layout = FrameSpool.Layout(width: 64, height: 40)  // bands of 16, 16 and 8 rows
        let converter = PixelConverter()
        let spool = FrameSpool(layout: layout, converter: converter)
        var expected: [[UInt8]] = []
        for index in 0..<4 {
            // Frame 0 is new; frame 1 the same; frame 2 changes one pixel of the second band (said
            // so); frame 3 changes everything, without saying where.
            let pixels = makePixels(index: index == 3 ? 5 : 0, width: 64, height: 40)
            if index == 2 {
                pixels.withUnsafeMutableBytes { $0.storeBytes(of: 0xFF10_2030, toByteOffset: 20 * pixels.bytesPerRow + 8, as: UInt32.self) }
            }
            let spans: BandSpans? =
                switch index {
                case 1: BandSpans(bandCount: layout.bandCount)
                case 2: BandSpans(areas: [PixelArea(rows: 20..<21, columns: 2..<3)], factor: 1, layout: layout)
                default: nil
                }
            #expect(spool.append(pixels, pts: Int64(index), keyframe: index == 0, spans: spans))
            var whole = [UInt8](repeating: 0, count: layout.frameBytes)
            let offsets = layout.planeOffsets
            let converted = whole.withUnsafeMutableBytes { out in
                pixels.withUnsafeBytes { bgra in
                    let base = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    return converter.convertRows(
                        bgra.baseAddress!, bytesPerRow: pixels.bytesPerRow, width: 64, rows: 40,
                        into: (base + offsets.y, 64), (base + offsets.u, 32), (base + offsets.v, 32))
                }
            }
            #expect(converted)
            expected.append(whole)
        }
        #expect(spool.entries.map(\.bands.count) == [3, 0, 1, 3])
        #expect(spool.entries[2].bands.map(\.columns) == [0..<16], "the changed pixel's run of 16 columns")
        #expect(spool.entries.map(\.pts) == [0, 1, 2, 3])
        var replayed: [[UInt8]] = []
        spool.replay { bytes, _ in replayed.append(Array(UnsafeRawBufferPointer(start: bytes, count: layout.frameBytes))) }
        #expect(replayed == expected)
    }
}
