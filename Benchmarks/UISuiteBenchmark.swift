import Foundation
import ShowreelWire

/// The project's own UI suite (`ShowcaseUITests`, the seed examples in Swift Testing and
/// XCTest form) run five ways in one run: not recorded, recorded in-process with the default
/// policy (`.retainOnFailure`: the tests pass, so their frames wait unencoded and are dropped),
/// recorded in-process with every video encoded and kept (`.on`), and recorded through a real
/// tunnel host: the release `showreel` (`host`, and the `io ... recordVideo` it runs), as `make
/// install` puts it on a team's PATH, and, for comparison, the debug one beside the test bundle.
/// The tests are the debug bundle either way, as `swift test` builds it. Each run is the test
/// bundle in a child process; the ways alternate, `rounds` times. Ratios are the median of each
/// round's ratios: a round runs the ways back to back, so a slow spell on a shared machine
/// weighs on both sides of a ratio, not on one way's median.
/// Every other round runs them in reverse order, so no way always follows the same one (the
/// tunnel host's encoders finishing, say, or memory another way left to reclaim), and each run
/// starts after a `sync`, so no run pays for writing out the videos of the one before.
enum UISuiteBenchmark {
    /// The bound on each recorded way's ratio to the unrecorded run, in the order of the ways
    /// after it, and the figure's key.
    static let targets: [(key: String, bound: Double)] = [
        ("default_ratio", 1.10), ("every_video_ratio", 1.25), ("tunnel_host_ratio", 1.35),
    ]
    /// Whole suites vary more from run to run than single encodes: nine rounds at least.
    static let minimumRounds = 9

    struct Way {
        var name: String
        var environment: [String: String]
        var seconds: [Double] = []
        var median: Double { Self.median(seconds) }

        /// The median of this way's time over `base`'s, round by round.
        func ratio(to base: Way) -> Double { Self.median(zip(seconds, base.seconds).map { $0 / $1 }) }

        static func median(_ values: [Double]) -> Double {
            let sorted = values.sorted()
            return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
    }

    /// Runs at least `minimumRounds` rounds, whatever `rounds` asks.
    static func run(rounds: Int) throws -> [String] {
        let rounds = max(minimumRounds, rounds)
        let bundle = URL(fileURLWithPath: ".build/debug/ShowreelPackageTests.xctest").standardizedFileURL
        guard FileManager.default.isExecutableFile(atPath: bundle.path) else {
            throw BenchmarkError("no test bundle at \(bundle.path): `make bench` builds it (swift build --build-tests)")
        }
        let debugShowreel = bundle.deletingLastPathComponent().appendingPathComponent("showreel").path
        let releaseShowreel = URL(fileURLWithPath: ".build/release/showreel").standardizedFileURL.path
        guard FileManager.default.isExecutableFile(atPath: releaseShowreel) else {
            throw BenchmarkError(
                "no release showreel at \(releaseShowreel): `make bench` builds it (swift build -c release --product showreel)")
        }
        let recordings = FileManager.default.temporaryDirectory.appendingPathComponent("showreel-bench-ui-\(getpid())")
        defer { try? FileManager.default.removeItem(at: recordings) }
        let host = try LoggedProcess(releaseShowreel, ["host", "--port", "0"])
        defer { host.stop() }
        let hostURL = try listeningURL(of: host)
        let debugHost = try LoggedProcess(debugShowreel, ["host", "--port", "0"])
        defer { debugHost.stop() }
        let debugHostURL = try listeningURL(of: debugHost)

        var ways = [
            Way(name: "not recorded (SHOWREEL_RECORD=off)", environment: ["SHOWREEL_RECORD": "off"]),
            Way(name: "recorded in-process (default policy)", environment: [:]),
            Way(name: "recorded in-process, every video kept", environment: ["SHOWREEL_RECORD": "on"]),
            Way(name: "recorded through the tunnel host", environment: ["SHOWREEL_RECORD_VIA": hostURL, "SHOWREEL_BIN": releaseShowreel]),
            Way(
                name: "through the host, debug showreel",
                environment: ["SHOWREEL_RECORD_VIA": debugHostURL, "SHOWREEL_BIN": debugShowreel]),
        ]
        for round in 0..<rounds {
            for index in round % 2 == 0 ? Array(ways.indices) : ways.indices.reversed() {
                FileHandle.standardError.write(Data("[bench] UI suite, round \(round + 1)/\(rounds): \(ways[index].name)\n".utf8))
                var environment = ProcessInfo.processInfo.environment.merging(ways[index].environment) { $1 }
                environment["SHOWREEL_RECORDINGS"] = recordings.path
                sync()
                let suite = try TimedChild.run(
                    bundle.path, ["--testing-library", "swift-testing", "--filter", "ShowcaseUITests"],
                    environment: environment)
                let xctest = try TimedChild.run(
                    bundle.path, ["ShowcaseUITests.CountriesXCTests,ShowcaseUITests.SignUpXCTests"],
                    environment: environment)
                for run in [suite, xctest] where run.status != 0 {
                    throw BenchmarkError("the UI suite failed when \(ways[index].name):\n\(run.output.suffix(2000))")
                }
                ways[index].seconds.append(suite.seconds + xctest.seconds)
            }
        }
        var lines = [
            "UI suite with and without recording (ShowcaseUITests: 4 tests in Swift Testing and XCTest form; \(rounds) rounds of",
            "alternating runs, in reverse order every other round; median wall time, and the median of the rounds' ratios to the unrecorded run)",
        ]
        for way in ways {
            let label = way.name.padding(toLength: 40, withPad: " ", startingAt: 0)
            let all = way.seconds.map { String(format: "%.2f", $0) }.joined(separator: ", ")
            lines.append(String(format: "  %@ %6.2f s  %5.2fx   (%@ s)", label, way.median, way.ratio(to: ways[0]), all))
        }
        lines.append("  (default policy = .retainOnFailure: a passing test's frames are kept in memory, converted, and dropped")
        lines.append("   unencoded; \"every video kept\" = SHOWREEL_RECORD=on, each frame encoded with x264 as the test runs;")
        lines.append("   the tunnel host and the recorders it runs are the release showreel, as installed; the tests are debug builds)")
        BenchFigures.shared.record("ui_suite.tunnel_host_debug_ratio", ways[4].ratio(to: ways[0]))
        for (way, (key, bound)) in zip(ways.dropFirst(), targets) {
            let ratio = way.ratio(to: ways[0])
            BenchFigures.shared.record("ui_suite.\(key)", ratio)
            lines.append(targetLine(ratio <= bound, String(format: "%@ <= %.2fx not recorded: %.2fx", way.name, bound, ratio)))
        }
        return lines
    }

    private static func listeningURL(of host: LoggedProcess) throws -> String {
        for _ in 0..<200 {
            if let port = HostAPI.ListeningLine.port(in: host.output) { return "http://127.0.0.1:\(port)" }
            usleep(50_000)
        }
        throw BenchmarkError("the tunnel host did not say where it listens")
    }
}

/// A child process with its output in a log file (read for readiness lines, removed at the end).
struct LoggedProcess {
    let process = Process()
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("showreel-bench-\(UUID().uuidString).log")

    init(_ path: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if let environment { process.environment = environment }
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
    }

    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Waits for the process to exit and removes its log; returns its exit status.
    @discardableResult
    func finish() -> Int32 {
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
        return process.terminationStatus
    }

    func stop() {
        if process.isRunning { process.terminate() }
        finish()
    }
}
