import Foundation
import ShowreelRecorder
import ShowreelTestSupport
import Testing

/// `showreel demo`: the flows of Fixtures/Flows on one device, each recorded by a recorder
/// launched and interrupted through the tunnel host.
@Suite("Demo")
struct DemoTests {
    @Test("showreel demo writes one playable H.264 video per flow through the tunnel host, and a report that links them")
    func demo() async throws {
        let workspace = try Workspace()
        let output = workspace.file("Recordings")
        let demo = try ChildProcess(
            try BuildProducts.showreel, ["demo", "--output", output.path],
            environment: workspace.environment, in: workspace, name: "demo",
            directory: FlowRunTests.repository)
        #expect(try await demo.waitForExit(timeout: .seconds(600)) == 0, "stderr: \(demo.stderr)")
        let expected = ["hello.mov": 4.3, "countries.mov": 4.4, "signup.mov": 10.0]
        for (file, minimum) in expected {
            let info = try MediaProbe.probe(output.appendingPathComponent(file))
            #expect(info.codecName == "h264")
            #expect(info.width == 780 && info.height == 1688)
            #expect(info.duration >= minimum - 0.01 && info.duration < minimum + 2, "\(file): \(info.duration) s")
            #expect(info.frameCount >= 5)
            #expect(demo.stdout.contains(output.appendingPathComponent(file).path))
        }
        let report = try String(contentsOf: output.appendingPathComponent("report.html"), encoding: .utf8)
        for file in expected.keys { #expect(report.contains("src=\"\(file)#t=")) }
        #expect(report.contains("\(FlowRunTests.flows.count) flows: \(FlowRunTests.flows.count) passed, 0 failed"))
        #expect(!demo.stderr.contains("error"))

        // On the virtual clock the same demo gives the same videos: every frame, at the same times.
        let again = workspace.file("Again")
        let second = try ChildProcess(
            try BuildProducts.showreel, ["demo", "--output", again.path],
            environment: workspace.environment, in: workspace, name: "demo2",
            directory: FlowRunTests.repository)
        #expect(try await second.waitForExit(timeout: .seconds(600)) == 0, "stderr: \(second.stderr)")
        for file in expected.keys {
            let first = try MediaProbe.probe(output.appendingPathComponent(file))
            let repeated = try MediaProbe.probe(again.appendingPathComponent(file))
            #expect(first.frameTimestamps == repeated.frameTimestamps, "\(file): \(first.frameCount) vs \(repeated.frameCount) frames")
        }
    }
}
