import Foundation
import ShowreelKit
import ShowreelReport
import ShowreelTestSupport
import Testing

/// The iOS workflow end to end: a real `showreel host` process launches the recorder
/// (`showreel io <udid> recordVideo`) for the test and interrupts it in teardown.
@Suite("Recording through a tunnel host")
struct TunnelHostRecordingTests {
    @Test("a test recorded via .tunnelHost gets a complete video made by a recorder the host ran")
    func recordsThroughTheHost() async throws {
        let folder = RecordingTraitTests.Folder()
        let workspace = try Workspace()
        let host = try ChildProcess(
            try BuildProducts.showreel, ["host", "--port", "0"], environment: ProcessInfo.processInfo.environment,
            in: workspace, name: "host")
        let url = URL(string: "http://127.0.0.1:\(try await host.listeningPort())")!
        let test = try #require(Test.current)
        let configuration = RecordingConfiguration(.on, via: .tunnelHost(url), folder: folder.url)
        // The host stays up to the end: the last check asks it what it ran.
        try await host.stopping {
            try await DeviceTrait.device().provideScope(for: test, testCase: nil) {
                try await RecordingTrait.recorded(configuration).provideScope(for: test, testCase: nil) {
                    let app = Application("dev.showreel.hello")
                    try await app.launch()
                    for _ in 0..<3 { try await app.buttons["tapButton"].tap() }
                    #expect(try await app.staticTexts["tapCount"].label == "Tapped 3 times")
                }
            }
            let entry = try #require(try folder.manifest().entries.first)
            #expect(entry.status == .passed)
            let info = try MediaProbe.probe(folder.url.appendingPathComponent(try #require(entry.video)))
            #expect(info.codecName == "h264")
            #expect(info.width == 390, "the trait's scale reaches the recorder's command line")
            #expect(info.frameCount >= 7)  // the first screen, then a pressed and a released button per tap
            // The device in this process traced the test's actions while the host's recorder ran.
            let trace = try RunTrace.load(
                from: folder.url.appendingPathComponent(RunTrace.path(forVideo: try #require(entry.video))))
            #expect(entry.steps.map(\.title) == trace.steps.map(\.title))
            #expect(trace.steps.filter { $0.title == "tap buttons[\"tapButton\"]" }.count == 3, "\(trace.steps.map(\.title))")
            #expect(trace.steps.allSatisfy { $0.end <= info.duration + 0.001 })
            // The host ran the recorder and it exited cleanly after the interrupt.
            let commands = try await TunnelHostClient(baseURL: url).commands()
            #expect(commands.count == 1)
            #expect(commands.first?.argv.contains("recordVideo") == true)
            #expect(commands.first?.exitCode == 0)
        }
    }
}
