import Foundation
import ShowcaseApps
import ShowreelDevice
import ShowreelGraphics
import ShowreelRecorder
import ShowreelReport
import ShowreelSession
import ShowreelTestSupport
import ShowreelTesting
import ShowreelTrace
import ShowreelWire
import Testing

/// One device recorded into one video with its actions traced: in this process
/// (`RecordedSession`), or through its display stream and automation API as another process's
/// device is (`StreamedSession`). Both finish into a video with chapters, a trace beside it and a
/// preview, or discard without a file.
@Suite("Recorded sessions")
struct SessionVideoTests {
    /// A device on the virtual clock with its automation API (and trace routes) on a free port:
    /// what `showreel device boot` serves, here in the test's process.
    final class BootedDevice: Sendable {
        let workspace: Workspace
        let device: Device
        let client: DeviceClient
        let server: Task<Void, any Error>

        init() async throws {
            workspace = try Workspace()
            let device = try Device(apps: ShowcaseCatalog.apps, registry: workspace.registry)
            self.device = device
            let listening = AsyncStream<Int>.makeStream()
            server = Task {
                try await AutomationServer(device: device, traceExporter: TraceExport.exporter).run { listening.continuation.yield($0) }
            }
            let port = try #require(await listening.stream.first(where: { _ in true }))
            client = DeviceClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!)
        }

        /// A recording of this device through its display stream and automation API, into `out/<name>.mov`.
        func streamed(_ name: String) async throws -> (StreamedSession, video: URL) {
            let video = workspace.file("out/\(name).mov")
            let socket = try workspace.registry.resolve(device.udid).displaySocket
            let session = try await StreamedSession(
                displaySocket: socket, client: client, video: video, options: RecordingOptions(scale: 0.5))
            return (session, video)
        }

        func close() async {
            server.cancel()
            await device.shutdown()
        }
    }

    /// Launches Countries with its mock data and opens Canada, as a test or a WebDriver session would.
    static func openCanada(_ client: DeviceClient) async throws {
        _ = try await client.launch(CountriesApp.bundleIdentifier, arguments: [CountriesApp.datasourceArgument, "local-mock"])
        let app = Application(CountriesApp.bundleIdentifier, device: client)
        try await app.cells["Canada"].tap()
    }

    /// What a finished session wrote: the video (decoded), its chapters, the trace beside it with
    /// the tap a step, and the preview.
    static func checkFinished(_ video: URL, _ outcome: RecordedSession.Outcome) async throws {
        let frames = try await offPool { try FrameDecoder.decodeFrames(video).count }
        #expect(frames >= 2, "the list, then Canada")
        #expect(outcome.duration > 0)
        let chapters = try await offPool { try MediaProbe.stepTracks(video).chapters.map(\.title) }
        #expect(chapters == ["open Canada"], "\(chapters)")
        let trace = try RunTrace.load(from: URL(fileURLWithPath: RunTrace.path(forVideo: video.path)))
        #expect(trace.steps.contains { $0.title.contains("Canada") }, "\(trace.steps.map(\.title))")
        let preview = try #require(outcome.preview)
        #expect(FileManager.default.fileExists(atPath: preview.path))
    }

    @Test("a device in another process: its display stream into the video, its trace from its automation API, chapters and a preview")
    func streamedSessionFinishes() async throws {
        let booted = try await BootedDevice()
        let (session, video) = try await booted.streamed("streamed")
        await session.beginStep("open Canada")
        try await Self.openCanada(booted.client)
        await session.endStep(error: nil)
        let trace = await session.endTrace(kept: true)
        #expect(trace?.steps.first?.title == "open Canada", "the step opened through the automation API")
        #expect(!FileManager.default.fileExists(atPath: video.path), "under its partial name until finished")
        let outcome = try await session.finish(
            steps: [StepMark(title: "open Canada", time: 0)], trace: trace.map(TraceFile.init), preview: true)
        try await Self.checkFinished(video, outcome)
        #expect(session.videoStart != nil, "the video's first frame is known")
        await booted.close()
    }

    @Test("a streamed session discarded leaves no file, and says how long it spanned")
    func streamedSessionDiscards() async throws {
        let booted = try await BootedDevice()
        let (session, video) = try await booted.streamed("discarded")
        try await Self.openCanada(booted.client)
        _ = await session.endTrace(kept: false)
        let seconds = await session.discard()
        #expect(seconds > 0)
        let left = try FileManager.default.contentsOfDirectory(atPath: video.deletingLastPathComponent().path)
        #expect(left.isEmpty, "no video and no partial file: \(left)")
        await booted.close()
    }

    @Test("a device in this process: its own frames into the video, its actions traced, chapters and a preview")
    func recordedSessionFinishes() async throws {
        let booted = try await BootedDevice()
        let video = booted.workspace.file("out/in-process.mov")
        let session = try await RecordedSession(
            device: booted.device, video: video, options: RecordingOptions(scale: 0.5), mask: nil)
        let handle = await booted.device.beginTracedStep("open Canada")
        try await Self.openCanada(DeviceClient(.inProcess(booted.device)))
        await booted.device.endTracedStep(handle, error: nil)
        let trace = await session.endTrace(kept: true)
        let outcome = try await session.finish(
            steps: [StepMark(title: "open Canada", time: 0)], trace: trace.map(TraceFile.init), preview: true)
        try await Self.checkFinished(video, outcome)
        await booted.close()
    }

    @Test("a session that cannot reach the device's display stream fails to start, with nothing written")
    func streamedSessionWithoutStream() async throws {
        let booted = try await BootedDevice()
        let video = booted.workspace.file("out/none.mov")
        await #expect(throws: (any Error).self) {
            _ = try await StreamedSession(
                displaySocket: booted.workspace.file("missing.sock").path, client: booted.client, video: video,
                options: RecordingOptions(scale: 0.5))
        }
        #expect(!FileManager.default.fileExists(atPath: video.path))
        await booted.close()
    }

    @Test("FileNaming: a clashing name gets ' 2', then ' 3'; unique names are decided without reserving them")
    func fileNaming() {
        let folder = URL(fileURLWithPath: "/tmp/session-naming-\(UUID().uuidString)")
        #expect(FileNaming.reserve("login", in: folder) == "login")
        #expect(FileNaming.reserve("login", in: folder) == "login 2")
        #expect(FileNaming.reserve("login", in: folder) == "login 3")
        #expect(FileNaming.unique(["a", "b", "a", "a"]) == ["a", "b", "a 2", "a 3"])
        #expect(FileNaming.unique(["a", "b", "a", "a"]) == ["a", "b", "a 2", "a 3"], "the same every time")
    }
}
