import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelDevice
import ShowreelGraphics
import ShowreelRecorder
import ShowreelRender
import ShowreelReport
import ShowreelTestSupport
import ShowreelUI
import ShowreelWire
import Synchronization
import Testing

@testable import ShowreelFlows

@Suite("Captions on the recorded frames")
struct CaptionTests {
    @Test("a caption step draws a band on the video from its time until the next caption, and only on the video")
    func captionStep() async throws {
        let folder = try FlowFolder()
        let file = try folder.write(
            "captioned.yaml",
            """
            appId: dev.showreel.hello
            ---
            - launchApp
            - caption: "Hello captions"
            - screenshot: during
            - wait: 0.5
            - caption: ""
            - wait: 0.5
            """)
        let flow = try FlowParser(knownApps: ShowcaseCatalog.apps.map(\.bundleIdentifier)).parse(fileAt: file, id: "captioned.yaml")
        let runner = FlowRunner(
            options: FlowRunOptions(
                output: folder.url.appendingPathComponent("out"), apps: ShowcaseCatalog.apps,
                recording: RecordingOptions(quality: 10, scale: 0.5)))
        let entry = await runner.run(flow, videoName: "captioned")
        #expect(entry.status == .passed, "\(entry.failures)")
        #expect(abs(entry.duration - 1) < 0.01)
        let video = try #require(entry.video)

        let frames = try await decodedFrames(folder.url.appendingPathComponent("out").appendingPathComponent(video))
        func frame(at time: Double) throws -> DecodedFrame { try #require(frames.last { $0.time <= time + 0.0005 }) }
        // The band's left part (no text there; the blue button under it) at 390x844: darkened
        // while captioned, back to the app's own pixels once the caption is cleared.
        let (x, y) = (40, 710)
        let during = try frame(at: 0.25).pixels.pixel(x: x, y: y)
        let after = try frame(at: 0.75).pixels.pixel(x: x, y: y)
        #expect(after.blue > 200, "the button under the band: \(after)")
        #expect(Int(during.blue) < Int(after.blue) - 100, "captioned \(during) vs \(after)")
        let before = after

        // The app never saw it: the device's own screenshot, taken while captioned, has no band.
        let screenshot = try #require(entry.attachments.first)
        #expect(screenshot == "captioned-during.png")
        let png = try await decodedFrames(folder.url.appendingPathComponent("out").appendingPathComponent(screenshot))
        let shot = try #require(png.first).pixels
        let screenPixel = shot.pixel(x: x * 2, y: y * 2)
        #expect(abs(Int(screenPixel.green) - Int(before.green)) < 12, "screenshot \(screenPixel) vs video \(before)")
    }

    @Test("a captioned frame drawn over a recycled one, only where it was behind, is the screen with the caption drawn afresh")
    func recycledCaptionedFrames() async throws {
        let home = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: home.registry)
        try await device.launch(SignUpApp.bundleIdentifier)
        let screens = KeptFrames(copying: false)
        let captioned = KeptFrames(copying: true)
        let sink = CaptionedSink(next: captioned, scale: Double(device.profile.scale))
        sink.setCaption("Typing an email", at: .zero, above: 500)
        let subscriptions = [device.display.subscribe(screens), device.display.subscribe(sink)]
        try await device.typeText("ab.c", into: .textField("email"))
        subscriptions.forEach { $0.stop() }
        await device.shutdown()

        let pairs = zip(screens.all, captioned.all)
        #expect(
            screens.all.count == captioned.all.count && screens.all.count >= 8,
            "\(screens.all.count) screens, \(captioned.all.count) captioned")
        #expect(captioned.all.dropFirst().contains { $0.changedAreas != nil }, "no frame kept its changed areas")
        for (index, (screen, frame)) in pairs.enumerated() {
            let expected = screen.pixels.copy()
            Caption.draw("Typing an email", on: expected, scale: Double(device.profile.scale), bottom: 500)
            #expect(frame.pixels.hasSamePixels(as: expected), "frame \(index) at \(frame.presentationTime)")
        }
    }

    @Test("--captions steps captions each step with its summary, on the video only")
    func stepCaptions() async throws {
        let folder = try FlowFolder()
        let file = try folder.write("steps.yaml", "appId: dev.showreel.hello\n---\n- launchApp\n- wait: 0.5\n")
        let flow = try FlowParser(knownApps: ShowcaseCatalog.apps.map(\.bundleIdentifier)).parse(fileAt: file, id: "steps.yaml")
        #expect(flow.steps.map(\.summary) == ["Launch the app", "Wait 0.5 s"])
        var pixels: [Bool: RGBA] = [:]
        for captioned in [false, true] {
            let output = folder.url.appendingPathComponent(captioned ? "captioned" : "plain")
            let runner = FlowRunner(
                options: FlowRunOptions(
                    output: output, apps: ShowcaseCatalog.apps,
                    recording: RecordingOptions(quality: 10, scale: 0.5), captionsSteps: captioned))
            let entry = await runner.run(flow, videoName: "steps")
            #expect(entry.status == .passed)
            let frames = try await decodedFrames(output.appendingPathComponent(try #require(entry.video)))
            pixels[captioned] = try #require(frames.last { $0.time <= 0.25 }).pixels.pixel(x: 40, y: 710)
        }
        #expect(Int(pixels[true]!.blue) < Int(pixels[false]!.blue) - 100, "\(pixels)")
    }
}

/// Every frame a sink is given: the frame itself (holding the buffer), or a copy of its pixels
/// (letting the sender draw into the buffer again).
private final class KeptFrames: DisplayStreamSink, Sendable {
    private let frames = Mutex<[Frame]>([])
    private let copying: Bool
    init(copying: Bool) { self.copying = copying }
    var all: [Frame] { frames.withLock { $0 } }
    func receive(_ event: DisplayStreamEvent) {
        guard case let .frame(frame) = event else { return }
        let kept =
            copying ? Frame(pixels: frame.pixels.copy(), presentationTime: frame.presentationTime, changedAreas: frame.changedAreas) : frame
        frames.withLock { $0.append(kept) }
    }
}
