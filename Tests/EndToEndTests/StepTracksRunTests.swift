import Foundation
import ShowreelRecorder
import ShowreelReport
import ShowreelTestSupport
import Testing

/// `showreel run`'s videos carry their steps (chapters, subtitles), a preview each, and the run a summary.md.
@Suite("showreel run: chapters, subtitles, previews, summary")
struct StepTracksRunTests {
    static let failingFlow = """
        appId: dev.showreel.hello
        name: "Hello: | a pipe, and a step that fails"
        ---
        - launchApp
        - tapOn: {id: tapButton}
        - assertVisible: {text: "Tapped 5 times", timeout: 1}
        """

    @Test("each flow's video has a chapter and a subtitle per step, a preview, and summary.md lists them (run and merge)")
    func stepsPreviewsSummary() async throws {
        let workspace = try Workspace()
        let flows = workspace.file("flows")
        try FileManager.default.createDirectory(at: flows, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: FlowRunTests.repository.appendingPathComponent("Fixtures/Previews/thirty-seconds.yaml"),
            to: flows.appendingPathComponent("taps.yaml"))
        try Self.failingFlow.write(to: flows.appendingPathComponent("fails.yaml"), atomically: true, encoding: .utf8)
        let output = workspace.file("Recordings")
        var environment = workspace.environment
        environment["CI"] = "true"
        let run = try ChildProcess(
            try BuildProducts.showreel, ["run", flows.path, "--output", output.path, "--workers", "2", "--container", "mp4"],
            environment: environment, in: workspace, name: "run")
        #expect(try await run.waitForExit(timeout: .seconds(180)) == 1, "one flow fails: \(run.stderr)")

        let manifest = try RunManifest.load(from: output.appendingPathComponent("manifest.json"))
        #expect(manifest.entries.map(\.status) == [.failed, .passed])
        for entry in manifest.entries {
            let video = output.appendingPathComponent(try #require(entry.video))
            // ffprobe: a chapter per step (steps that begin together share one), a mov_text track off by default.
            let marks = entry.steps.map { StepMark(title: $0.title, time: $0.time) }
            let chapters = StepMark.chapters(marks, videoEnd: entry.duration)
            #expect(chapters.count >= 2)
            let probe = try await ffprobeJSON(video, ["-show_chapters", "-show_streams"])
            let probed = probe["chapters"] as? [[String: Any]] ?? []
            #expect(probed.compactMap { ($0["tags"] as? [String: String])?["title"] } == chapters.map(\.title), "\(entry.id)")
            let streams = probe["streams"] as? [[String: Any]] ?? []
            let subtitles = streams.filter {
                $0["codec_name"] as? String == "mov_text" && ($0["tags"] as? [String: String])?["handler_name"] == "Steps"
            }
            #expect(subtitles.count == 1)
            #expect((subtitles.first?["disposition"] as? [String: Int])?["default"] == 0)
            // The subtitle packets decoded: the steps' titles, in order.
            let tracks = try MediaProbe.stepTracks(video)
            #expect(tracks.subtitles.map(\.text) == StepMark.chapters(marks, videoEnd: entry.duration, separator: "\n").map(\.title))
            #expect(
                entry.steps.allSatisfy { step in
                    tracks.subtitles.contains { $0.text.split(separator: "\n").contains(Substring(step.title)) }
                })

            // The preview: decodes, at most 480 wide, 10 fps, as long as the video.
            let previewName = try #require(entry.preview)
            #expect(previewName == video.deletingPathExtension().lastPathComponent + ".webp")
            let preview = try AnimatedWebP(url: output.appendingPathComponent(previewName))
            #expect(preview.width <= 480 && preview.width == 390)
            #expect(preview.frames.allSatisfy { $0.duration % 100 == 0 })
            #expect(abs(preview.duration - entry.duration) < 0.11, "\(preview.duration) vs \(entry.duration)")
            for index in [0, preview.frames.count / 2, preview.frames.count - 1] { _ = try preview.decodeFrame(index) }
        }
        let taps = try #require(manifest.entries.last)
        #expect(taps.duration >= 30)
        let previewBytes = try #require(
            try FileManager.default.attributesOfItem(atPath: output.appendingPathComponent("taps.webp").path)[.size] as? Int)
        #expect(previewBytes < 2_000_000, "\(previewBytes) bytes for \(taps.duration) s")

        // summary.md: a row per flow with its status, preview, video and report links.
        let summary = try String(contentsOf: output.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(summary.contains("1 passed, 1 failed"))
        let rows = summary.split(separator: "\n").filter { $0.hasPrefix("| ✅") || $0.hasPrefix("| ❌") }
        #expect(rows.count == 2)
        #expect(rows[0].contains("Hello: \\| a pipe, and a step that fails") && rows[0].contains("| failed: `"))
        #expect(
            rows[0].contains("<img src=\"fails.webp\"") && rows[0].contains("[video](fails.mp4)")
                && rows[0].contains("[report](report.html#entry-0)"))
        #expect(rows[1].contains("| passed |") && rows[1].contains("<img src=\"taps.webp\"") && rows[1].contains("[video](taps.mp4)"))

        // Merged shards: the summary's links lead to the shards' files.
        let merged = workspace.file("merged")
        let merge = try ChildProcess(
            try BuildProducts.showreel, ["report", "merge", output.path, "--output", merged.path],
            environment: environment, in: workspace, name: "merge")
        #expect(try await merge.waitForExit(timeout: .seconds(60)) == 1)
        let mergedSummary = try String(contentsOf: merged.appendingPathComponent("summary.md"), encoding: .utf8)
        #expect(mergedSummary.contains("<img src=\"../Recordings/taps.webp\"") && mergedSummary.contains("[video](../Recordings/taps.mp4)"))
    }
}
