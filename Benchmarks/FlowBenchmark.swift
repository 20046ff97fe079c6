import Foundation
import ShowcaseApps
import ShowreelFlows
import ShowreelRecorder
import ShowreelReport
import ShowreelUI

/// `showreel run` throughput: the fixture flows, repeated to at least a minute of video, run
/// with 2 workers and with 1 in the same process, alternating, fastest of `rounds` each.
/// Targets: 60 s of flow video in at most 2 s of wall time with 2 workers at the default size, 4 s
/// at `--scale 1` (release build); and the CPU seconds a minute of video costs.
enum FlowBenchmark {
    static let videoTarget = 60.0
    /// Wall seconds a minute of video may take with 2 workers: at `showreel run`'s default size,
    /// and at every device pixel (`--scale 1`).
    static let wallTarget = 2.0
    static let wallTargetScale1 = 4.0

    static func run(folder: String = "Fixtures/Flows", rounds: Int) throws -> [String] {
        let work = URL(fileURLWithPath: "/tmp/srb-flows-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        let (once, debugOnly) = try fixtureFlows(in: folder, work: work)

        // One warm-up run gives each flow's length; repeat the set to reach a minute.
        let warmUp = try measure(once, workers: 2, scale: defaultScale, output: work.appendingPathComponent("warm-up"))
        let copies = Int((videoTarget / max(warmUp.video, 0.1)).rounded(.up))
        let flows = (0..<copies).flatMap { copy in
            once.map { flow in
                var flow = flow
                flow.id += "#\(copy)"
                return flow
            }
        }
        // Keyed by workers, at `showreel run`'s default size; 0 is 2 workers at every device pixel (--scale 1).
        var best: [Int: Double] = [:]
        var cpu: [Int: Double] = [:]
        var video = 0.0
        for round in 0..<rounds {
            for workers in [2, 1, 0] {
                let run = try measure(
                    flows, workers: workers == 0 ? 2 : workers, scale: workers == 0 ? 1 : defaultScale,
                    output: work.appendingPathComponent("r\(round)-w\(workers)"))
                if run.wall < best[workers] ?? .infinity { (best[workers], cpu[workers]) = (run.wall, run.cpu) }
                video = run.video
            }
        }
        let rate2 = video / best[2]!, rate1 = video / best[1]!
        // The machine may be shared: the load says how much of it the figures had.
        let load = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.map(String.init) ?? "?"
        let wallFor60 = videoTarget / rate2
        // What a minute costs in CPU, which a shared machine does not change much: on two idle
        // cores, two workers could at best split it.
        let cpuFor60 = cpu[2]! / video * videoTarget
        let wallFor60Scale1 = videoTarget / (video / best[0]!)
        let cpuFor60Scale1 = cpu[0]! / video * videoTarget
        let figures = BenchFigures.shared
        figures.record("flows.seconds_per_video_minute", wallFor60)
        figures.record("flows.seconds_per_video_minute_scale1", wallFor60Scale1)
        figures.record("flows.cpu_seconds_per_video_minute", cpuFor60)
        figures.record("flows.cpu_seconds_per_video_minute_scale1", cpuFor60Scale1)
        figures.record("flows.workers_2_over_1", rate2 / rate1)
        return [
            String(
                format:
                    "Flows: %@ x%d = %d flows, %.1f s of video (390x844 H.264, run's default size; virtual clock, in-process devices; fastest of %d)",
                folder, copies, flows.count, video, rounds),
            "  left out: \(debugOnly.isEmpty ? "none" : debugOnly.sorted().joined(separator: ", ")) (debug aids, absent from a release build)",
            // x264 and swscale run threads of their own, so one worker already keeps cores busy.
            String(
                format: "  --workers 1: %6.2f s wall  %5.1f video s per wall s  %5.2f s CPU (%.1f cores busy)", best[1]!, rate1, cpu[1]!,
                cpu[1]! / best[1]!),
            String(
                format: "  --workers 2: %6.2f s wall  %5.1f video s per wall s  %5.2f s CPU (%.1f cores busy)  %.2fx --workers 1",
                best[2]!, rate2, cpu[2]!, cpu[2]! / best[2]!, rate2 / rate1),
            String(
                format: "  --workers 2 --scale 1 (780x1688): %6.2f s wall  %5.1f video s per wall s  %5.2f s CPU", best[0]!,
                video / best[0]!, cpu[0]!),
            String(
                format:
                    "  a minute of flow video costs %.1f s of CPU at 390x844 (%.1f s at 780x1688): at best %.1f s (%.1f s) wall on 2 idle cores",
                cpuFor60, cpu[0]! / video * videoTarget, cpuFor60 / 2, cpu[0]! / video * videoTarget / 2),
            String(
                format: "  CPU seconds per minute of video (what a CI bill pays): %.2f s at 390x844, %.2f s at 780x1688", cpuFor60,
                cpuFor60Scale1),
            targetLine(
                wallFor60 <= wallTarget,
                String(
                    format: "60 s of flow video in <= %.1f s wall with 2 workers: %.2f s (load average %@ on %d cores)", wallTarget,
                    wallFor60,
                    load, ProcessInfo.processInfo.activeProcessorCount)),
            targetLine(
                wallFor60Scale1 <= wallTargetScale1,
                String(format: "the same at --scale 1 (780x1688) in <= %.1f s: %.2f s", wallTargetScale1, wallFor60Scale1)),
        ]
    }

    /// The flows of `folder` that pass in this build, and the ids of those that do not: the
    /// debug aids' flows fail in a release build, which has none, so the rest are measured.
    static func fixtureFlows(in folder: String, work: URL) throws -> (flows: [Flow], debugOnly: Set<String>) {
        let files = try FlowDiscovery.files(in: [folder])
        let parser = FlowParser(knownApps: ShowcaseCatalog.apps.map(\.bundleIdentifier))
        let parsed = try files.map { file throws -> Flow in try parser.parse(fileAt: URL(fileURLWithPath: file), id: file) }
        let debugOnly = try releaseFailures(parsed, output: work.appendingPathComponent("probe"))
        return (parsed.filter { !debugOnly.contains($0.id) }, debugOnly)
    }

    /// The ids of the flows that fail when run once (the debug aids' flows, in a release build).
    private static func releaseFailures(_ flows: [Flow], output: URL) throws -> Set<String> {
        let runner = FlowRunner(
            options: FlowRunOptions(
                output: output, apps: ShowcaseCatalog.apps,
                recording: RecordingOptions(scale: 0.25)))
        let entries = entries(runner, flows, workers: 2)
        try? FileManager.default.removeItem(at: output)
        return Set(entries.filter { $0.status != .passed }.map(\.id))
    }

    /// `showreel run`'s default size: the screen's point size.
    static let defaultScale = 0.5

    /// Runs `flows` into `output` and returns wall seconds and seconds of video made; the
    /// output is removed afterwards unless `keep`.
    static func measure(
        _ flows: [Flow], workers: Int, scale: Double, output: URL, traces: Bool = true,
        keep: Bool = false
    ) throws -> (wall: Double, video: Double, cpu: Double) {
        let runner = FlowRunner(
            options: FlowRunOptions(
                output: output, apps: ShowcaseCatalog.apps, recording: RecordingOptions(scale: scale),
                traces: traces))
        let start = monotonicSeconds()
        let usage = Usage.current()
        let entries = entries(runner, flows, workers: workers)
        let wall = monotonicSeconds() - start
        let cpu = Usage.current().since(usage).cpuSeconds
        if let failed = entries.first(where: { $0.status != .passed }) {
            throw BenchmarkError("flow \(failed.id) failed: \(failed.failures.map(\.message).joined(separator: "; "))")
        }
        if keep {
            try RunManifest(title: "bench", entries: entries).write(to: output.appendingPathComponent(RunManifest.fileName))
        } else {
            try? FileManager.default.removeItem(at: output)
        }
        return (wall, entries.reduce(0) { $0 + $1.duration }, cpu)
    }

    /// Runs `flows` with `runner` and waits for their entries (the benchmark's threads are not async).
    static func entries(_ runner: FlowRunner, _ flows: [Flow], workers: Int) -> [ManifestEntry] {
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.entries = await runner.run(flows, workers: workers)
            done.signal()
        }
        done.wait()
        return box.entries
    }

    private final class ResultBox: @unchecked Sendable {
        var entries: [ManifestEntry] = []
    }
}
