import Foundation
import ShowreelFlows
import ShowreelRender
import ShowreelUI

/// What shaped text (Pango and HarfBuzz, `TextEngine.path = .shaped`) costs against the toy
/// Cairo text path it replaced (`.toy`), measured in the same run on the same screens: the
/// render cost per frame of each sample screen, and the fixture flows' video seconds per wall
/// second (alternating rounds, fastest kept). Target: flows within 10% of the toy path.
enum TextShapingBenchmark {
    static let targetRatio = 0.9

    static func run(folder: String = "Fixtures/Flows", rounds: Int) throws -> [String] {
        defer { TextEngine.path = .shaped }
        var lines = ["Text shaping (Pango/HarfBuzz) against the toy Cairo text path, render cost per frame (phone 780x1688)"]
        let bench = RenderBenchmark(framesPerScreen: 30)
        var totals: [TextEngine.Path: Double] = [:]
        for screen in RenderBenchmark.screens {
            var cost: [TextEngine.Path: Double] = [:]
            for round in 0..<rounds {
                for path in round % 2 == 0 ? [TextEngine.Path.toy, .shaped] : [.shaped, .toy] {
                    TextEngine.path = path
                    cost[path] = min(cost[path] ?? .infinity, try bench.steadyFrame(screen, profile: .phone))
                }
            }
            totals[.toy, default: 0] += cost[.toy]!
            totals[.shaped, default: 0] += cost[.shaped]!
            lines.append(
                String(
                    format: "  %@ toy %6.2f ms   shaped %6.2f ms   %+.0f%%",
                    screen.name.padding(toLength: 26, withPad: " ", startingAt: 0), cost[.toy]!, cost[.shaped]!,
                    (cost[.shaped]! / cost[.toy]! - 1) * 100))
        }
        lines.append(
            String(
                format: "  all screens: shaped costs %+.2f ms per frame (%+.0f%%)",
                (totals[.shaped]! - totals[.toy]!) / Double(RenderBenchmark.screens.count),
                (totals[.shaped]! / totals[.toy]! - 1) * 100))

        let work = URL(fileURLWithPath: "/tmp/srb-text-\(getpid())")
        defer { try? FileManager.default.removeItem(at: work) }
        let flows = try FlowBenchmark.fixtureFlows(in: folder, work: work).flows
        var speed: [TextEngine.Path: Double] = [:]
        var video = 0.0
        for round in 0..<rounds {
            for path in round % 2 == 0 ? [TextEngine.Path.toy, .shaped] : [.shaped, .toy] {
                TextEngine.path = path
                let run = try FlowBenchmark.measure(
                    flows, workers: 2, scale: FlowBenchmark.defaultScale,
                    output: work.appendingPathComponent("r\(round)-\(path)"))
                speed[path] = max(speed[path] ?? 0, run.video / run.wall)
                video = run.video
            }
        }
        let ratio = speed[.shaped]! / speed[.toy]!
        BenchFigures.shared.record("text.shaped_over_toy", ratio)
        lines.append(
            String(format: "Fixture flows (%@, %d flows, %.1f s of video, 2 workers, best of %d):", folder, flows.count, video, rounds))
        lines.append(String(format: "  toy text:    %6.2f video s per wall s", speed[.toy]!))
        lines.append(String(format: "  shaped text: %6.2f video s per wall s   %.2fx of the toy path", speed[.shaped]!, ratio))
        lines.append(
            String(format: "  target: shaped >= %.0f%% of the toy path: %@", targetRatio * 100, ratio >= targetRatio ? "PASS" : "FAIL"))
        return lines
    }
}
