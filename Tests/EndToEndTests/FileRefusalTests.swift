import Foundation
import ShowreelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Files and folders that are not what a command expects get one sentence and a documented exit
/// status: a FIFO is refused (never read, which would wait forever), FFmpeg's own log lines stay
/// out of the sentence, an output folder that cannot be written is 73; and a name no file name
/// can hold is linked to the file that was written.
@Suite("Bad files: one sentence, a documented exit status")
struct FileRefusalTests {
    func run(_ arguments: [String], in workspace: Workspace, name: String) async throws -> ChildProcess {
        try await FlowRunTests().run(arguments, in: workspace, name: name)
    }

    @Test("preview and preview --check refuse a FIFO in one sentence instead of blocking on it")
    func fifo() async throws {
        let workspace = try Workspace()
        let fifo = workspace.file("pipe.mov")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let check = try await run(["preview", "--check", fifo.path], in: workspace, name: "check")
        #expect(check.terminationStatus == 1)
        #expect(check.stdout.contains("pipe.mov is a FIFO (named pipe), not a regular file"), "\(check.stdout)")
        let make = try await run(["preview", fifo.path, "--class", "iphone-6.9"], in: workspace, name: "make")
        #expect(make.terminationStatus == 1)
        #expect(make.stderr.contains("is a FIFO (named pipe), not a regular file"), "\(make.stderr)")
    }

    @Test("a file FFmpeg cannot read is one line: FFmpeg's own log lines (moov atom not found) stay out")
    func ffmpegLinesStayOut() async throws {
        let workspace = try Workspace()
        let truncated = workspace.file("truncated.mp4")
        try Data([0, 0, 0, 0x18] + Array("ftypmp42".utf8)).write(to: truncated)
        let zeros = workspace.file("zeros.mov")
        try Data(count: 100_000).write(to: zeros)
        let check = try await run(["preview", "--check", truncated.path, zeros.path], in: workspace, name: "check")
        #expect(check.terminationStatus == 1)
        let lines = (check.stdout + check.stderr).split(separator: "\n")
        #expect(lines.count == 2, "one sentence a file: \(lines)")
        #expect(lines.allSatisfy { $0.contains("cannot be read as a video") }, "\(lines)")
        #expect(!(check.stdout + check.stderr).contains("showreel.ffmpeg") && !(check.stderr).contains("moov atom"))
    }

    @Test("report merge into an --output it cannot create exits 73, as run does, with one sentence")
    func mergeUnwritable() async throws {
        let workspace = try Workspace()
        let shard = workspace.file("shard")
        try FileManager.default.createDirectory(at: shard, withIntermediateDirectories: true)
        try Data(#"{"title": "t", "createdAt": "2026-11-27T00:00:00Z", "entries": []}"#.utf8)
            .write(to: shard.appendingPathComponent("manifest.json"))
        let blocker = try workspace.write("file", "not a folder")
        let merge = try await run(
            ["report", "merge", shard.path, "--output", blocker.appendingPathComponent("out").path], in: workspace, name: "merge")
        #expect(merge.terminationStatus == 73, "\(merge.stderr)")
        #expect(merge.stderr.hasPrefix("error: Could not write the merged report into"), "\(merge.stderr)")
        #expect(merge.stderr.contains("Choose an --output folder you can write."))
    }

    @Test("a WebDriver session named with a NUL: the manifest and summary.md link its video where it was written, as its preview")
    func nulInName() async throws {
        let workspace = try Workspace()
        let server = try await WebDriverSuiteTests.Server.start(workspace)
        let created =
            try await server.value(
                "POST", "/session",
                [
                    "capabilities": [
                        "alwaysMatch": [
                            "platformName": "iOS", "appium:bundleId": "dev.showreel.hello", "showreel:record": true,
                            "showreel:name": "a\u{0}b",
                        ]
                    ]
                ]) as? [String: Any]
        let session = try #require(created?["sessionId"] as? String)
        _ = try await server.value("DELETE", "/session/\(session)")
        try await server.stop()
        let manifest = try RunManifestFile(server.output)
        let entry = try #require(manifest.entries.first)
        let video = try #require(entry["video"] as? String), preview = try #require(entry["preview"] as? String)
        for file in [video, preview] {
            #expect(FileManager.default.fileExists(atPath: server.output.appendingPathComponent(file).path), "\(file) is not on disk")
        }
        let summary = try String(contentsOf: server.output.appendingPathComponent("summary.md"), encoding: .utf8)
        // One rule for both links: each percent-encodes the name the file has.
        let encoded = { (name: String) in name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? name }
        #expect(summary.contains("[video](\(encoded(video)))") && summary.contains("<img src=\"\(encoded(preview))\""), "\(summary)")
        #expect(summary.contains("| a\\u{0}b |"), "the name reads as the report shows it: \(summary)")
        #expect(!summary.contains("\u{0}"))
    }
}
