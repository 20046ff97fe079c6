import Foundation
import ShowcaseApps
import ShowreelFlows
import ShowreelRecorder
import ShowreelReport

/// A matrix run (`--language en,de,ja,ar --device phone,phone-small --appearance light,dark`:
/// 16 cells) of the fixture flows against the single-cell run of the same flows, in the same
/// process, 2 workers each: video seconds made per wall second. Target: no per-cell cost beyond
/// the cell's own video, so the matrix makes video at least 90% as fast as the single cell
/// (both devices are phones of about the same size, so a cell's video costs what one flow's
/// does). Then what an App Store preview costs per second of preview.
enum MatrixBenchmark {
    static let rateTarget = 0.9

    static func run(folder: String = "Fixtures/Flows", rounds: Int) throws -> [String] {
        let work = URL(fileURLWithPath: "/tmp/srb-matrix-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        let (flows, _) = try FlowBenchmark.fixtureFlows(in: folder, work: work)
        let matrix = try RunMatrix(
            languages: ["en", "de", "ja", "ar"], devices: ["phone", "phone-small"], appearances: ["light", "dark"])
        let single = try RunMatrix(languages: ["en"], devices: ["phone"], appearances: ["light"])
        var best: [String: (wall: Double, video: Double, cpu: Double)] = [:]
        for round in 0..<max(1, min(rounds, 2)) {
            for (name, axes) in [("single", single), ("matrix", matrix)] {
                let run = try measure(axes.jobs(for: flows), output: work.appendingPathComponent("\(name)-\(round)"))
                if run.wall < best[name]?.wall ?? .infinity { best[name] = run }
            }
        }
        let one = best["single"]!, all = best["matrix"]!
        let rateOne = one.video / one.wall, rateAll = all.video / all.wall
        let ratio = rateAll / rateOne
        let preview = try previewCost(flows: flows, work: work)
        return [
            String(
                format:
                    "Matrix run: %@ (%d flows) in 16 cells (4 languages x phone, phone-small x light, dark), 2 workers, 390x844 and 376x668 H.264",
                folder, flows.count),
            String(
                format: "  single cell (en-phone-light): %6.2f s wall  %6.1f s of video  %5.1f video s per wall s  %5.2f s CPU", one.wall,
                one.video, rateOne, one.cpu),
            String(
                format:
                    "  16 cells:                     %6.2f s wall  %6.1f s of video  %5.1f video s per wall s  %5.2f s CPU  %.2fx the single cell's rate",
                all.wall, all.video, rateAll, all.cpu, ratio),
            String(format: "  CPU per video second: %.3f s single cell, %.3f s in the matrix", one.cpu / one.video, all.cpu / all.video),
            String(
                format: "  %@  no per-cell cost: the matrix makes video at >= %.0f%% of the single cell's rate: %.0f%%",
                ratio >= rateTarget ? "PASS" : "FAIL", rateTarget * 100, ratio * 100),
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
