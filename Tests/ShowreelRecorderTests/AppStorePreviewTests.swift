import Foundation
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelRecorder

/// A 444x962 video (the iphone-6.9 class's shape within 0.02%): a palette frame every
/// `every` seconds for `seconds`, optionally opening on a black frame for half a second.
func previewSource(in folder: URL, seconds: Double, every: Double = 2, opensBlack: Bool = false, name: String = "source.mp4") throws -> URL
{
    let url = folder.appendingPathComponent(name)
    let recorder = try VideoRecorder(url: url, width: 444, height: 962, options: RecordingOptions(fragmented: false))
    var time = 0.0, index = 0
    if opensBlack {
        try recorder.append(Frame(pixels: PixelBuffer(width: 444, height: 962), presentationTime: .zero))
        time = 0.5
    }
    while time < seconds {
        try recorder.append(makeFrame(index: index, at: .milliseconds(Int64(time * 1000)), width: 444, height: 962))
        time += every
        index += 1
    }
    try recorder.finish(stopTime: .milliseconds(Int64(seconds * 1000)))
    return url
}

/// What ffprobe says of a file's streams, as key=value lines.
func ffprobeStreams(_ url: URL) async throws -> [[String: String]] {
    let text = String(
        decoding: try await runTool(
            ffprobePath,
            [
                "-v", "error", "-show_entries",
                "stream=codec_type,codec_name,profile,width,height,r_frame_rate,avg_frame_rate,bit_rate,sample_rate,channels,duration",
                "-of", "compact=p=0", url.path,
            ]), as: UTF8.self)
    return text.split(whereSeparator: \.isNewline).map { line in
        Dictionary(
            line.split(separator: "|").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }, uniquingKeysWith: { $1 })
    }
}

