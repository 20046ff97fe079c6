import Foundation
import ShowreelFlows
import ShowreelGraphics
import ShowreelReport

/// Run: the whole flow as `showreel run` runs it (`FlowRunner.run`: its own fresh device, the
/// same recording), with the video's chapters and the trace, and the steps flagged whose
/// selector stopped matching or found another element than when it was recorded.
extension StudioSession {
    package struct RunResult: Codable, Sendable {
        package struct Chapter: Codable, Sendable {
            package var title: String
            package var time: Double
            package var status: String
        }

        package struct Flag: Codable, Sendable {
            /// The step's position in the flow, from 0.
            package var step: Int
            package var message: String
            /// Where in the video it happened.
            package var time: Double?
        }

        package var id: Int
        package var status: String
        /// The video's address on the studio (`/runs/1/<flow>.mp4`).
        package var video: String?
        package var trace: String?
        /// The run's report (`report.html`, as `showreel run` writes it): the video with its steps
        /// and the trace, pictures and all.
        package var report: String?
        package var chapters: [Chapter]
        package var failure: String?
        package var flagged: [Flag]
    }

    package func runWhole() async throws -> RunResult {
        let flow = try flow(steps: document.steps)
        runCount += 1
        let id = runCount
        let folder = runs.appendingPathComponent(String(id), isDirectory: true)
        do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
            throw StudioError("cannot make a folder for the run's video: \(error)")
        }
        let entry = await runner(output: folder).run(flow, videoName: flowName)
        let report = try? HTMLReport(manifest: RunManifest(title: "Studio run \(id): \(flow.name)", entries: [entry]))
            .write(to: folder.appendingPathComponent(HTMLReport.fileName))
        let traceName = flowName + RunTrace.fileSuffix
        let trace = (try? Data(contentsOf: folder.appendingPathComponent(traceName))).flatMap {
            try? JSONDecoder().decode(RunTrace.self, from: $0)
        }
        var flags: [RunResult.Flag] = []
        if let failure = entry.failures.first {
            let step = failure.location.flatMap { stepIndex(atLocation: $0) } ?? max(0, entry.steps.count - 1)
            flags.append(RunResult.Flag(step: step, message: failure.message, time: failure.deviceTime))
        }
        if let trace, trace.steps.count <= document.steps.count {
            for (index, traced) in trace.steps.enumerated() {
                guard let recorded = recordedTargets[index], let difference = recorded.difference(from: traced),
                    !flags.contains(where: { $0.step == index })
                else { continue }
                flags.append(RunResult.Flag(step: index, message: difference, time: traced.start))
            }
        }
        return RunResult(
            id: id, status: entry.status.rawValue, video: entry.video.map { "/runs/\(id)/\($0)" },
            trace: trace == nil ? nil : "/runs/\(id)/\(traceName)", report: report == nil ? nil : "/runs/\(id)/\(HTMLReport.fileName)",
            chapters: entry.steps.map { RunResult.Chapter(title: $0.title, time: $0.time, status: $0.status.rawValue) },
            failure: entry.failures.first?.message, flagged: flags.sorted { $0.step < $1.step })
    }

    /// The step a `file:line:column` location is in.
    func stepIndex(atLocation location: String) -> Int? {
        let parts = location.split(separator: ":")
        guard parts.count >= 3, let line = Int(parts[parts.count - 2]) else { return nil }
        // The header, the `---` line, then each step's lines.
        var start = document.header.split(separator: "\n", omittingEmptySubsequences: false).count + 2
        for (index, step) in document.steps.enumerated() {
            let lines = step.split(separator: "\n", omittingEmptySubsequences: false).count
            if line < start + lines { return index }
            start += lines
        }
        return nil
    }

    /// A file of run `id`'s folder (the video, the trace), by its bare name.
    package func runFile(_ id: Int, _ name: String) -> URL? {
        guard !name.contains("/"), !name.hasPrefix("."), id >= 1, id <= runCount else { return nil }
        let url = runs.appendingPathComponent(String(id)).appendingPathComponent(name)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }
}
