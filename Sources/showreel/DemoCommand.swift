import ArgumentParser
import Foundation
import Logging
import ShowcaseApps
import ShowreelDevice
import ShowreelHost
import ShowreelRecorder
import ShowreelReport
import ShowreelTesting
import ShowreelWire

/// The walking skeleton, end to end: an in-process device, the tunnel host, a recorder
/// launched through the host's legacy `/launch` and stopped with `/interrupt`, as an
/// XCUITest suite drives `simctl io booted recordVideo` through SBTUITestTunnelHost.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Record a scripted session on an in-process device into Recordings/.")

    @Option(help: "Where videos and the report go.")
    var output = "Recordings"

    @Option(help: "How many times to tap the button.")
    var taps = 3

    @Option(help: "real or virtual device clock (virtual records a 5-second session in well under 5 seconds).")
    var clock: DeviceClock.Kind = .virtual

    func run() async throws {
        try await reportingFailures { try await demo() }
    }

    private func demo() async throws {
        let folder = URL(fileURLWithPath: output, isDirectory: true).standardizedFileURL
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let video = folder.appendingPathComponent("demo.mov")

        // A private device registry, so `booted` means this demo's device whatever else runs.
        let home = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("showreel-demo-\(getpid())")
        setenv("SHOWREEL_HOME", home.path, 1)
        defer { try? FileManager.default.removeItem(at: home) }

        Console.status("[1/5] Booting an in-process device (\(clock.rawValue) clock)")
        let device = try Device(name: "Demo Phone", clock: clock, apps: ShowcaseCatalog.apps, registry: DeviceRegistry(home: home))
        try await device.launch(HelloApp.bundleIdentifier)

        Console.status("[2/5] Starting the tunnel host")
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

        Console.status("[3/5] Launching the recorder through /launch")
        let commandLine = [Self.executablePath(), "io", "booted", "recordVideo", "--codec=h264", "--force", video.path]
            .map(Self.shellQuoted).joined(separator: " ")
        let id = try await client.launch(commandLine)
        try await waitForRecorder(device: device, client: client, id: id)

        Console.status("[4/5] Tapping the button \(taps) times")
        try await device.wait(.seconds(1))
        for _ in 0..<taps {
            try await device.tap(.button("tapButton"))
            try await device.wait(.seconds(1))
        }
        let span = device.display.sessions.last.flatMap { session in session.startTime.map { (device.clock.now - $0).seconds } }

        Console.status("[5/5] Interrupting the recorder through /interrupt")
        _ = try await client.interrupt(id)
        let status = try await client.waitUntilFinished(id, timeout: .seconds(60))
        guard case let .finished(exitStatus, _, _, stderr) = status, exitStatus == 0 else {
            throw CLIFailure(message: "The recorder failed: \(status)", exitCode: CLIFailure.Code.writeFailed)
        }
        await device.shutdown()

        let info = try MediaProbe.probe(video)
        Console.out(String(format: "%@  %.3f s  %d frames  %@ %dx%d", video.path, info.duration, info.frameCount,
                           info.codecName, info.width, info.height))
        if let span { Console.status(String(format: "Device time recorded: %.3f s", span)) }
        let report = folder.appendingPathComponent("report.html")
        try HTMLReport(title: "Showreel demo", entries: [
            ReportEntry(name: "Tap the button \(taps) times", outcome: .passed, videoPath: video.lastPathComponent,
                        duration: info.duration, frameCount: info.frameCount, codec: info.codecName,
                        width: info.width, height: info.height),
        ]).write(to: report)
        Console.out(report.path)
        if !stderr.isEmpty { Console.status(stderr.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Waits until the recorder has the first frame, or fails with what it printed.
    private func waitForRecorder(device: Device, client: TunnelHostClient, id: UUID) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if device.display.sessions.contains(where: { $0.startTime != nil }) { return }
            if case let .finished(status, _, stdout, stderr) = try await client.status(id) {
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
