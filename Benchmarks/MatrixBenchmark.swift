import Foundation
import ShowcaseApps
import ShowreelFlows
import ShowreelRecorder
import ShowreelReport

/// A matrix run (`--language en,de,ja,ar --device phone,phone-small --appearance light,dark`:
/// 16 cells) of the fixture flows against the same 16 cells made one at a time (a run each), in
/// the same process, 2 workers each, alternating. Target: no per-cell cost beyond the cell's own
/// videos, so the matrix takes at most 1.10x the wall time of its cells one at a time. Then what
/// an App Store preview costs per second of preview.
enum MatrixBenchmark {
    static let costTarget = 1.10
    static let languages = ["en", "de", "ja", "ar"], devices = ["phone", "phone-small"], appearances = ["light", "dark"]

    static func run(folder: String = "Fixtures/Flows", rounds: Int) throws -> [String] {
        let work = URL(fileURLWithPath: "/tmp/srb-matrix-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        let (flows, _) = try FlowBenchmark.fixtureFlows(in: folder, work: work)
        let matrix = try RunMatrix(languages: languages, devices: devices, appearances: appearances)
        var cells: [RunMatrix] = []
        for language in languages {
            for device in devices {
                for appearance in appearances {
                    cells.append(try RunMatrix(languages: [language], devices: [device], appearances: [appearance]))
                }
            }
        }
        var best: [String: (wall: Double, video: Double, cpu: Double)] = [:]
        for round in 0..<max(1, min(rounds, 2)) {
            let order = round.isMultiple(of: 2) ? ["cells", "matrix"] : ["matrix", "cells"]
            for name in order {
                let run: (wall: Double, video: Double, cpu: Double)
                if name == "matrix" {
                    run = try measure(matrix.jobs(for: flows), output: work.appendingPathComponent("matrix-\(round)"))
                } else {
                    var sum = (wall: 0.0, video: 0.0, cpu: 0.0)
                    for (index, cell) in cells.enumerated() {
                        let one = try measure(cell.jobs(for: flows), output: work.appendingPathComponent("cell\(index)-\(round)"))
                        sum = (sum.wall + one.wall, sum.video + one.video, sum.cpu + one.cpu)
                    }
                    run = sum
                }
                if run.wall < best[name]?.wall ?? .infinity { best[name] = run }
            }
        }
        let one = best["cells"]!, all = best["matrix"]!
        // The same videos either way; per video second, should a flow's length vary by a frame.
        let ratio = (all.wall / all.video) / (one.wall / one.video)
        let preview = try previewCost(flows: flows, work: work)
        let figures = BenchFigures.shared
        figures.record("matrix.cell_cost_ratio", ratio)
        figures.record("matrix.cpu_seconds_per_video_second", all.cpu / all.video)
        figures.record("matrix.preview_seconds_per_preview_second", preview.wall / preview.seconds)
        return [
            String(
                format:
                    "Matrix run: %@ (%d flows) in 16 cells (4 languages x phone, phone-small x light, dark), 2 workers, 390x844 and 376x668 H.264",
                folder, flows.count),
            String(
                format: "  16 cells one at a time (16 runs): %6.2f s wall  %6.1f s of video  %5.1f video s per wall s  %5.2f s CPU",
                one.wall,
                one.video, one.video / one.wall, one.cpu),
            String(
                format: "  16 cells as one matrix run:       %6.2f s wall  %6.1f s of video  %5.1f video s per wall s  %5.2f s CPU",
                all.wall,
                all.video, all.video / all.wall, all.cpu),
            String(
                format: "  CPU per video second: %.3f s one cell at a time, %.3f s in the matrix", one.cpu / one.video, all.cpu / all.video),
            targetLine(
                ratio <= costTarget,
                String(format: "no per-cell cost: the matrix costs <= %.2fx its cells made one at a time: %.2fx", costTarget, ratio)),
            String(
                format:
                    "  App Store preview (iphone-6.9, 886x1920, 30 fps, 11 Mbps, from an 880x1912 phone-6.9 recording): %.3f s wall and %.3f s CPU per preview second (%.1f s preview in %.2f s)",
                preview.wall / preview.seconds, preview.cpu / preview.seconds, preview.seconds, preview.wall),
        ]
    }

    /// Runs `jobs` with 2 workers; wall and CPU seconds, and seconds of video made.
    private static func measure(_ jobs: [RunJob], output: URL) throws -> (wall: Double, video: Double, cpu: Double) {
        let runner = MatrixRunner(
            options: FlowRunOptions(
                output: output, apps: ShowcaseCatalog.apps,
                recording: RecordingOptions(scale: FlowBenchmark.defaultScale)))
        let start = monotonicSeconds()
        let usage = Usage.current()
        let entries = wait { await runner.run(jobs, workers: 2).entries }
        let wall = monotonicSeconds() - start
        let cpu = Usage.current().since(usage).cpuSeconds
        try? FileManager.default.removeItem(at: output)
        if let failed = entries.first(where: { $0.status != .passed }) {
            throw BenchmarkError("flow \(failed.id) failed: \(failed.failures.map(\.message).joined(separator: "; "))")
        }
        return (wall, entries.reduce(0) { $0 + $1.duration }, cpu)
    }

    /// The longest fixture flow recorded on the 6.9-inch phone at its pixels, made into an
    /// iphone-6.9 preview (held to 15 s or trimmed to 30 s): wall and CPU seconds, preview seconds.
    private static func previewCost(flows: [Flow], work: URL) throws -> (wall: Double, cpu: Double, seconds: Double) {
        let output = work.appendingPathComponent("preview")
        let jobs = try RunMatrix(devices: ["phone-6.9"]).jobs(for: flows)
        let runner = MatrixRunner(
            options: FlowRunOptions(
                output: output, apps: ShowcaseCatalog.apps, recording: RecordingOptions(scale: 1),
                traces: false, previews: false))
        let entries = wait { await runner.run(jobs, workers: 2).entries }
        guard let longest = entries.filter({ $0.status == .passed }).max(by: { $0.duration < $1.duration }), let video = longest.video
        else {
            throw BenchmarkError("no fixture flow passed on phone-6.9")
        }
        let start = monotonicSeconds()
        let usage = Usage.current()
        let summary = try AppStorePreview.make(
            from: output.appendingPathComponent(video), to: output.appendingPathComponent("preview.mp4"),
            options: AppStorePreviewOptions(previewClass: .iphone69, holdsLast: true, trims: true))
        return (monotonicSeconds() - start, Usage.current().since(usage).cpuSeconds, summary.duration)
    }

    /// Waits for `body` (the benchmark's threads are not async).
    private static func wait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = Box<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            box.value = await body()
            done.signal()
        }
        done.wait()
        return box.value!
    }

    private final class Box<T>: @unchecked Sendable {
        var value: T?
    }
}
