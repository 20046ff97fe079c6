import Foundation
import ShowcaseApps
import ShowreelFlows
import ShowreelRecorder
import ShowreelReport
import ShowreelUI

/// What finishing a flow video costs on top of recording it: the stream-copy remux that puts the
/// steps in as chapters and subtitles, and the animated preview, per second of video (wall time
/// and bytes). The fixture flows and Fixtures/Previews' 30-second one are recorded once at `showreel run`'s
/// default size; then each step is redone on those videos, fastest of `rounds`.
enum StepTracksBenchmark {
    static let previewTargetBytes = 2_000_000

    static func run(folder: String = "Fixtures/Flows", rounds: Int) throws -> [String] {
        let work = URL(fileURLWithPath: "/tmp/srb-steps-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let long = "Fixtures/Previews/thirty-seconds.yaml"
        let files = try FlowDiscovery.files(in: [folder, long])
        let parser = FlowParser(knownApps: ShowcaseCatalog.apps.map(\.bundleIdentifier))
        let flows = try files.map { file throws -> Flow in try parser.parse(fileAt: URL(fileURLWithPath: file), id: file) }
        let output = work.appendingPathComponent("videos")
        let entries = try record(flows, output: output).filter { $0.video != nil }

        var remuxWall = 0.0, previewWall = 0.0, remuxCPU = 0.0, previewCPU = 0.0, video = 0.0
        var stepBytes = 0, previewBytes = 0, videoBytes = 0, previewWidth = 0
        var longPreview: (bytes: Int, seconds: Double, frames: Int)?
        for entry in entries {
            let source = output.appendingPathComponent(entry.video!)
            let marks = entry.steps.map { StepMark(title: $0.title, time: $0.time) }
            let with = work.appendingPathComponent("with-steps.\(source.pathExtension)")
            let without = work.appendingPathComponent("without.\(source.pathExtension)")
            let preview = work.appendingPathComponent("preview.webp")
            var best = (remux: (wall: Double.infinity, cpu: 0.0), preview: (wall: Double.infinity, cpu: 0.0))
            var summary: PreviewSummary?
            for _ in 0..<rounds {
                let remux = try time { try StepTracks.write(marks, from: source, to: with) }
                if remux.wall < best.remux.wall { best.remux = remux }
                let made = try time { summary = try AnimatedPreview.write(from: source, to: preview) }
                if made.wall < best.preview.wall { best.preview = made }
            }
            // The same copy with no steps: the difference is what the chapters and subtitles weigh.
            try StepTracks.write([], from: source, to: without)
            stepBytes += try size(with) - size(without)
            videoBytes += try size(without)
            previewBytes += summary!.bytes
            remuxWall += best.remux.wall
            previewWall += best.preview.wall
            remuxCPU += best.remux.cpu
            previewCPU += best.preview.cpu
            video += entry.duration
            previewWidth = summary!.width
            if entry.id == long { longPreview = (summary!.bytes, entry.duration, summary!.frames) }
        }
        var lines = [
            String(
                format: "Steps in the videos, previews: %d flow videos, %.1f s (390x844 H.264, run's default size; fastest of %d)",
                entries.count, video, rounds),
            String(
                format:
                    "  chapters + subtitles (stream-copy remux): %6.1f ms wall %6.1f ms CPU per video second  %6.0f bytes per video second (%.2f%% of the video's %.0f)",
                remuxWall / video * 1000, remuxCPU / video * 1000, Double(stepBytes) / video,
                Double(stepBytes) / Double(videoBytes) * 100, Double(videoBytes) / video),
            String(
                format:
                    "  preview (webp, %d px wide, 10 fps):         %6.1f ms wall %6.1f ms CPU per video second  %6.0f bytes per video second",
                previewWidth, previewWall / video * 1000, previewCPU / video * 1000, Double(previewBytes) / video),
            String(
                format: "  both: %.2f s wall, %.2f s CPU for a minute of flow video", (remuxWall + previewWall) / video * 60,
                (remuxCPU + previewCPU) / video * 60),
        ]
        if let longPreview {
            lines.append(
                String(
                    format: "  %@  a %.0f s flow's preview under %.0f MB: %.0f KB, %d frames",
                    longPreview.bytes < previewTargetBytes ? "PASS" : "FAIL", longPreview.seconds,
                    Double(previewTargetBytes) / 1e6, Double(longPreview.bytes) / 1000, longPreview.frames))
        }
        return lines
    }

    /// Wall and CPU seconds (this process's, the codecs' threads included) that `work` took.
    private static func time(_ work: () throws -> Void) throws -> (wall: Double, cpu: Double) {
        let start = monotonicSeconds()
        let usage = Usage.current()
        try work()
        return (monotonicSeconds() - start, Usage.current().since(usage).cpuSeconds)
    }

    private static func size(_ url: URL) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
    }

    /// Records `flows` once (failures too: the debug aids' flows fail in a release build and
    /// still leave their videos).
    private static func record(_ flows: [Flow], output: URL) throws -> [ManifestEntry] {
        let runner = FlowRunner(
            options: FlowRunOptions(
                output: output, apps: ShowcaseCatalog.apps,
                recording: RecordingOptions(scale: FlowBenchmark.defaultScale)))
        return FlowBenchmark.entries(runner, flows, workers: 2)
    }
}
