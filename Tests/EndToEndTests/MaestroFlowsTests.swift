import Foundation
import ShowreelTestSupport
import Testing

/// Maestro's own demo-app flows (Fixtures/Maestro, copied unchanged from mobile-dev-inc/maestro
/// at release 1.39.10) run by the built `showreel run` against `com.example.example`, each
/// into its own video on the virtual clock.
///
/// Every fixture is in exactly one list below: it passes, fails as Maestro's suite expects, or
/// cannot pass on a Showreel device (with the reason).
@Suite("Maestro's own flows", .timeLimit(.minutes(10)))
struct MaestroFlowsTests {
    static let repository = FlowRunTests.repository
    static let folder = "Fixtures/Maestro"

    /// Flows that pass, as in Maestro's suite.
    static let passing = [
        "commands/assertNotVisible.yaml", "commands/assertTrue.yaml", "commands/assertVisible.yaml", "commands/back.yaml",
        "commands/copyTextFrom.yaml", "commands/eraseText.yaml", "commands/evalScript.yaml", "commands/extendedWaitUntil.yaml",
        "commands/inputRandomEmail.yaml", "commands/inputRandomNumber.yaml", "commands/inputRandomPersonName.yaml",
        "commands/inputRandomText.yaml", "commands/inputText.yaml", "commands/killApp.yaml", "commands/launchApp.yaml",
        "commands/pasteText.yaml", "commands/pressKey.yaml", "commands/repeat.yaml", "commands/retry.yaml", "commands/runFlow.yaml",
        "commands/runScript.yaml", "commands_optional_tournee.yaml", "fill_form.yaml", "long_input_text.yaml", "relatives.yaml",
        "scrollUntilVisible_timeout.yaml", "swipe.yaml",
    ]

    /// Maestro's `fail_*` flows: its suite checks that they fail, and so does this one, with
    /// the exit status (1: the flow ran and failed; 64: refused before anything ran, as an app
    /// that is not installed is) and a text the error names.
    static let failing: [String: (status: Int32, names: String)] = [
        "fail_not_found.yaml": (1, "non-existent-id"),
        "fail_visible.yaml": (1, "non-existent-id"),
        "fail_launchApp.yaml": (64, "com.nonexistent"),
        "fail_launchApp_nonDefault.yaml": (64, "com.nonexistent"),
        "fail_fast.yaml": (1, "is not true"),
        "fail_visible_extended.yaml": (1, "non-existent-id"),
    ]

    /// Flows that cannot pass on a Showreel device, and why (docs/flows.md lists them too).
    static let cannotPass: [String: String] = [
        "commands/hideKeyboard.yaml":
            "asserts the Android keyboard's shift key (com.google.android.inputmethod.latin:id/key_pos_shift), an Android-only identifier",
        "commands_tour.yaml": "runs every command flow, hideKeyboard.yaml's Android keyboard among them",
    ]

    /// What a command flow reads from commands_tour.yaml's header when it runs on its own.
    static let environment: [String: [String: String]] = ["commands/assertTrue.yaml": ["THING": "five"]]

    /// Every flow file under Fixtures/Maestro, relative to it.
    static var fixtures: [String] {
        let root = repository.appendingPathComponent(folder)
        let files = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".yaml") }.sorted()
    }

    /// `showreel run` from the repository, given the time a long flow's video takes to encode.
    func run(_ arguments: [String], in workspace: Workspace, name: String) async throws -> ChildProcess {
        try await FlowRunTests().run(arguments, in: workspace, name: name, timeout: .seconds(480))
    }

    @Test("every fixture is in exactly one list, and docs/flows.md names each flow that cannot pass")
    func listsCoverTheFixtures() throws {
        let listed = Self.passing + Array(Self.failing.keys) + Array(Self.cannotPass.keys)
        #expect(listed.count == Set(listed).count, "a flow is in two lists")
        #expect(
            Set(listed) == Set(Self.fixtures),
            "unlisted: \(Set(Self.fixtures).subtracting(listed)); gone: \(Set(listed).subtracting(Self.fixtures))")
        let docs = try String(contentsOf: Self.repository.appendingPathComponent("docs/flows.md"), encoding: .utf8)
        for flow in Self.cannotPass.keys { #expect(docs.contains("`\(flow)`"), "docs/flows.md does not list \(flow)") }
        let provenance = try String(contentsOf: Self.repository.appendingPathComponent("\(Self.folder)/README.md"), encoding: .utf8)
        #expect(provenance.contains("dcd2f206fbbaf61e5f089f844d572f8888d13913"))
        let licence = try String(contentsOf: Self.repository.appendingPathComponent("\(Self.folder)/LICENSE"), encoding: .utf8)
        #expect(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004"))
    }

    @Test("the flows expected to pass pass, each into its own video that decodes")
    func passingFlows() async throws {
        let workspace = try Workspace()
        let output = workspace.file("Recordings")
        let variables = Self.passing.compactMap { Self.environment[$0] }.flatMap { $0 }.sorted { $0.key < $1.key }
        let arguments =
            ["run"] + Self.passing.map { "\(Self.folder)/\($0)" } + variables.flatMap { ["-e", "\($0.key)=\($0.value)"] }
            + ["--output", output.path, "--workers", "2", "--scale", "0.25"]
        let run = try await run(arguments, in: workspace, name: "maestro")
        #expect(run.terminationStatus == 0, "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        let count = Self.passing.count
        #expect(run.stdout.contains("\(count) flow\(count == 1 ? "" : "s"): \(count) passed, 0 failed"), "\(run.stdout)")

        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("manifest.json"))) as? [String: Any])
        let entries = try #require(manifest["entries"] as? [[String: Any]])
        #expect(Set(entries.compactMap { $0["id"] as? String }) == Set(Self.passing.map { "\(Self.folder)/\($0)" }))
        var videos: Set<String> = []
        for entry in entries {
            #expect(entry["status"] as? String == "passed", "\(entry["id"] ?? "?")")
            let video = try #require(entry["video"] as? String)
            videos.insert(video)
            let report = try await ffprobe(output.appendingPathComponent(video))
            #expect(report.streams.first?.codec_name == "h264", "\(video)")
            #expect((report.frames ?? 0) > 0, "\(video) decodes no frame")
            let duration = try #require(entry["duration"] as? Double)
            #expect(abs((report.duration ?? 0) - duration) < 0.05, "\(video): \(report.duration ?? 0) s vs the manifest's \(duration) s")
        }
        #expect(videos.count == count, "each flow has its own video")
    }

    @Test("Maestro's failing flows fail, naming what was missing")
    func failingFlows() async throws {
        let workspace = try Workspace()
        for (flow, expected) in Self.failing.sorted(by: { $0.key < $1.key }) {
            let name = String(flow.dropLast(5))
            let run = try await run(
                ["run", "\(Self.folder)/\(flow)", "--output", workspace.file(name).path, "--scale", "0.25"], in: workspace, name: name)
            #expect(run.terminationStatus == expected.status, "\(flow): \(run.stderr)")
            #expect(run.stderr.contains("\(flow):") && run.stderr.contains(expected.names), "\(flow): \(run.stderr)")
        }
    }
}
