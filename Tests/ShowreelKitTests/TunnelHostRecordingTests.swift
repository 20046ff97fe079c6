import Foundation
import ShowreelKit
import ShowreelReport
import ShowreelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The iOS workflow end to end: a real `showreel host` process launches the recorder
/// (`showreel io <udid> recordVideo`) for the test and interrupts it in teardown.
@Suite("Recording through a tunnel host")
struct TunnelHostRecordingTests {
    @Test("a test recorded via .tunnelHost gets a complete video made by a recorder the host ran")
    func recordsThroughTheHost() async throws {
        let folder = RecordingTraitTests.Folder()
        let (host, url, workspace) = try await Self.startHost()
        defer { withExtendedLifetime(workspace) {} }
        // The host stays up to the end: the last check asks it what it ran.
        try await host.stopping {
            let configuration = RecordingConfiguration(.on, via: .tunnelHost(url), folder: folder.url)
            try await Self.tapThrice(recorded: configuration) { (app: Application) async throws in
                let label = try await app.staticTexts["tapCount"].label
                #expect(label == "Tapped 3 times")
            }
            let entry = try #require(try folder.manifest().entries.first)
            #expect(entry.status == .passed)
            let info = try MediaProbe.probe(folder.url.appendingPathComponent(try #require(entry.video)))
            #expect(info.codecName == "h264")
            #expect(info.width == 390, "the trait's scale reaches the recorder's command line")
            #expect(info.frameCount >= 7)  // the first screen, then a pressed and a released button per tap
            // The device in this process traced the test's actions while the host's recorder ran.
            let trace = try RunTrace.load(
                from: folder.url.appendingPathComponent(RunTrace.path(forVideo: try #require(entry.video))))
            #expect(entry.steps.map(\.title) == trace.steps.map(\.title))
            #expect(trace.steps.filter { $0.title == "tap buttons[\"tapButton\"]" }.count == 3, "\(trace.steps.map(\.title))")
            #expect(trace.steps.allSatisfy { $0.end <= info.duration + 0.001 })
            // The host ran the recorder and it exited cleanly after the interrupt.
            let commands = try await TunnelHostClient(baseURL: url).commands()
            #expect(commands.count == 1)
            #expect(commands.first?.argv.contains("recordVideo") == true)
            #expect(commands.first?.exitCode == 0)
            // It records as a recording in the test's process would: its frame rate, its thread.
            let argv = commands.first?.argv ?? []
            #expect(argv.contains("--max-frame-rate=30.0") && argv.contains("--threads=1"), "\(argv)")
        }
    }

    @Test(
        "a passing test under .retainOnFailure: the host's recorder keeps its frames unencoded, and writes nothing once the device ends its stream as discarded"
    )
    func discardsThroughTheHost() async throws {
        let folder = RecordingTraitTests.Folder()
        let (host, url, workspace) = try await Self.startHost()
        defer { withExtendedLifetime(workspace) {} }
        try await host.stopping {
            try await Self.tapThrice(recorded: RecordingConfiguration(.retainOnFailure, via: .tunnelHost(url), folder: folder.url))
            let entry = try #require(try folder.manifest().entries.first)
            #expect(entry.status == .passed && entry.video == nil)
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".mov") }
            #expect(left.isEmpty, "\(left)")
            let commands = try await TunnelHostClient(baseURL: url).commands()
            let recorder = try #require(commands.first)
            #expect(recorder.argv.contains("--spool=64"), "\(recorder.argv)")
            #expect(recorder.exitCode == 0 && recorder.signalsSent?.isEmpty != false, "ended by its stream, not a signal: \(recorder)")
            let said = try await TunnelHostClient(baseURL: url).output(recorder.id)
            let seconds = try #require(HostRecording.discardedSeconds(in: said), "\(said)")
            #expect(seconds > 0, "\(said)")
        }
    }

    @Test(
        "later recorders start in the host's standby, already loaded: complete videos, the environment and folder asked for, a fresh start when it died, none left once the host stops"
    )
    func standby() async throws {
        let folders = [RecordingTraitTests.Folder(), RecordingTraitTests.Folder()]  // one per round: the test's id is the same
        let workspace = try Workspace()
        let showreel = try BuildProducts.showreel
        // One standby at a time: the order they are taken in is the order they were started.
        let host = try ChildProcess(
            showreel, ["host", "--port", "0", "--verbose", "--standbys", "1"], environment: ProcessInfo.processInfo.environment,
            in: workspace, name: "host")
        let url = URL(string: "http://127.0.0.1:\(try await host.listeningPort())")!
        let client = TunnelHostClient(baseURL: url)
        let test = try #require(Test.current)
        /// The pids of the standbys the host has started and that waited, in order.
        @Sendable func waiting(_ count: Int) async throws -> [Int32] {
            try await eventually("\(count) standbys waiting") { Self.standbyPids(host.stderr).count >= count }
            return Self.standbyPids(host.stderr)
        }
        let shots = workspace.file("shots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        let pids = try await host.stopping {
            try await DeviceTrait.device().provideScope(for: test, testCase: nil) {
                // The first starts afresh (no standby yet); each later one takes the one waiting.
                for round in 0..<2 {
                    if round == 1 { _ = try await waiting(1) }
                    let configuration = RecordingConfiguration(.on, via: .tunnelHost(url), folder: folders[round].url)
                    try await RecordingTrait.recorded(configuration).provideScope(for: test, testCase: nil) {
                        let app = Application("dev.showreel.hello")
                        try await app.launch()
                        for _ in 0..<3 { try await app.buttons["tapButton"].tap() }
                    }
                }
                // A command with an environment and a folder of its own, handed to the standby.
                let device = try #require(TestDevice.current)
                _ = try await waiting(2)
                let shot = try await client.run(
                    argv: [showreel.path, "io", device.udid, "screenshot", "shot.png"],
                    environment: ["SHOWREEL_HOME": device.registry.home.path], workingDirectory: shots.path, wait: true)
                #expect(shot.exitCode == 0, "\(shot.stderr ?? "")")
                #expect(try Data(contentsOf: shots.appendingPathComponent("shot.png")).starts(with: [0x89, 0x50, 0x4E, 0x47]))
                // A standby that died while it waited: the next command starts afresh.
                let third = try await waiting(3)[2]
                kill(third, SIGKILL)
                try await eventually("the killed standby to be gone") { !isAlive(third) }
                let listed = try await client.run(argv: ["showreel", "--version"], wait: true)
                #expect(listed.exitCode == 0 && listed.stdout == "0.1.0\n", "\(listed.stdout ?? "") \(listed.stderr ?? "")")
            }
            for folder in folders {
                let entry = try #require(try folder.manifest().entries.first)
                #expect(entry.status == .passed)
                let info = try MediaProbe.probe(folder.url.appendingPathComponent(try #require(entry.video)))
                #expect(info.codecName == "h264" && info.frameCount >= 7, "\(entry.id): \(info)")
            }
            let commands = try await client.commands()
            #expect(commands.count == 4 && commands.allSatisfy { $0.exitCode == 0 }, "\(commands)")
            let handedOver = host.stderr.components(separatedBy: "standby=yes").count - 1
            #expect(handedOver == 2, "the second recorder and the screenshot ran in standbys")
            #expect(host.stderr.contains("the waiting standby was gone"))
            return try await waiting(4)
        }
        // The host's shutdown ended the standby that was still waiting.
        try await eventually("every standby to be gone") { pids.allSatisfy { !isAlive($0) } }
    }

    @Test(
        "commands started together each run in a standby of their own when as many wait (--standbys 2), and the host makes more; --standbys 0 starts none"
    )
    func severalStandbys() async throws {
        let workspace = try Workspace()
        let showreel = try BuildProducts.showreel
        let host = try ChildProcess(
            showreel, ["host", "--port", "0", "--verbose", "--standbys", "2"], environment: ProcessInfo.processInfo.environment,
            in: workspace, name: "host")
        let client = TunnelHostClient(baseURL: URL(string: "http://127.0.0.1:\(try await host.listeningPort())")!)
        let pids = try await host.stopping {
            // The first starts afresh; then two standbys load and wait.
            #expect(try await client.run(argv: [showreel.path, "--version"], wait: true).exitCode == 0)
            try await eventually("2 standbys waiting") { Self.standbyPids(host.stderr).count >= 2 }
            async let first = client.run(argv: [showreel.path, "--version"], wait: true)
            async let second = client.run(argv: [showreel.path, "--version"], wait: true)
            let both = try await [first, second]
            #expect(both.allSatisfy { $0.exitCode == 0 && $0.stdout == "0.1.0\n" }, "\(both)")
            #expect(host.stderr.components(separatedBy: "standby=yes").count - 1 == 2, "both ran in standbys")
            #expect(Set(both.compactMap(\.pid)) == Set(Self.standbyPids(host.stderr).prefix(2)))
            // Two more take their places.
            try await eventually("2 more standbys waiting") { Self.standbyPids(host.stderr).count >= 4 }
            return Self.standbyPids(host.stderr)
        }
        try await eventually("every standby to be gone") { pids.allSatisfy { !isAlive($0) } }

        let none = try ChildProcess(
            showreel, ["host", "--port", "0", "--verbose", "--standbys", "0"], environment: ProcessInfo.processInfo.environment,
            in: workspace, name: "host without standbys")
        let plain = TunnelHostClient(baseURL: URL(string: "http://127.0.0.1:\(try await none.listeningPort())")!)
        try await none.stopping {
            for _ in 0..<2 {
                let run = try await plain.run(argv: [showreel.path, "--version"], wait: true)
                #expect(run.exitCode == 0)
            }
            #expect(!none.stderr.contains("standby waiting") && !none.stderr.contains("standby=yes"), "\(none.stderr)")
        }
    }

    /// A `showreel host` on a port of its own, where it listens, and the workspace that holds
    /// its output (removed once let go of).
    static func startHost() async throws -> (ChildProcess, URL, Workspace) {
        let workspace = try Workspace()
        let host = try ChildProcess(
            try BuildProducts.showreel, ["host", "--port", "0"], environment: ProcessInfo.processInfo.environment,
            in: workspace, name: "host")
        return (host, URL(string: "http://127.0.0.1:\(try await host.listeningPort())")!, workspace)
    }

    /// A test on its own device, recorded as `configuration` says: the hello app launched and
    /// its button tapped three times, then `check`.
    static func tapThrice(
        recorded configuration: RecordingConfiguration, then check: @Sendable (Application) async throws -> Void = { _ in }
    ) async throws {
        let test = try #require(Test.current)
        try await DeviceTrait.device().provideScope(for: test, testCase: nil) {
            try await RecordingTrait.recorded(configuration).provideScope(for: test, testCase: nil) {
                let app = Application("dev.showreel.hello")
                try await app.launch()
                for _ in 0..<3 { try await app.buttons["tapButton"].tap() }
                try await check(app)
            }
        }
    }

    /// The pids in the host's "standby waiting" log lines.
    static func standbyPids(_ log: String) -> [Int32] {
        log.split(separator: "\n").filter { $0.contains("standby waiting") }.compactMap { line in
            line.firstRange(of: "pid=").flatMap { Int32(line[$0.upperBound...].prefix { $0.isNumber }) }
        }
    }
}
