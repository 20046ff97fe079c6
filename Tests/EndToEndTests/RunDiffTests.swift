import Foundation
import ShowreelRecorder
import ShowreelReport
import ShowreelTestSupport
import Testing

/// `showreel diff` on real runs: the built binary runs the same flows twice (the virtual clock
/// makes them frame-identical), then once with one flow changed.
@Suite("showreel diff")
struct RunDiffTests {
    static let taps = """
        appId: dev.showreel.hello
        name: Taps
        ---
        - launchApp
        - tapOn: {id: tapButton}
        - wait: 0.5
        - tapOn: {id: tapButton}
        - wait: 0.5

        """
    static let title = """
        appId: dev.showreel.hello
        name: Title
        arguments: ["--hello-title", "Same title"]
        ---
        - launchApp
        - wait: 1

        """

    func showreel(_ arguments: [String], in workspace: Workspace, name: String) async throws -> ChildProcess {
        var environment = workspace.environment
        environment["CI"] = "true"
        let process = try ChildProcess(
            try BuildProducts.showreel, arguments, environment: environment, in: workspace,
            name: name, directory: workspace.url)
        _ = try await process.waitForExit(timeout: .seconds(120))
        return process
    }

    func record(_ taps: String, _ title: String, into output: String, in workspace: Workspace) async throws {
        try FileManager.default.createDirectory(at: workspace.file("flows"), withIntermediateDirectories: true)
        try taps.write(to: workspace.file("flows/taps.yaml"), atomically: true, encoding: .utf8)
        try title.write(to: workspace.file("flows/title.yaml"), atomically: true, encoding: .utf8)
        let run = try await showreel(["run", "flows", "--output", output], in: workspace, name: "run-\(output)")
        #expect(run.terminationStatus == 0, "\(output): \(run.stderr)")
    }

    @Test("a run diffed with a rerun is identical; a changed step or launch argument is reported for that flow alone, at its step")
    func identicalAndChanged() async throws {
        let workspace = try Workspace()
        try await record(Self.taps, Self.title, into: "base", in: workspace)
        try await record(Self.taps, Self.title, into: "again", in: workspace)
        let same = try await showreel(["diff", "base", "again"], in: workspace, name: "diff-same")
        #expect(same.terminationStatus == 0, "\(same.stdout)\(same.stderr)")
        #expect(same.stdout.contains("0 changed, 2 identical"), "\(same.stdout)")

        // The second tap becomes a double tap: the video first differs when step 4 starts.
        try await record(
            Self.taps.replacingOccurrences(of: "- wait: 0.5\n- tapOn", with: "- wait: 0.5\n- doubleTapOn"),
            Self.title, into: "tapped", in: workspace)
        let tapped = try await showreel(["diff", "base", "tapped"], in: workspace, name: "diff-tapped")
        #expect(tapped.terminationStatus == 1, "\(tapped.stdout)\(tapped.stderr)")
        let diff = try RunDiff.load(from: workspace.file("tapped/diff/diff.json"))
        let byName = Dictionary(uniqueKeysWithValues: diff.entries.map { ($0.name, $0) })
        #expect(byName["Title"]?.outcome == .identical)
        let changed = try #require(byName["Taps"])
        #expect(changed.outcome == .changed)
        // The double tap's first tap is the baseline's tap; its second comes as the baseline's tap
        // has returned (the app is idle), so the baseline is in its next step by then.
        #expect(
            changed.stepIndex == 3 && changed.step == "doubleTapOn: {id: tapButton}" && changed.baselineStep == "wait: 0.5",
            "\(changed)")
        let manifest = try RunManifest.load(from: workspace.file("tapped/manifest.json"))
        let steps = try #require(manifest.entries.first { $0.name == "Taps" }?.steps)
        #expect(try #require(changed.time) >= steps[3].time && changed.time! < steps[4].time)
        let area = try #require(changed.area)
        // The button the second tap pressed (at the bottom), not the encoding noise all over the frame.
        #expect(area.y > 600 && area.height < 120 && area.x + area.width <= 390, "\(area)")
        let picture = workspace.file("tapped/" + (try #require(changed.image)))
        let info = try MediaProbe.probe(picture)
        #expect(info.width == 3 * 390 + 16 && info.height == 844)
        #expect(tapped.stdout.contains("changed: Taps at") && tapped.stdout.contains("step 4 (doubleTapOn: {id: tapButton})"))
        let report = try String(contentsOf: workspace.file("tapped/report.html"), encoding: .utf8)
        #expect(report.contains("<section class=\"diff\" id=\"diff\">") && report.contains("diff/"))

        // Another title through the launch arguments: that flow changes from its first step.
        try await record(Self.taps, Self.title.replacingOccurrences(of: "Same title", with: "Other title"), into: "titled", in: workspace)
        let titled = try await showreel(["diff", "base", "titled"], in: workspace, name: "diff-titled")
        #expect(titled.terminationStatus == 1)
        let second = try RunDiff.load(from: workspace.file("titled/diff/diff.json"))
        #expect(second.entries.map(\.outcome) == [.identical, .changed] || second.entries.map(\.outcome) == [.changed, .identical])
        #expect(second.entries.first { $0.name == "Title" }?.stepIndex == 0)
        #expect(second.entries.first { $0.name == "Taps" }?.outcome == .identical)
    }

    @Test("bad input is a usage error naming what is wrong; a flow on one side only is listed, not crashed on")
    func badInputAndOneSided() async throws {
        let workspace = try Workspace()
        try await record(Self.taps, Self.title, into: "base", in: workspace)
        let missing = try await showreel(["diff", "base", "nope"], in: workspace, name: "diff-missing")
        #expect(missing.terminationStatus == 64)
        #expect(missing.stderr.contains("nope") && missing.stderr.contains("does not exist"), "\(missing.stderr)")
        try FileManager.default.createDirectory(at: workspace.file("empty"), withIntermediateDirectories: true)
        let empty = try await showreel(["diff", "empty", "base"], in: workspace, name: "diff-empty")
        #expect(empty.terminationStatus == 64 && empty.stderr.contains("no manifest.json"), "\(empty.stderr)")
        let threshold = try await showreel(["diff", "base", "base", "--threshold", "300"], in: workspace, name: "diff-threshold")
        #expect(threshold.terminationStatus == 64)

        try FileManager.default.removeItem(at: workspace.file("flows/title.yaml"))
        let run = try await showreel(["run", "flows", "--output", "fewer"], in: workspace, name: "run-fewer")
        #expect(run.terminationStatus == 0)
        let fewer = try await showreel(["diff", "base", "fewer"], in: workspace, name: "diff-fewer")
        #expect(fewer.terminationStatus == 1)
        #expect(fewer.stdout.contains("only-in-baseline: Title") && fewer.stdout.contains("identical: Taps"), "\(fewer.stdout)")
    }
}
