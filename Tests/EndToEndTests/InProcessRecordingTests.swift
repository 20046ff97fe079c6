import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelDevice
import ShowreelRecorder
import ShowreelRender
import ShowreelTestSupport
import ShowreelWire
import Testing

@Suite("Recording a device in the same process")
struct InProcessRecordingTests {
    @Test("a session subscribed in-process records every frame and the span from subscribe to stop, masked on a copy")
    func recordsInProcess() async throws {
        let workspace = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: workspace.registry)
        defer { Task { await device.shutdown() } }
        try await device.launch(HelloApp.bundleIdentifier)

        let url = workspace.file("in-process.mp4")
        let session = try RecordingSession(
            url: url, info: device.display.info, mask: ScreenMask(profile: device.profile),
            framesAreShared: true)
        let subscription = device.display.subscribe(session)
        #expect(session.hasStarted)
        for _ in 0..<3 {
            try await device.tap(.button("tapButton"))
            try await device.wait(.milliseconds(500))
        }
        let stopTime = try #require(subscription.stop())
        #expect(subscription.stop() == nil)
        let summary = try session.finish()
        let start = try #require(session.startTime)

        let info = try MediaProbe.probe(url)
        #expect(info.codecName == "h264")
        // A highlighted and a released button per tap (the first screen lasted no time: the
        // first tap's highlight came at the same instant and took its place).
        #expect(info.frameCount == summary.framesEncoded)
        #expect(info.frameCount >= 6)
        #expect(abs(info.duration - (stopTime - start).seconds) < 0.02)
        // The mask painted a copy: the device's own screen still has its corners.
        #expect(ScreenMask(profile: device.profile).masks(x: 0, y: 0))
        let after = await device.screenshot()
        #expect(after.withUnsafeBytes { Array($0[0..<4]) } != [0, 0, 0, 255])
        #expect(await device.display.subscriberCount == 0)
    }

    @Test("a device shut down mid-recording ends the session with its stop time; an empty session leaves no file")
    func shutdownAndEmpty() async throws {
        let workspace = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: workspace.registry)
        let url = workspace.file("shutdown.mov")
        let session = try RecordingSession(url: url, info: device.display.info)
        _ = device.display.subscribe(session)
        try await device.wait(.seconds(2))
        await device.shutdown()
        #expect(session.endReason == .deviceShutdown)
        let summary = try session.finish()
        #expect(abs(summary.duration.seconds - 2) < 0.01)

        let empty = workspace.file("empty.mov")
        let late = try RecordingSession(url: empty, info: device.display.info)
        _ = device.display.subscribe(late)
        #expect(throws: RecorderError.noFrames(file: empty.path)) { try late.finish() }
        #expect(!FileManager.default.fileExists(atPath: empty.path))
    }
}
