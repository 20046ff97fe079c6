import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelDevice
import ShowreelRecorder
import ShowreelRender
import ShowreelTestSupport
import ShowreelTesting
import Testing

/// The whole path through real processes: a `showreel host` process, a device in this
/// process, a recorder launched through the legacy `/launch` and stopped with `/interrupt`,
/// and the file read back with FFmpeg.
@Suite("Walking skeleton, end to end", .serialized)
struct WalkingSkeletonTests {
    @Test("a recorder launched via /launch and stopped via /interrupt writes the session as H.264")
    func recordThroughTheHost() async throws {
        let workspace = try Workspace()
        let showreel = try BuildProducts.showreel
        let host = try ChildProcess(
            showreel, ["host", "--port", "0"], environment: workspace.environment,
            in: workspace, name: "host")
        let port = try await host.listeningPort()
        let client = TunnelHostClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!)
        #expect(try await client.exec("true").isEmpty)

        let device = try Device(apps: ShowcaseCatalog.apps, registry: workspace.registry)
        try await device.launch(HelloApp.bundleIdentifier)
        let before = await device.screenshot()
        let video = workspace.file("session.mov")
        let id = try await client.launch("\(showreel.path) io booted recordVideo --codec=h264 \(video.path)")
        try await eventually("the recorder's first frame") { device.display.sessions.first?.startTime != nil }

        try await device.wait(.seconds(1))
        try await device.tap(.button("tapButton"))
        try await device.wait(.seconds(1))
        try await device.tap(.button("tapButton"))
        try await device.wait(.milliseconds(800))
        let after = await device.screenshot()

        _ = try await client.interrupt(id)
        let status = try await client.waitUntilFinished(id, timeout: .seconds(30))
        guard case let .finished(exitStatus, _, _, stderr) = status else { throw TestFailure("recorder still running") }
        #expect(exitStatus == 0, "recorder stderr: \(stderr)")
        #expect(stderr.contains("Recording started"))

        let session = try #require(device.display.sessions.first)
        let span = try #require(session.stopTime).seconds - (try #require(session.startTime)).seconds
        let info = try MediaProbe.probe(video)
        #expect(info.codecName == "h264")
        #expect(info.width == 780 && info.height == 1688)
        // The video lasts exactly the device time between start and stop, within one frame.
        #expect(abs(info.duration - span) <= 1.0 / 60, "video \(info.duration) s, device span \(span) s")
        #expect(span > 2.9 && span < 3.2)

        // First frame shows the untapped screen, the last the tapped one.
        let frames = try await decodedFrames(video)
        let first = try #require(frames.first).pixels
        let last = try #require(frames.last).pixels
        #expect(first.meanDifference(from: before) < 3)
        #expect(last.meanDifference(from: after) < 3)
        // The counter label's rows (262...292 pt at 2x) change from "Not tapped yet" to "Tapped 2 times".
        let labelRows = 524..<584
        #expect(first.meanDifference(from: last, rows: labelRows) > 5, "the label's text should change between frames")
        #expect(first.meanDifference(from: before, rows: labelRows) < 3)

        await device.shutdown()
        host.signal(SIGTERM)
        #expect(try await host.waitForExit() == 0)
    }

    @Test("recording to an existing file without --force fails and leaves the file alone")
    func existingFile() async throws {
        let workspace = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: workspace.registry)
        let video = workspace.file("taken.mov")
        try Data("precious".utf8).write(to: video)
        let recorder = try ChildProcess(
            try BuildProducts.showreel, ["io", "booted", "recordVideo", video.path],
            environment: workspace.environment, in: workspace, name: "rec")
        let status = try await recorder.waitForExit()
        #expect(status == 4)
        #expect(recorder.stderr.contains("already exists"))
        #expect(recorder.stderr.contains("--force"))
        #expect(try String(contentsOf: video, encoding: .utf8) == "precious")
        #expect(device.display.sessions.isEmpty)
        await device.shutdown()
    }

    @Test("recording with no booted device fails and writes nothing")
    func noBootedDevice() async throws {
        let workspace = try Workspace()
        let video = workspace.file("nothing.mov")
        let recorder = try ChildProcess(
            try BuildProducts.showreel, ["io", "booted", "recordVideo", video.path],
            environment: workspace.environment, in: workspace, name: "rec")
        #expect(try await recorder.waitForExit() == 3)
        #expect(recorder.stderr.contains("No booted device"))
        #expect(!FileManager.default.fileExists(atPath: video.path))
    }

    @Test("an unsupported container is refused before anything is written")
    func unsupportedContainer() async throws {
        let workspace = try Workspace()
        let video = workspace.file("clip.avi")
        let recorder = try ChildProcess(
            try BuildProducts.showreel, ["io", "booted", "recordVideo", video.path],
            environment: workspace.environment, in: workspace, name: "rec")
        #expect(try await recorder.waitForExit() == 64)
        #expect(recorder.stderr.contains(".mov or .mp4"))
        #expect(!FileManager.default.fileExists(atPath: video.path))
    }

    @Test("recordVideo's own help and usage errors, not the root command's")
    func operationHelp() async throws {
        let workspace = try Workspace()
        let help = try ChildProcess(
            try BuildProducts.showreel, ["io", "booted", "recordVideo", "--help"],
            environment: workspace.environment, in: workspace, name: "help")
        #expect(try await help.waitForExit() == 0)
        #expect(help.stdout.contains("--keyframe-interval"))
        #expect(help.stdout.contains("showreel io <udid|booted> recordVideo"))
        let bad = try ChildProcess(
            try BuildProducts.showreel, ["io", "booted", "recordVideo", "--codec"],
            environment: workspace.environment, in: workspace, name: "bad")
        #expect(try await bad.waitForExit() == 64)
        #expect(bad.stderr.contains("Missing value for '--codec"))
    }

    @Test("a command that does not exist, sent to /exec, is a clear failure")
    func missingCommand() async throws {
        let workspace = try Workspace()
        let host = try ChildProcess(
            try BuildProducts.showreel, ["host", "--port", "0"],
            environment: workspace.environment, in: workspace, name: "host")
        let client = TunnelHostClient(baseURL: URL(string: "http://127.0.0.1:\(try await host.listeningPort())")!)
        await #expect {
            _ = try await client.exec("no-such-program-xyz --flag")
        } throws: { error in
            String(describing: error).contains("no-such-program-xyz")
        }
        host.signal(SIGTERM)
        #expect(try await host.waitForExit() == 0)
    }
}
