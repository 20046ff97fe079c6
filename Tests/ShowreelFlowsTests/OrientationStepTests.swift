import Foundation
import ShowcaseApps
import ShowreelFlows
import ShowreelGraphics
import ShowreelRecorder
import ShowreelReport
import ShowreelTestSupport
import Testing

/// `setOrientation` (Maestro's step): the device turns, the video keeps its portrait frame with
/// the turned screen fitted inside it.
@Suite("Flow step: setOrientation", .timeLimit(.minutes(10)))
struct OrientationStepTests {
    @Test(
        "setOrientation: LANDSCAPE_LEFT turns Places (its video ends letterboxed), PORTRAIT turns it back; UPSIDE_DOWN is a parse error saying why"
    )
    func setOrientation() async throws {
        let folder = try FlowFolder()
        let file = try folder.write(
            "turn.yaml",
            """
            appId: dev.showreel.places
            ---
            - launchApp
            - setOrientation: LANDSCAPE_LEFT
            - assertVisible: {id: shareLocation}
            # A point in percent is of the screen as it is now: here the button on the leading half.
            - tapOn: {point: "27%,78%"}
            - tapOn: "Allow While Using App"
            - assertVisible: "Location shared"
            - setOrientation: PORTRAIT
            - setOrientation: LANDSCAPE_RIGHT
            """)
        let entry = try await FlowRunnerTests.run(file, id: "turn.yaml", into: folder, videoName: "turn")
        #expect(entry.status == .passed, "\(entry.failures)")
        #expect(entry.steps.map(\.title).contains("setOrientation: LANDSCAPE_LEFT"), "\(entry.steps.map(\.title))")
        let video = folder.url.appendingPathComponent("out").appendingPathComponent(try #require(entry.video))
        let frames = try await decodedFrames(video)
        let first = try #require(frames.first), last = try #require(frames.last)
        #expect(last.pixels.width == first.pixels.width && last.pixels.height == first.pixels.height)
        #expect(first.pixels.width < first.pixels.height, "the video is as the screen was when it started: portrait")
        // The landscape screen fitted into the portrait frame: black above and below it.
        let top = last.pixels.pixel(x: last.pixels.width / 2, y: 4)
        #expect(Int(top.red) + Int(top.green) + Int(top.blue) < 40, "\(top)")
        let middle = last.pixels.pixel(x: last.pixels.width / 2, y: last.pixels.height / 2)
        #expect(Int(middle.red) + Int(middle.green) + Int(middle.blue) > 300, "\(middle)")

        let problems = try FlowParserTests().problems(
            "appId: dev.showreel.places\n---\n- setOrientation: UPSIDE_DOWN\n- setOrientation: LANDSCAPE\n")
        #expect(problems.contains { $0.hasPrefix("flow.yaml:3:") && $0.contains("UPSIDE_DOWN is not supported") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("flow.yaml:4:") && $0.contains("LANDSCAPE_LEFT") }, "\(problems)")
    }

    @Test("a flow whose device starts on its side (device: {orientation: landscape-left}) makes a landscape video from its first frame")
    func landscapeFromTheStart() async throws {
        let folder = try FlowFolder()
        let file = try folder.write(
            "side.yaml",
            """
            appId: dev.showreel.places
            device: {orientation: landscape-left}
            ---
            - launchApp
            - assertVisible: {id: shareLocation}
            - wait: 1
            """)
        let entry = try await FlowRunnerTests.run(file, id: "side.yaml", into: folder, videoName: "side")
        #expect(entry.status == .passed, "\(entry.failures)")
        let video = folder.url.appendingPathComponent("out").appendingPathComponent(try #require(entry.video))
        let frames = try await decodedFrames(video)
        let first = try #require(frames.first), last = try #require(frames.last)
        #expect(first.pixels.width > first.pixels.height, "landscape from the first frame: \(first.pixels.width)x\(first.pixels.height)")
        #expect(last.pixels.width == first.pixels.width)
        // No letterbox: the app fills the frame.
        let top = last.pixels.pixel(x: last.pixels.width / 2, y: 4)
        #expect(Int(top.red) + Int(top.green) + Int(top.blue) > 300, "\(top)")

        let problems = try FlowParserTests().problems("appId: dev.showreel.places\ndevice: {orientation: sideways}\n---\n- launchApp\n")
        #expect(problems.contains { $0.hasPrefix("flow.yaml:2:23:") && $0.contains("LANDSCAPE_LEFT") }, "\(problems)")
    }
}
