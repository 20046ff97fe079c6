import Foundation
import ShowreelDiff
import ShowreelFlows
import ShowreelReport

/// What the report's step traces add to `showreel run` (wall time and bytes, with against
/// without, alternating rounds), and how fast `showreel diff` compares two runs (video seconds
/// compared per wall second, a run against a copy of itself: every frame decoded on both sides).
enum TraceBenchmark {
    static func run(folder: String = "Fixtures/Flows", rounds: Int) throws -> [String] {
        let work = URL(fileURLWithPath: "/tmp/srb-traces-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        let flows = try FlowBenchmark.fixtureFlows(in: folder, work: work).flows

        var best: [Bool: Double] = [:]
        var video = 0.0
        for round in 0..<rounds {
            for traces in round % 2 == 0 ? [true, false] : [false, true] {
                let run = try FlowBenchmark.measure(
                    flows, workers: 2, scale: FlowBenchmark.defaultScale,
                    output: work.appendingPathComponent("r\(round)-\(traces)"), traces: traces)
                best[traces] = min(best[traces] ?? .infinity, run.wall)
                video = run.video
            }
        }
        // One run kept: its bytes, and the diff against a copy of itself.
        let kept = work.appendingPathComponent("kept")
        _ = try FlowBenchmark.measure(flows, workers: 2, scale: FlowBenchmark.defaultScale, output: kept, keep: true)
        let names = try FileManager.default.contentsOfDirectory(atPath: kept.path)
        func bytes(_ suffix: String) throws -> Int {
            try names.filter { $0.hasSuffix(suffix) }.reduce(0) { total, name in
                total + ((try FileManager.default.attributesOfItem(atPath: kept.appendingPathComponent(name).path)[.size] as? Int) ?? 0)
            }
        }
        let traceBytes = try bytes(".trace.json"), videoBytes = try bytes(".mov")
        let copy = work.appendingPathComponent("copy")
        try FileManager.default.copyItem(at: kept, to: copy)
        let start = monotonicSeconds()
        let diff = try RunComparison(baseline: kept, current: copy).compare()
        let diffWall = monotonicSeconds() - start
        let compared = diff.entries.filter { $0.outcome == .identical }.count
        return [
            String(format: "Step traces: %@, %d flows, %.1f s of video, 2 workers, fastest of %d", folder, flows.count, video, rounds),
            String(format: "  with traces:    %6.2f s wall", best[true]!),
            String(
                format: "  without traces: %6.2f s wall   traces add %+.0f%% wall", best[false]!, (best[true]! / best[false]! - 1) * 100),
            String(
                format: "  traces: %.0f KiB for %.1f s of video (%.1f KiB per video second), %.0f%% of the videos' %.0f KiB",
                Double(traceBytes) / 1024, video, Double(traceBytes) / 1024 / video, Double(traceBytes) / Double(max(videoBytes, 1)) * 100,
                Double(videoBytes) / 1024),
            String(
                format: "showreel diff of that run against a copy: %d of %d flows identical, %.2f s wall, %.1f video s compared per wall s",
                compared, diff.entries.count, diffWall, video / diffWall),
        ]
    }
}
