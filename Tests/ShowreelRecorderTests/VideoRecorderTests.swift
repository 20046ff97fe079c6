import Foundation
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelRecorder

/// One way of writing a file: codec, container extension, fragmentation (nil = default).
struct Variant: CustomTestStringConvertible, Sendable {
    var codec: VideoCodec
    var fileExtension: String
    var fragmented: Bool?
    var testDescription: String {
        "\(codec.rawValue) .\(fileExtension) \(fragmented.map { $0 ? "fragmented" : "classic" } ?? "default")"
    }
}

let allVariants: [Variant] = [
    Variant(codec: .h264, fileExtension: "mov", fragmented: nil),
    Variant(codec: .h264, fileExtension: "mp4", fragmented: nil),
    Variant(codec: .h264, fileExtension: "mov", fragmented: true),
    Variant(codec: .h264, fileExtension: "mp4", fragmented: false),
    Variant(codec: .hevc, fileExtension: "mp4", fragmented: nil),
    Variant(codec: .hevc, fileExtension: "mov", fragmented: nil),
]

/// Irregular, change-driven frame times (seconds after the first frame) and the stop time.
let vfrTimes: [Double] = [0, 0.1, 0.15, 1.2]
let vfrStop = 2.0
/// The device clock does not start at zero: recordings start at the first frame.
let clockOrigin = Duration.milliseconds(5_250)

func recordVFR(to url: URL, variant: Variant, width: Int = 320, height: Int = 240) throws -> RecordingSummary {
    let options = RecordingOptions(codec: variant.codec, fragmented: variant.fragmented)
    let recorder = try VideoRecorder(url: url, width: width, height: height, options: options)
    for (index, time) in vfrTimes.enumerated() {
        try recorder.append(makeFrame(index: index, at: clockOrigin + .seconds(time), width: width, height: height))
    }
    return try recorder.finish(stopTime: clockOrigin + .seconds(vfrStop))
}

@Suite("VideoRecorder")
struct VideoRecorderTests {
    @Test("records VFR frames; codec, size, duration, frames and timestamps read back", arguments: allVariants)
    func recordsAndReadsBack(variant: Variant) async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("clip.\(variant.fileExtension)")
            let summary = try recordVFR(to: url, variant: variant)

            #expect(summary.framesEncoded == 4)
            #expect(summary.framesDropped == 0)
            #expect(abs(summary.duration.seconds - vfrStop) < 0.001)
            #expect(summary.fileSize > 0)
            #expect(summary.fragmented == (variant.fragmented ?? (variant.fileExtension == "mp4")))

            let info = try MediaProbe.probe(url)
            #expect(info.codecName == variant.codec.rawValue)
            #expect(info.width == 320 && info.height == 240)
            #expect(abs(info.duration - vfrStop) <= 0.02, "container duration \(info.duration)")
            let streamDuration = try #require(info.streamDuration)
            #expect(abs(streamDuration - vfrStop) <= 0.02, "stream duration \(streamDuration)")
            #expect(info.frameCount == vfrTimes.count)
            #expect(info.frameTimestamps.count == vfrTimes.count)
            for (read, written) in zip(info.frameTimestamps, vfrTimes) {
                #expect(abs(read - written) < 0.001, "timestamp \(read) should be \(written)")
            }
            #expect(info.containerFormat.contains("mp4"))
            #expect(info.readToEnd)

