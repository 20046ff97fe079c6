import Foundation
import Logging
import ShowreelTestSupport
import Testing

@testable import ShowreelRecorder

@Suite("Checking files against the App Store preview rules")
struct AppStorePreviewCheckTests {
    /// One valid preview, then for each rule a file that breaks it alone, made from the valid
    /// one without encoding again (ffmpeg stream copies, a patched byte, a sparse tail) where
    /// that can be done: the checker must name that rule and no other.
    @Test("Each rule broken alone is reported alone, with what the file has")
    func eachRuleAlone() async throws {
        try await withTemporaryDirectory { folder in
            let source = try previewSource(in: folder, seconds: 15.2, every: 5)
            let valid = folder.appendingPathComponent("valid.mp4")
            try await offPool {
                try AppStorePreview.make(from: source, to: valid, options: AppStorePreviewOptions(previewClass: .iphone69))
            }
            #expect(try await offPool { try AppStorePreviewCheck.problems(of: valid) } == [])

            func ffmpeg(_ name: String, _ arguments: [String]) async throws -> URL {
                let url = folder.appendingPathComponent(name)
                _ = try await runTool(ffmpegPath, ["-v", "error", "-y", "-i", valid.path] + arguments + [url.path])
                #expect(FileManager.default.fileExists(atPath: url.path), "ffmpeg made no \(name)")
                return url
            }
            var cases: [(AppStorePreviewProblem.Rule, URL, AppStorePreviewClass?, String)] = []
            cases.append((.size, valid, .ipad13, "it is 886x1920"))
            let mkv = folder.appendingPathComponent("valid.mkv")
            try FileManager.default.copyItem(at: valid, to: mkv)
            cases.append((.container, mkv, nil, ".mkv"))
            cases.append((.codec, try patchedToHigh10(valid, in: folder), nil, "High 10 profile"))
            cases.append(
                (
                    .frameRate,
                    try await ffmpeg(
                        "29fps.mp4", ["-c", "copy", "-bsf:v", "setts=pts=PTS*30/29:dts=DTS*30/29", "-movflags", "+faststart"]), nil,
                    "fps"
                ))
            cases.append(
                (
                    .bitRate,
                    try await ffmpeg("nofiller.mp4", ["-c", "copy", "-bsf:v", "filter_units=remove_types=12", "-movflags", "+faststart"]),
                    nil,
                    "Mbps"
                ))
            cases.append((.audio, try await ffmpeg("silent.mp4", ["-c", "copy", "-an", "-movflags", "+faststart"]), nil, "no audio track"))
            cases.append(
                (
                    .audio,
                    try await ffmpeg("mono.mp4", ["-c:v", "copy", "-c:a", "aac", "-ac", "1", "-ar", "44100", "-movflags", "+faststart"]),
                    nil,
                    "has 1 channel, not 2, is at 44100 Hz"
                ))
            cases.append(
                (.duration, try await ffmpeg("short.mp4", ["-c", "copy", "-t", "10", "-movflags", "+faststart"]), nil, "lasts 10.0"))
            cases.append((.moovFirst, try await ffmpeg("moovlast.mp4", ["-c", "copy"]), nil, "moov atom comes after"))
            cases.append((.fileSize, try withSparseTail(valid, in: folder), nil, "MB; app previews are at most 500 MB"))
            let blackStart = try previewSource(in: folder, seconds: 15.2, every: 5, opensBlack: true, name: "black.mp4")
            let black = folder.appendingPathComponent("black-preview.mp4")
            try await offPool {
                try AppStorePreview.make(
                    from: blackStart, to: black, options: AppStorePreviewOptions(previewClass: .iphone69),
                    checksFirstFrame: false, logger: .init(label: "test"))
            }
            cases.append((.firstFrame, black, nil, "first frame is all black"))

            for (rule, file, previewClass, words) in cases {
                let problems = try await offPool { try AppStorePreviewCheck.problems(of: file, previewClass: previewClass) }
                #expect(problems.map(\.rule) == [rule], "\(file.lastPathComponent): \(problems)")
                #expect(problems.first?.message.contains(words) == true, "\(file.lastPathComponent): \(problems)")
            }
        }
    }

    /// A copy of `file` whose H.264 says High 10 profile (110) instead of High (100), in the
    /// sample description's avcC box and in its SPS (whose fields the two profiles share): the
    /// pictures stay as they were, still 8 bits.
    private func patchedToHigh10(_ file: URL, in folder: URL) throws -> URL {
        var bytes = [UInt8](try Data(contentsOf: file))
        let marker = Array("avcC".utf8)
        let at = try #require((0..<(bytes.count - 12)).first { Array(bytes[$0..<($0 + 4)]) == marker })
        // avcC: version, profile, compatibility, level, length size, SPS count, SPS length (2), SPS NAL header, profile_idc.
        #expect(bytes[at + 5] == 100 && bytes[at + 13] == 100)
        bytes[at + 5] = 110
        bytes[at + 13] = 110
        let url = folder.appendingPathComponent("high10.mp4")
        try Data(bytes).write(to: url)
        return url
    }

    /// A copy of `file` with a top-level `free` atom after it that takes it past 500 MB: sparse,
    /// so it costs no disk.
    private func withSparseTail(_ file: URL, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("huge.mp4")
        try FileManager.default.copyItem(at: file, to: url)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let length: UInt32 = 520_000_000
        try handle.seekToEnd()
        try handle.write(contentsOf: withUnsafeBytes(of: length.bigEndian) { Data($0) } + Data("free".utf8))
        try handle.truncate(atOffset: try handle.offset() + UInt64(length) - 8)
        return url
    }
}
