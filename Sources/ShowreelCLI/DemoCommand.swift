import ArgumentParser
import Foundation
import Logging
import ShowreelAccessibility
import ShowreelDevice
import ShowreelFlows
import ShowreelHost
import ShowreelRecorder
import ShowreelReport
import ShowreelTesting
import ShowreelUI
import ShowreelWire

/// The whole workflow on the embedded default: an in-process device, the tunnel host, and
/// for each flow a recorder launched through the host's legacy `/launch` and stopped with
/// `/interrupt`, as an XCUITest suite drives `simctl io booted recordVideo` through
/// SBTUITestTunnelHost. Runs the same flow files as `showreel run` (which records in-process,
/// a device per flow), one after another on one device. Writes one video per flow and a report.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run flows on one device with recorders started through the tunnel host, as the iOS workflow does.")

    @Argument(help: "Flow files (.yaml) or folders of them.")
    var paths: [String] = ["Fixtures/Flows"]

    @Option(help: "Where videos and the report go.")
    var output = "Recordings"

    @Option(help: "real or virtual device clock (virtual records the whole demo in a few seconds).")
    var clock: DeviceClock.Kind = .virtual

    @Option(help: "Video codec: h264 or hevc.")
    var codec = "h264"

    @Flag(inversion: .prefixedNo, help: "Draw a circle where the script touches the screen.")
    var showTouches = true

    func run() async throws {
        try await reportingFailures { try await demo() }
    }

    private func demo() async throws {
        let flows = try FlowLoading.load(paths, shard: nil)
        let folder = URL(fileURLWithPath: output, isDirectory: true).standardizedFileURL
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A private device registry, so `booted` means this demo's device whatever else runs.
        let home = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("showreel-demo-\(getpid())")
        setenv("SHOWREEL_HOME", home.path, 1)
        defer { try? FileManager.default.removeItem(at: home) }

        Console.status("Booting an in-process device (\(clock.rawValue) clock)")
        let device = try Device(
            name: "Demo Phone", clock: clock, apps: ShowreelConfiguration.current.apps, registry: DeviceRegistry(home: home),
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
        let runner = FlowRunner(options: FlowRunOptions(output: folder, apps: ShowreelConfiguration.current.apps))
        for (index, flow) in flows.enumerated() {
            Console.status("[\(index + 1)/\(flows.count)] \(flow.name)")
            entries.append(try await record(flow, runner: runner, device: device, host: client, folder: folder))
        }
        await device.shutdown()

        try ReportFiles.write(RunManifest(title: "Showreel demo", entries: entries), to: folder, pathPrefix: output)
        for entry in entries {
            Console.out(String(format: "%@  %.3f s", folder.appendingPathComponent(entry.video ?? "").path, entry.duration))
        }
        Console.out(folder.appendingPathComponent(HTMLReport.fileName).path)
        if entries.contains(where: { $0.status == .failed }) { throw ExitCode(1) }
    }

    /// Starts a recorder through the host, drives the flow, interrupts the recorder through the
    /// host and reads the file back.
    private func record(_ flow: Flow, runner: FlowRunner, device: Device, host: TunnelHostClient, folder: URL) async throws -> ManifestEntry
    {
        let name = flow.url.deletingPathExtension().lastPathComponent
        let file = "\(name).mov"
        let video = folder.appendingPathComponent(file)
        // As an iOS suite does: the legacy /launch, then /interrupt and /status until it exited.
        let argv = [OwnExecutable.path, "io", "booted", "recordVideo", "--codec=\(codec)", "--mask=black", "--force", video.path]
        let recording: HostRecording
        do { recording = try await HostRecording.start(host: host, argv: argv, api: .legacy) } catch {
            throw CLIFailure(
                message: "The recorder for \(file) did not start: \(ErrorSentence.describe(error))", exitCode: CLIFailure.Code.streamFailed)
        }

        let result = await runner.drive(flow, on: device, screenshotPrefix: name)

        do { try await recording.stop() } catch {
            throw CLIFailure(
                message: "The recorder for \(file) failed: \(ErrorSentence.describe(error))", exitCode: CLIFailure.Code.writeFailed)
        }
        if let app = await device.foregroundApp { await device.terminate(app) }
        let info = try MediaProbe.probe(video)
        Console.status(String(format: "      %@: %.2f s, %d frames", file, info.duration, info.frameCount))
        return ManifestEntry(
            id: flow.id, name: flow.name, suite: "demo",
            status: result.failure == nil ? .passed : result.wasInterrupted ? .interrupted : .failed,
            duration: info.duration, video: file, screenshot: result.failureScreenshot,
            failures: result.failure.map { [$0] } ?? [], steps: result.steps, attachments: result.attachments)
    }
}