@Suite("App Store previews")
struct AppStorePreviewTests {
    @Test("A short video held to 15 s is an iphone-6.9 preview that FFmpeg reads as every rule asks")
    func heldPreviewMeetsTheRules() async throws {
        try await withTemporaryDirectory { folder in
            let source = try previewSource(in: folder, seconds: 3, every: 1)
            let target = folder.appendingPathComponent("preview.mp4")
            #expect(throws: AppStorePreviewError.tooShort(file: "source.mp4", seconds: 3)) {
                try AppStorePreview.make(from: source, to: target, options: AppStorePreviewOptions(previewClass: .iphone69))
            }
            #expect(!FileManager.default.fileExists(atPath: target.path))
            let summary = try await offPool {
                try AppStorePreview.make(
                    from: source, to: target, options: AppStorePreviewOptions(previewClass: .iphone69, holdsLast: true))
            }
            #expect(summary.duration == 15)

            let streams = try await ffprobeStreams(target)
            let video = try #require(streams.first { $0["codec_type"] == "video" })
            #expect(video["codec_name"] == "h264" && video["profile"] == "High")
            #expect(video["width"] == "886" && video["height"] == "1920")
            #expect(video["r_frame_rate"] == "30/1" && video["avg_frame_rate"] == "30/1")
            let bitRate = try #require(video["bit_rate"].flatMap(Int.init))
            #expect(AppStorePreviewRules.bitRates.contains(bitRate), "\(bitRate) bits/s")
            #expect(abs((video["duration"].flatMap(Double.init) ?? 0) - 15) < 0.01)
            let audio = try #require(streams.first { $0["codec_type"] == "audio" })
            #expect(audio["codec_name"] == "aac" && audio["sample_rate"] == "48000" && audio["channels"] == "2")

            // Every frame 1/30 s after the one before: a constant frame rate, 450 frames.
            let info = try MediaProbe.probe(target)
            #expect(info.frameCount == 450)
            let gaps = zip(info.frameTimestamps.dropFirst(), info.frameTimestamps).map { $0 - $1 }
            #expect(gaps.allSatisfy { abs($0 - 1.0 / 30) < 0.0005 })
            let atoms = try MovieAtoms.topLevel(of: target)
            #expect(try #require(atoms.firstIndex(of: "moov")) < (try #require(atoms.firstIndex(of: "mdat"))))

            // The first frame is the source's first, scaled; the last second holds its last.
            let (first, last) = try await offPool { () -> (PixelBuffer?, PixelBuffer?) in
                var first: PixelBuffer?, last: PixelBuffer?
                try FrameDecoder.forEachFrame(target) { frame in
                    if first == nil { first = frame.pixels }
                    last = frame.pixels
                    return true
                }
                return (first, last)
            }
            let point = backgroundPoint(width: 886, height: 1920)
            #expect(isClose(try #require(first).pixel(x: point.x, y: point.y), palette[0]))
            #expect(isClose(try #require(last).pixel(x: point.x, y: point.y), palette[2]))
            #expect(try await volume(of: target, from: 0, to: 15) < -80, "silent unless given a sound")
            #expect(try await offPool { try AppStorePreviewCheck.problems(of: target) } == [])
        }
    }

    @Test("A video of another shape is refused, named with its size and the class that fits it; nothing is written")
    func wrongShapeIsRefused() async throws {
        try await withTemporaryDirectory { folder in
            let source = try previewSource(in: folder, seconds: 16, every: 8)
            let target = folder.appendingPathComponent("preview.mp4")
            do throws(AppStorePreviewError) {
                try AppStorePreview.make(from: source, to: target, options: AppStorePreviewOptions(previewClass: .ipad13))
                Issue.record("a 444x962 video became an iPad preview")
            } catch {
                #expect(error == .wrongShape(file: "source.mp4", width: 444, height: 962, previewClass: .ipad13))
                #expect(
                    error.description.contains("444x962") && error.description.contains("never letterboxed")
                        && error.description.contains("--class iphone-6.9"), "\(error)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["source.mp4"])
        }
    }

    @Test("A video over 30 s is refused unless trimmed, then keeps its first 30 s, with an audio file as its AAC stereo 48 kHz track")
    func longVideoIsTrimmed() async throws {
        try await withTemporaryDirectory { folder in
            let source = try previewSource(in: folder, seconds: 31, every: 10)
            let target = folder.appendingPathComponent("preview.mov")
            do throws(AppStorePreviewError) {
                try AppStorePreview.make(from: source, to: target, options: AppStorePreviewOptions(previewClass: .iphone69))
                Issue.record("a 31 s video became a preview")
            } catch {
                #expect(error.description.contains("31.0 s") && error.description.contains("--trim"), "\(error)")
            }
            let tone = folder.appendingPathComponent("tone.wav")
            _ = try await runTool(
                ffmpegPath, ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=22050:duration=2", "-ac", "1", tone.path])
            try await offPool {
                try AppStorePreview.make(
                    from: source, to: target, options: AppStorePreviewOptions(previewClass: .iphone69, trims: true, audio: tone))
            }
            let info = try MediaProbe.probe(target)
            #expect(info.frameCount == 900)
            let audio = try await #require(try ffprobeStreams(target).first { $0["codec_type"] == "audio" })
            #expect(audio["codec_name"] == "aac" && audio["sample_rate"] == "48000" && audio["channels"] == "2")
            // The tone for two seconds, then silence to the end.
            let loud = try await volume(of: target, from: 0.2, to: 1.5), quiet = try await volume(of: target, from: 5, to: 29)
            #expect(loud > -30 && quiet < -80, "loud \(loud) dB, quiet \(quiet) dB")
            #expect(try await offPool { try AppStorePreviewCheck.problems(of: target) } == [])
        }
    }

    @Test("A video that opens on a black frame is refused: a preview's first frame shows the app")
    func blackStartIsRefused() async throws {
        try await withTemporaryDirectory { folder in
            let source = try previewSource(in: folder, seconds: 16, every: 8, opensBlack: true)
            do throws(AppStorePreviewError) {
                try AppStorePreview.make(
                    from: source, to: folder.appendingPathComponent("p.mp4"), options: AppStorePreviewOptions(previewClass: .iphone69))
                Issue.record("a video opening on black became a preview")
            } catch {
                #expect(error == .startsFlat(file: "source.mp4", colour: "black"), "\(error)")
            }
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("p.mp4").path))
        }
    }

    /// The mean volume (dB) of a stretch of a file's audio, by ffmpeg's volumedetect.
    private func volume(of url: URL, from start: Double, to end: Double) async throws -> Double {
        try await offPool { try Self.volumeBlocking(of: url, from: start, to: end) }
    }

    private static func volumeBlocking(of url: URL, from start: Double, to end: Double) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpegPath)
        process.arguments = [
            "-v", "info", "-ss", "\(start)", "-to", "\(end)", "-i", url.path, "-vn", "-af", "volumedetect", "-f", "null", "-",
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let line = text.split(whereSeparator: \.isNewline).first(where: { $0.contains("mean_volume:") }),
            let value = line.split(separator: " ").dropLast().last.flatMap({ Double($0) })
        else { return -.infinity }
        return value
    }
}
