import ShowreelAccessibility
import ArgumentParser
import Foundation
import Logging
import ShowcaseApps
import ShowreelDevice
import ShowreelHost
import ShowreelRecorder
import ShowreelReport
import ShowreelTesting
import ShowreelUI
import ShowreelWire

/// The whole workflow on the embedded default: an in-process device, the tunnel host, and
/// for each scenario a recorder launched through the host's legacy `/launch` and stopped
/// with `/interrupt`, as an XCUITest suite drives `simctl io booted recordVideo` through
/// SBTUITestTunnelHost. Writes one video per scenario and an HTML report.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Record the sample scenarios on an in-process device into Recordings/, with a report.")

    @Option(help: "Where videos and the report go.")
    var output = "Recordings"

    @Option(help: "real or virtual device clock (virtual records the whole demo in a few seconds).")
    var clock: DeviceClock.Kind = .virtual

    @Option(help: "Video codec: h264 or hevc.")
    var codec = "h264"

    @Flag(inversion: .prefixedNo, help: "Draw a circle where the script touches the screen.")
    var showTouches = true

    /// One recorded scenario: an app, what to launch it with, and what to do on screen.
    struct Scenario: Sendable {
        let name: String
        let file: String
        let app: String
        var arguments: [String] = []
        let script: @Sendable (Device) async throws -> Void
    }

    static let scenarios: [Scenario] = [
        Scenario(name: "Hello: tap the button three times", file: "hello.mov", app: HelloApp.bundleIdentifier) { device in
            try await device.wait(.seconds(1))
            for _ in 0..<3 {
                try await device.tap(.button("tapButton"))
                try await device.wait(.seconds(1))
            }
        },
        Scenario(name: "Countries: Canada's details from the mock data source", file: "countries.mov",
                 app: "dev.showreel.countries", arguments: ["--countries-datasource", "local-mock"]) { device in
            try await device.wait(.seconds(1))
            try await device.tap(.cell("Canada"))
            try await device.wait(.seconds(2))
            try await device.swipe(AutomationAPI.Swipe(edge: .left))
            try await device.wait(.seconds(1))
        },
        Scenario(name: "Sign-up: typing UITestExample@example.com key by key", file: "signup.mov",
                 app: "dev.showreel.signup") { device in
            try await device.wait(.seconds(1))
            try await device.typeText("UITestExample@example.com", into: .textField("email"),
                                      keyDelay: .milliseconds(60), jitter: .milliseconds(90))
            try await device.tapKey("Return")
            try await device.wait(.seconds(2))
        },
    ]

    func run() async throws {
        try await reportingFailures { try await demo() }
    }

    private func demo() async throws {
        let folder = URL(fileURLWithPath: output, isDirectory: true).standardizedFileURL
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A private device registry, so `booted` means this demo's device whatever else runs.
        let home = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("showreel-demo-\(getpid())")
        setenv("SHOWREEL_HOME", home.path, 1)
        defer { try? FileManager.default.removeItem(at: home) }

        Console.status("Booting an in-process device (\(clock.rawValue) clock)")
        let device = try Device(name: "Demo Phone", clock: clock, apps: ShowcaseCatalog.apps, registry: DeviceRegistry(home: home),
                                showsTouches: showTouches)
        await device.overrideStatusBar(StatusBarValues())

        var hostLogger = Logger(label: "showreel.host")
        hostLogger.logLevel = .warning  // the demo narrates its own steps
        let host = TunnelHost(configuration: TunnelHostConfiguration(port: 0, handlesSignals: false), logger: hostLogger)
        let port = AsyncStream<Int>.makeStream()
        let hostTask = Task { try await host.run(onListening: { port.continuation.yield($0) }) }
        defer { hostTask.cancel() }
        guard let listening = await port.stream.first(where: { _ in true }) else {
            throw CLIFailure(message: "The tunnel host did not start.", exitCode: 1)
        }
        let client = TunnelHostClient(baseURL: URL(string: "http://127.0.0.1:\(listening)")!)
        Console.status("Tunnel host on 127.0.0.1:\(listening)")

        var entries: [ManifestEntry] = []
        for (index, scenario) in Self.scenarios.enumerated() {
            Console.status("[\(index + 1)/\(Self.scenarios.count)] \(scenario.name)")
            entries.append(try await record(scenario, device: device, host: client, folder: folder))
        }
        await device.shutdown()

        try ReportFiles.write(RunManifest(title: "Showreel demo", entries: entries), to: folder, pathPrefix: output)
        for entry in entries {
            Console.out(String(format: "%@  %.3f s", folder.appendingPathComponent(entry.video ?? "").path, entry.duration))
        }
        Console.out(folder.appendingPathComponent(HTMLReport.fileName).path)
    }

    /// Launches the app, starts a recorder through the host, runs the script, interrupts the
    /// recorder through the host and reads the file back.
    private func record(_ scenario: Scenario, device: Device, host: TunnelHostClient, folder: URL) async throws -> ManifestEntry {
        let video = folder.appendingPathComponent(scenario.file)
        try await device.launch(scenario.app, context: LaunchContext(arguments: scenario.arguments))
        let commandLine = [Self.executablePath(), "io", "booted", "recordVideo", "--codec=\(codec)", "--mask=black", "--force", video.path]
            .map(Self.shellQuoted).joined(separator: " ")
        let id = try await host.launch(commandLine)
        try await waitForRecorder(host: host, id: id)

        var failure: String?
        do { try await scenario.script(device) } catch { failure = String(describing: error) }

        _ = try await host.interrupt(id)
        let status = try await host.waitUntilFinished(id, timeout: .seconds(60))
        guard case .finished(status: 0, _, _, _) = status else {
            throw CLIFailure(message: "The recorder for \(scenario.file) failed: \(status)", exitCode: CLIFailure.Code.writeFailed)
        }
        await device.terminate(scenario.app)
        let info = try MediaProbe.probe(video)
        Console.status(String(format: "      %@: %.2f s, %d frames", scenario.file, info.duration, info.frameCount))
        return ManifestEntry(id: scenario.file, name: scenario.name, suite: "demo", status: failure == nil ? .passed : .failed,
                             duration: info.duration, video: scenario.file,
                             failures: failure.map { [ManifestEntry.Failure(message: $0)] } ?? [])
    }

    /// Waits for the recorder's readiness line ("Recording started", printed once it has the
    /// first frame), read through the host while the recorder runs; fails with what it printed.
    private func waitForRecorder(host: TunnelHostClient, id: UUID) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if try await host.output(id).contains("Recording started") { return }
            if case let .finished(status, _, stdout, stderr) = try await host.status(id) {
                throw CLIFailure(message: "The recorder exited with status \(status) before recording: \(stdout)\(stderr)",
                                 exitCode: CLIFailure.Code.streamFailed)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw CLIFailure(message: "The recorder did not start within 30 s.", exitCode: CLIFailure.Code.streamFailed)
    }

    /// This executable's absolute path, so the host runs the same build of `showreel`.
    static func executablePath() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Quotes an argument for the legacy protocol's command line (POSIX shell words).
    static func shellQuoted(_ argument: String) -> String {
        let safe = argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:@%+,".contains($0) }
        return safe && !argument.isEmpty ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