            if haveFFmpegTools {
                let report = try await ffprobe(url)
                #expect(report.streams.first?.codec_name == variant.codec.rawValue)
                #expect(report.streams.first?.width == 320)
                #expect(report.streams.first?.height == 240)
                #expect(report.frames == vfrTimes.count)
                let duration = try #require(report.duration)
                #expect(abs(duration - vfrStop) <= 0.02, "ffprobe duration \(duration)")
            }
        }
    }

    @Test(
        "decoded frames show the right colours, and the last frame is held until the stop time",
        arguments: [allVariants[0], allVariants[1], allVariants[3], allVariants[4]])
    func decodedColoursAndHeldLastFrame(variant: Variant) async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("colours.\(variant.fileExtension)")
            _ = try recordVFR(to: url, variant: variant)
            let frames = try await decodedFrames(url)
            #expect(frames.count == vfrTimes.count)
            let point = backgroundPoint(width: 320, height: 240)
            for (index, frame) in frames.enumerated() {
                #expect(frame.pixels.width == 320 && frame.pixels.height == 240)
                #expect(abs(frame.time - vfrTimes[index]) < 0.001)
                let seen = frame.pixels.pixel(x: point.x, y: point.y)
                #expect(isClose(seen, palette[index]), "frame \(index) background \(seen), expected \(palette[index])")
            }
            // Neighbouring frames really differ (not the same picture repeated).
            let first = frames[0].pixels.pixel(x: point.x, y: point.y)
            let second = frames[1].pixels.pixel(x: point.x, y: point.y)
            #expect(!isClose(first, second, tolerance: 40))
            // The white square moved between frames.
            #expect(isClose(frames[0].pixels.pixel(x: 10, y: 30), RGBA(red: 255, green: 255, blue: 255)))
            #expect(!isClose(frames[2].pixels.pixel(x: 10, y: 30), RGBA(red: 255, green: 255, blue: 255)))

            // The last frame (1.2 s) lasts until the stop time (2.0 s): players hold it 0.8 s.
            let info = try MediaProbe.probe(url)
            let streamDuration = try #require(info.streamDuration)
            #expect(abs(streamDuration - vfrStop) <= 0.02)
            #expect(abs(info.duration - vfrStop) <= 0.02)
            #expect(abs((info.duration - frames[3].time) - 0.8) <= 0.02)
            if haveFFmpegTools, variant.fragmented == false || (variant.fragmented == nil && variant.fileExtension == "mov") {
                let durations = try await ffprobePacketDurations(url)
                #expect(durations.count == 4)
                let last = try #require(durations.last ?? nil)
                #expect(abs(last - 0.8) <= 0.001, "last packet lasts \(last) s")
            }
        }
    }

    @Test("scale 0.5 halves the encoded size; odd sizes round to even")
    func scaling() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("half.mp4")
            let recorder = try VideoRecorder(url: url, width: 320, height: 240, options: RecordingOptions(scale: 0.5))
            #expect(recorder.width == 160 && recorder.height == 120)
            try recorder.append(makeFrame(index: 0, at: .zero))
            try recorder.append(makeFrame(index: 1, at: .milliseconds(500)))
            let summary = try recorder.finish(stopTime: .seconds(1))
            #expect(summary.width == 160 && summary.height == 120)
            let info = try MediaProbe.probe(url)
            #expect(info.width == 160 && info.height == 120)
            let frames = try await decodedFrames(url)
            #expect(frames.count == 2)
            #expect(isClose(frames[1].pixels.pixel(x: 150, y: 110), palette[1]))

            let odd = directory.appendingPathComponent("odd.mov")
            let oddRecorder = try VideoRecorder(url: odd, width: 333, height: 201)
            #expect(oddRecorder.width % 2 == 0 && oddRecorder.height % 2 == 0)
            #expect(abs(oddRecorder.width - 333) == 1 && abs(oddRecorder.height - 201) == 1)
            try oddRecorder.append(makeFrame(index: 2, at: .zero, width: 333, height: 201))
            try oddRecorder.finish(stopTime: .milliseconds(100))
            #expect(try MediaProbe.probe(odd).width == oddRecorder.width)
        }
        #expect(RecordingOptions(scale: 0.5).outputSize(width: 780, height: 1688) == (390, 844))
    }

    @Test("a screen recorded at half size is averaged 2x2 and masked at the output size")
    func halfSizeMasked() async throws {
        try await withTemporaryDirectory { directory in
            let profile = DeviceProfile.phone
            let (width, height) = (profile.pixelWidth, profile.pixelHeight)
            // Alternate black and white pixels: a 2:1 shrink that averages gives mid grey,
            // one that picks pixels gives black or white.
            let screen = PixelBuffer(width: width, height: height, zeroed: false)
            screen.withUnsafeMutableBytes { bytes in
                for y in 0..<height {
                    let row = bytes.baseAddress!.advanced(by: y * screen.bytesPerRow).assumingMemoryBound(to: UInt32.self)
                    for x in 0..<width { row[x] = (x + y) % 2 == 0 ? 0xFFFF_FFFF : 0xFF00_0000 }
                }
            }
            let url = directory.appendingPathComponent("half.mov")
            let recorder = try VideoRecorder(
                url: url, width: width, height: height, options: RecordingOptions(scale: 0.5, threads: 1),
                mask: ScreenMask(profile: profile), masksCopies: true)
            try recorder.append(Frame(pixels: screen, presentationTime: .zero))
            try recorder.finish(stopTime: .milliseconds(100))
            #expect(screen.pixel(x: 0, y: 0) == RGBA(red: 255, green: 255, blue: 255), "the device's own frame is untouched")

            let frame = try #require(try await decodedFrames(url).first).pixels
            #expect((frame.width, frame.height) == (390, 844))
            let centre = frame.pixel(x: 195, y: 600)
            #expect(abs(Int(centre.green) - 128) <= 12, "\(centre)")
            let outputMask = ScreenMask(profile: profile, width: 390, height: 844)
            #expect(outputMask.masks(x: 1, y: 1) && !outputMask.masks(x: 195, y: 600))
            #expect(frame.pixel(x: 1, y: 1).green <= 20, "the rounded corner is black")
            #expect(frame.pixel(x: 195, y: 20).green <= 20, "the sensor housing is black")
        }
    }

    @Test("with a maximum frame rate, the newest frame of each refresh is kept at its own time")
    func maximumFrameRate() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("refresh.mov")
            let recorder = try VideoRecorder(url: url, width: 64, height: 48, options: RecordingOptions(maximumFrameRate: 60))
            // Refreshes of 1/60 s from the first frame: 10 and 12 ms share the first, 20 ms is the second.
            for (index, milliseconds) in [0, 10, 12, 20].enumerated() {
                try recorder.append(makeFrame(index: index, at: .milliseconds(Int64(milliseconds)), width: 64, height: 48))
            }
            let summary = try recorder.finish(stopTime: .milliseconds(100))
            #expect(summary.framesEncoded == 3)
            #expect(summary.framesSuperseded == 1)
            let frames = try await decodedFrames(url)
            #expect(frames.map { ($0.time * 1000).rounded() } == [0, 12, 20])
            #expect(
                isClose(frames[1].pixels.pixel(x: 2, y: 2), makePixels(index: 2, width: 64, height: 48).pixel(x: 2, y: 2)),
                "the newest frame of the refresh is the one kept")
        }
        #expect(throws: RecorderError.self) { try RecordingOptions(maximumFrameRate: 0).validate() }
    }

    @Test("keyframes come at least every keyframe interval")
    func keyframeInterval() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("keys.mp4")
            let recorder = try VideoRecorder(url: url, width: 320, height: 240)
            for index in 0..<35 {
                try recorder.append(makeFrame(index: index, at: .milliseconds(100 * index)))
            }
            try recorder.finish(stopTime: .milliseconds(3_500))
            let info = try MediaProbe.probe(url)
            #expect(info.frameCount == 35)
            for expected in [0.0, 1.0, 2.0, 3.0] {
                #expect(info.keyframeTimestamps.contains { abs($0 - expected) < 0.001 }, "no keyframe at \(expected) s")
            }
            for (a, b) in zip(info.keyframeTimestamps, info.keyframeTimestamps.dropFirst()) {
                #expect(b - a <= 1.0 + 0.001)
            }
        }
    }

    @Test("a killed recorder leaves a fragmented file that still decodes", arguments: [VideoCodec.h264, .hevc])
    func truncatedFragmentedFileDecodes(codec: VideoCodec) async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("live.mp4")
            let copy = directory.appendingPathComponent("killed.mp4")
            let recorder = try VideoRecorder(url: url, width: 320, height: 240, options: RecordingOptions(codec: codec))
            for index in 0..<36 {
                try recorder.append(makeFrame(index: index, at: .milliseconds(100 * index)))
            }
            // What SIGKILL would leave: the bytes on disk before finish().
            try FileManager.default.copyItem(at: url, to: copy)
            let summary = try recorder.finish(stopTime: .milliseconds(3_600))
            #expect(summary.framesEncoded == 36)

            let info = try MediaProbe.probe(copy)
            #expect(info.codecName == codec.rawValue)
            #expect(info.frameCount > 0)
            #expect(info.frameCount < 36)
            let frames = try await decodedFrames(copy)
            #expect(frames.count > 0)
            let point = backgroundPoint(width: 320, height: 240)
            #expect(isClose(frames[0].pixels.pixel(x: point.x, y: point.y), palette[0]))
            if haveFFmpegTools {
                #expect((try await ffprobe(copy).frames ?? 0) > 0)
            }
        }
    }

    @Test("frames at the same time are nudged, frames going back in time are dropped")
    func timestampOrdering() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("order.mov")
            let recorder = try VideoRecorder(url: url, width: 64, height: 48)
            try recorder.append(makeFrame(index: 0, at: .seconds(10), width: 64, height: 48))
            try recorder.append(makeFrame(index: 1, at: .seconds(10.5), width: 64, height: 48))
            try recorder.append(makeFrame(index: 2, at: .seconds(10.5), width: 64, height: 48))
            try recorder.append(makeFrame(index: 3, at: .seconds(10.2), width: 64, height: 48))
            let summary = try recorder.finish(stopTime: .seconds(11))
            #expect(summary.framesEncoded == 3)
            #expect(summary.framesDropped == 1)
            let info = try MediaProbe.probe(url)
            #expect(info.frameCount == 3)
            #expect(abs(info.duration - 1.0) <= 0.02)
        }
    }

    @Test("a stop time not after the last frame still gives that frame a short duration")
    func stopAtLastFrame() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("short.mp4")
            let recorder = try VideoRecorder(url: url, width: 64, height: 48)
            try recorder.append(makeFrame(index: 0, at: .zero, width: 64, height: 48))
            try recorder.append(makeFrame(index: 1, at: .seconds(1), width: 64, height: 48))
            let summary = try recorder.finish(stopTime: .seconds(1))
            #expect(summary.framesEncoded == 2)
            #expect(summary.duration > .seconds(1) && summary.duration < .milliseconds(1_100))
        }
    }

    @Test("finishing twice, appending after finish, and finishing without frames are errors")
    func lifecycleErrors() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("once.mp4")
            let recorder = try VideoRecorder(url: url, width: 64, height: 48)
            try recorder.append(makeFrame(index: 0, at: .zero, width: 64, height: 48))
            try recorder.finish(stopTime: .seconds(1))
            #expect(throws: RecorderError.alreadyFinished(file: url.path)) { try recorder.finish(stopTime: .seconds(2)) }
            #expect(throws: RecorderError.alreadyFinished(file: url.path)) {
                try recorder.append(makeFrame(index: 1, at: .seconds(2), width: 64, height: 48))
            }

            let empty = directory.appendingPathComponent("empty.mov")
            let idle = try VideoRecorder(url: empty, width: 64, height: 48)
            let error = #expect(throws: RecorderError.self) { try idle.finish(stopTime: .seconds(1)) }
            #expect(error == .noFrames(file: empty.path))
            #expect(error?.description.contains("no frames") == true)
        }
    }

    @Test("an unsupported extension is an error that lists the supported ones")
    func unsupportedExtension() throws {
        let url = URL(fileURLWithPath: "/tmp/clip.avi")
        let error = #expect(throws: RecorderError.self) { try VideoRecorder(url: url, width: 64, height: 48) }
        #expect(error == .unsupportedContainer(file: url.path, extension: "avi"))
        let message = try #require(error?.description)
        #expect(message.contains(".mov") && message.contains(".mp4") && message.contains("clip.avi"))
        #expect(throws: RecorderError.self) { try VideoContainer(fileURL: URL(fileURLWithPath: "/tmp/noextension")) }
        #expect(try VideoContainer(fileURL: URL(fileURLWithPath: "/tmp/A.MP4")) == .mp4)
        #expect(try VideoContainer(fileURL: URL(fileURLWithPath: "/tmp/a.mov")) == .mov)
    }

    @Test("an unwritable path fails clearly when the recorder opens")
    func unwritablePath() async throws {
        try await withTemporaryDirectory { directory in
            let missing = directory.appendingPathComponent("no-such-folder/clip.mp4")
            let error = #expect(throws: RecorderError.self) { try VideoRecorder(url: missing, width: 64, height: 48) }
            guard case let .cannotCreateFile(file, message) = error else {
                Issue.record("expected cannotCreateFile, got \(String(describing: error))")
                return
            }
            #expect(file == missing.path)
            #expect(message.contains("No such file or directory"))
            #expect(error?.description.contains(missing.path) == true)

            // A path "inside" a regular file.
            let plain = directory.appendingPathComponent("plain")
            try Data("x".utf8).write(to: plain)
            #expect(throws: RecorderError.self) {
                try VideoRecorder(url: plain.appendingPathComponent("clip.mov"), width: 64, height: 48)
            }
        }
    }

    @Test(
        "a disk that fills up during the recording is reported, and finish never reports success",
        arguments: [allVariants[0], allVariants[1]])
    func diskFullWhileRecording(variant: Variant) async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("filling.\(variant.fileExtension)")
            // Lossless frames, so the muxer's buffer overflows to the file quickly.
            let options = RecordingOptions(codec: variant.codec, fragmented: variant.fragmented, quality: 0)
            let recorder = try VideoRecorder(url: url, width: 320, height: 240, options: options)
            for index in 0..<12 {
                try recorder.append(makeFrame(index: index, at: .milliseconds(100 * index)))
            }
            #expect(makeOpenFileFull(url), "could not find the recorder's open file")
            var errors: [RecorderError] = []
            for index in 12..<40 {
                do throws(RecorderError) {
                    try recorder.append(makeFrame(index: index, at: .milliseconds(100 * index)))
                } catch { errors.append(error) }
            }
            let finishError = #expect(throws: RecorderError.self) { try recorder.finish(stopTime: .seconds(4)) }
            if let finishError { errors.append(finishError) }
            #expect(!errors.isEmpty)
            for error in errors {
                guard case .writeFailed = error else {
                    Issue.record("expected writeFailed, got \(error)")
                    continue
                }
                #expect(error.description.contains("No space left on device"), "\(error)")
                #expect(error.description.contains(url.path), "\(error)")
            }
            // Once failed, the recorder keeps saying so.
            #expect(recorder.failure != nil)
        }
    }

    @Test("a file that cannot even take its header fails when the recorder opens", arguments: [allVariants[0], allVariants[1]])
    func diskFullAtStart(variant: Variant) async throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        try await withTemporaryDirectory { directory in
            // Writing to /dev/full fails with ENOSPC, like a full disk.
            let url = directory.appendingPathComponent("full.\(variant.fileExtension)")
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: "/dev/full")
            let error = #expect(throws: RecorderError.self) {
                try VideoRecorder(url: url, width: 320, height: 240, options: RecordingOptions(codec: variant.codec))
            }
            #expect(error?.description.contains("No space left on device") == true, "\(String(describing: error))")
            #expect(error?.description.contains(url.path) == true)
        }
    }

    @Test("invalid options are rejected with a helpful message")
    func invalidOptions() throws {
        let url = URL(fileURLWithPath: "/tmp/never-created.mp4")
        let preset = #expect(throws: RecorderError.self) {
            try VideoRecorder(url: url, width: 64, height: 48, options: RecordingOptions(preset: "warp"))
        }
        #expect(preset?.description.contains("ultrafast") == true)
        #expect(throws: RecorderError.self) {
            try VideoRecorder(url: url, width: 64, height: 48, options: RecordingOptions(quality: 99))
        }
        #expect(throws: RecorderError.self) {
            try VideoRecorder(url: url, width: 64, height: 48, options: RecordingOptions(scale: 0))
        }
        #expect(throws: RecorderError.invalidDimensions(width: 0, height: 48)) {
            try VideoRecorder(url: url, width: 0, height: 48)
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(
            RecorderError.encoderUnavailable(codec: .hevc, encoder: "libx265", package: "libx265-199")
                .description.contains("libx265-199"))
    }
}
