import Foundation
import ShowcaseApps
import ShowreelStudio

/// `showreel studio` with its page open in headless Chromium (Selenium, the driver of the
/// studio's browser tests): the delay from a device frame reaching the studio to its picture
/// loaded in the page while 10 steps are recorded, and, with the page still open, what an idle
/// screen costs: events sent (the target is none) and the studio's CPU (under 1% of a core).
/// The studio runs in this process, so its CPU is this process's.
enum StudioBenchmark {
    static func run() throws -> [String] {
        let python = ".build/venv/bin/python", driver = "Fixtures/Studio/drive_studio.py"
        guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: driver) else {
            return ["Studio: not run (needs .build/venv from scripts/browser-venv, run from the repository's root)"]
        }
        let work = URL(fileURLWithPath: "/tmp/srb-studio-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let started = try blocking { () async throws -> Started in
            let session = try await StudioSession.open(
                StudioConfiguration(
                    flow: work.appendingPathComponent("bench.yaml"), appId: MailApp.bundleIdentifier, apps: ShowcaseCatalog.apps))
            let server = StudioServer(session: session)
            let address = AsyncStream<String>.makeStream()
            let serving = Task { try await server.run { address.continuation.yield($0) } }
            guard let url = await address.stream.first(where: { _ in true }) else { throw BenchmarkError("the studio did not start") }
            return Started(session: session, url: url, serving: serving)
        }
        let child = try TimedChild.run(
            python, [driver, "bench", started.url, String(getpid())], environment: ProcessInfo.processInfo.environment)
        blocking {
            started.serving.cancel()
            await started.session.shutdown()
        }
        guard child.status == 0, let line = child.output.split(separator: "\n").last,
            let result = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let delays = (result["delays"] as? [Double])?.sorted(), !delays.isEmpty
        else { throw BenchmarkError("the page driver failed: \(child.output.suffix(1500))") }
        let idle = result["idleCPU"] as? Double ?? .nan, busy = result["busyCPU"] as? Double ?? .nan
        let events = result["idleEvents"] as? Int ?? -1
        func percentile(_ p: Double) -> Double { delays[min(delays.count - 1, Int(Double(delays.count - 1) * p))] }
        let figures = BenchFigures.shared
        figures.record("studio.frame_delay_ms", percentile(0.5))
        figures.record("studio.frame_delay_ms_p95", percentile(0.95))
        figures.record("studio.idle_cpu_fraction", idle)
        figures.record("studio.idle_events", Double(events))
        figures.record("studio.busy_cpu_fraction", busy)
        return [
            "Studio: the live page in headless Chromium, 10 steps recorded (5 rows opened, 5 back swipes), then 10 s idle",
            String(
                format:
                    "  studio.frame_delay_ms:     median %6.1f   p95 %6.1f   (%d frames shown; frame reaches the studio -> picture loaded in the page)",
                percentile(0.5), percentile(0.95), delays.count),
            String(
                format: "  studio.idle_cpu_fraction:  %.4f of a core, %d events sent while idle (target: 0 events, under 0.01)", idle,
                events),
            String(format: "  studio.busy_cpu_fraction:  %.3f of a core while recording (device, PNG encoding, server)", busy),
        ]
    }

    struct Started: Sendable {
        var session: StudioSession
        var url: String
        var serving: Task<Void, any Error>
    }
}
