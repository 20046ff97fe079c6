import Foundation
import ShowcaseApps
import ShowreelFlows
import ShowreelRecorder
import ShowreelReport
import ShowreelUI
import Testing

@Suite("Running flows in-process")
struct FlowRunnerTests {
    @Test("runFlow and repeat run their steps in place; each step is listed with its own file's location and its time")
    func nestedSteps() async throws {
        let folder = try FlowFolder()
        try folder.write("sub/tap.yaml", "- tapOn: {id: tapButton}\n- wait: 0.5\n")
        let file = try folder.write(
            "nested.yaml",
            """
            appId: dev.showreel.hello
            ---
            - launchApp
            - repeat:
                times: 2
                commands:
                  - runFlow: sub/tap.yaml
            - assertVisible: "Tapped 2 times"
            - assertNotVisible: {text: "Tapped 3 times", timeout: 0}
            """)
        let entry = try await Self.run(file, id: "nested.yaml", into: folder, videoName: "nested")
        #expect(entry.status == .passed, "\(entry.failures)")
        #expect(
            entry.steps.map(\.title) == [
                "launchApp", "repeat: {times: 2, commands: [{runFlow: sub/tap.yaml}]}",
                "runFlow: sub/tap.yaml", "tapOn: {id: tapButton}", "wait: 0.5",
                "runFlow: sub/tap.yaml", "tapOn: {id: tapButton}", "wait: 0.5",
                "assertVisible: \"Tapped 2 times\"", "assertNotVisible: {text: \"Tapped 3 times\", timeout: 0}",
            ])
        #expect(entry.steps[3].location == "sub/tap.yaml:1:3")
        let times = entry.steps.map(\.time)
        #expect(times == times.sorted() && times[5] > times[2])
        #expect(abs((times.last ?? 0) - entry.duration) < 0.001)
    }

    /// Parses `file` for the sample apps and runs it on an in-process device at a quarter of the size.
    static func run(_ file: URL, id: String, into folder: FlowFolder, videoName: String) async throws -> ManifestEntry {
        let flow = try FlowParser(knownApps: ShowcaseCatalog.apps.map(\.bundleIdentifier)).parse(fileAt: file, id: id)
        let runner = FlowRunner(
            options: FlowRunOptions(
                output: folder.url.appendingPathComponent("out"), apps: ShowcaseCatalog.apps,
                recording: RecordingOptions(scale: 0.25)))
        return await runner.run(flow, videoName: videoName)
    }
}
