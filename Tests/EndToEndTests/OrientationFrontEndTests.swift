import Foundation
import ShowcaseApps
import ShowreelDevice
import ShowreelGraphics
import ShowreelRecorder
import ShowreelTestSupport
import ShowreelTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Orientation through the front ends that run as processes: `showreel device ui … orientation`,
/// WebDriver's orientation and rotation endpoints, and `io recordVideo` across a turn.
@Suite("Orientation through the CLI, WebDriver and a recorder process", .timeLimit(.minutes(10)))
struct OrientationFrontEndTests {
    @Test("device ui orientation landscape-left turns the device, without a value prints it; upside-down and a typo exit 64 saying why")
    func cli() async throws {
        let workspace = try Workspace()
        let verbs = DeviceSystemVerbsTests()
        let (device, udid) = try await verbs.cli.bootDevice(workspace)
        _ = try await verbs.showreel(["device", "launch", udid, PlacesApp.bundleIdentifier], workspace)
        let turn = try await verbs.showreel(["device", "ui", udid, "orientation", "landscape-left"], workspace)
        #expect(turn.terminationStatus == 0, "\(turn.stderr)")
        let client = try DeviceClient.named(udid, registry: workspace.registry)
        #expect(try await client.orientation().interfaceOrientation == .landscapeLeft)
        let read = try await verbs.showreel(["device", "ui", "booted", "orientation"], workspace)
        #expect(read.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "landscape-left", "\(read.stdout)|\(read.stderr)")
        let upsideDown = try await verbs.showreel(["device", "ui", udid, "orientation", "upside-down"], workspace)
        #expect(
            upsideDown.terminationStatus == 64 && upsideDown.stderr.contains("Upside down is not supported"), "\(upsideDown.stderr)"
        )
        let typo = try await verbs.showreel(["device", "ui", udid, "orientation", "landscape-lft"], workspace)
        #expect(typo.terminationStatus == 64 && typo.stderr.contains("did you mean 'landscape-left'"), "\(typo.stderr)")
        device.signal(SIGINT)
        #expect(try await device.waitForExit() == 0)
    }

    @Test(
        "WebDriver: POST /orientation LANDSCAPE turns Places, GET answers it and the window rect is landscape; rotation z 270 is landscape right; z 180 is an invalid argument"
    )
    func webDriver() async throws {
        let workspace = try Workspace()
        let server = try await WebDriverSuiteTests.Server.start(workspace)
        let session = try await WebDriverLimitsTests.newSession(server, ["appium:bundleId": PlacesApp.bundleIdentifier])
        #expect(try await server.value("GET", "/session/\(session)/orientation") as? String == "PORTRAIT")
        var answer = try await server.call("POST", "/session/\(session)/orientation", ["orientation": "LANDSCAPE"])
        #expect(answer.0 == 200, "\(answer.1)")
        #expect(try await server.value("GET", "/session/\(session)/orientation") as? String == "LANDSCAPE")
        let rect = try await server.value("GET", "/session/\(session)/window/rect") as? [String: Any]
        #expect(rect?["width"] as? Double == 844 && rect?["height"] as? Double == 390, "\(String(describing: rect))")
        answer = try await server.call("POST", "/session/\(session)/rotation", ["x": 0, "y": 0, "z": 270])
        #expect(answer.0 == 200, "\(answer.1)")
        let rotation = try await server.value("GET", "/session/\(session)/rotation") as? [String: Any]
        #expect(rotation?["z"] as? Double == 270, "\(String(describing: rotation))")
        let (status, code, message) = WebDriverLimitsTests.error(
            try await server.call("POST", "/session/\(session)/rotation", ["x": 0, "y": 0, "z": 180]))
        #expect(status == 400 && code == "invalid argument" && message.contains("270"), "\(message)")
        try await server.stop()
    }

    @Test(
        "io recordVideo across a turn: the video keeps the portrait frame, the turn's frames are in it, and the landscape screen ends letterboxed"
    )
    func recording() async throws {
        let workspace = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: workspace.registry)
        try await device.launch(PlacesApp.bundleIdentifier)
        let video = workspace.file("turn.mov")
        let recorder = try ChildProcess(
            try BuildProducts.showreel, ["io", device.udid, "recordVideo", video.path], environment: workspace.environment, in: workspace,
            name: "rec")
        try await eventually("Recording started") { recorder.stderr.contains("Recording started") }
        try await device.wait(.milliseconds(300))
        try await device.setOrientation(.landscapeLeft)
        try await device.wait(.milliseconds(500))
        recorder.signal(SIGINT)
        #expect(try await recorder.waitForExit() == 0, "\(recorder.stderr)")
        let frames = try await decodedFrames(video)
        #expect(frames.allSatisfy { $0.pixels.width == 780 && $0.pixels.height == 1688 })
        func brightness(_ frame: DecodedFrame, _ x: Int, _ y: Int) -> Int {
            let p = frame.pixels.pixel(x: x, y: y)
            return Int(p.red) + Int(p.green) + Int(p.blue)
        }
        let first = try #require(frames.first), last = try #require(frames.last)
        #expect(brightness(first, 390, 300) > 600, "Places fills the portrait frame")
        #expect(brightness(last, 390, 300) < 40, "black above the fitted landscape screen")
        #expect(brightness(last, 390, 844) > 600, "the landscape screen in the middle")
        // The turn lasts 0.4 s at 60 frames a second: its frames are between the two.
        let turning = frames.filter { $0.time > 0.29 && $0.time < 0.71 }
        #expect(turning.count >= 15, "\(frames.map(\.time))")
    }
}

extension OrientationFrontEndTests {
    @Test("device boot --orientation landscape-left boots on its side: landscape screen; a bad name exits 64")
    func bootOnItsSide() async throws {
        let workspace = try Workspace()
        let verbs = DeviceSystemVerbsTests()
        let (device, udid) = try await verbs.cli.bootDevice(workspace, ["--orientation", "landscape-left"])
        #expect(device.stderr.contains("1688x780"), "\(device.stderr)")
        let client = try DeviceClient.named(udid, registry: workspace.registry)
        #expect(try await client.orientation().orientation == .landscapeLeft)
        device.signal(SIGINT)
        #expect(try await device.waitForExit() == 0)
        let bad = try await verbs.showreel(["device", "boot", "--orientation", "sideways"], workspace)
        #expect(bad.terminationStatus == 64 && bad.stderr.contains("Unknown orientation 'sideways'"), "\(bad.stderr)")
    }
}
