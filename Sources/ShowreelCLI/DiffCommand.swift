import ArgumentParser
import Foundation
import ShowreelDiff
import ShowreelReport

/// `showreel diff`: two runs of the same flows or tests, compared video by video.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two runs frame by frame: which flows or tests changed, where and when first.",
        discussion: """
            Reads manifest.json in both folders (written by `showreel run` or a recorded test run) \
            and decodes each entry's videos on both sides. Recordings on the virtual clock are \
            deterministic, so any difference is a change: for each one it prints the time in the \
            video, the step that was running, the changed area, and writes a picture of baseline, \
            current and their difference into CURRENT/diff/. The current run's report.html gets \
            a diff section, and CURRENT/diff/diff.json holds the same as data. \
            Exit status: 0 when nothing changed, 1 when anything changed, appeared or went \
            away, 64 for a folder that is missing or holds no run.
            """)

    @Argument(help: "The run to compare against (a folder with manifest.json).")
    var baseline: String

    @Argument(help: "The run to check (a folder with manifest.json); its report gets the diff section.")
    var current: String

    @Option(help: "The largest difference in a colour channel (0-255) that still counts as the same pixel.")
    var threshold = 0

    func validate() throws {
        guard (0...255).contains(threshold) else {
            throw ValidationError("--threshold must be from 0 (exact) to 255, got \(threshold)")
        }
    }

    func run() async throws {
        try await reportingFailures { try compare() }
    }

    private func compare() throws {
        let comparison = RunComparison(
            baseline: URL(fileURLWithPath: baseline, isDirectory: true).standardizedFileURL,
            current: URL(fileURLWithPath: current, isDirectory: true).standardizedFileURL,
            threshold: threshold)
        let diff: RunDiff
        do {
            diff = try comparison.compare { id in Console.status("comparing \(id)") }
        } catch let problem as RunComparison.Problem {
            throw CLIFailure(message: problem.description, exitCode: CLIFailure.Code.usage)
        }
        try FileManager.default.createDirectory(at: comparison.outputFolder, withIntermediateDirectories: true)
        try diff.write(to: comparison.outputFolder.appendingPathComponent(RunDiff.fileName))
        let manifest = try RunManifest.load(from: comparison.current.appendingPathComponent(RunManifest.fileName))
        try HTMLReport(manifest: manifest, diff: diff).write(to: comparison.current.appendingPathComponent(HTMLReport.fileName))
        for entry in diff.entries { Console.out(Self.line(entry)) }
        Console.out(
            "\(diff.count(.changed)) changed, \(diff.count(.identical)) identical"
                + (diff.count(.onlyInBaseline) + diff.count(.onlyInCurrent) > 0
                    ? ", \(diff.count(.onlyInBaseline)) only in the baseline, \(diff.count(.onlyInCurrent)) only in the current run" : "")
                + (diff.count(.notCompared) > 0 ? ", \(diff.count(.notCompared)) not compared" : "")
                + ". Report: \(comparison.current.appendingPathComponent(HTMLReport.fileName).path)")
        if diff.hasChanges { throw ExitCode(1) }
    }

    static func line(_ entry: RunDiff.Entry) -> String {
        var text = "\(entry.outcome.rawValue): \(entry.name)"
        if let time = entry.time { text += String(format: " at %.3f s", time) }
        if let step = entry.step, let index = entry.stepIndex { text += ", step \(index + 1) (\(step))" }
        if let area = entry.area { text += ", \(area.width)x\(area.height) px at (\(area.x), \(area.y))" }
        if let note = entry.note { text += "; \(note)" }
        if let image = entry.image { text += " [\(image)]" }
        return text
    }
}
