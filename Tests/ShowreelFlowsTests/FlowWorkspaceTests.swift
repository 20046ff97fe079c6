import Foundation
import ShowcaseApps
import ShowreelFlows
import ShowreelRecorder
import ShowreelRender
import ShowreelReport
import ShowreelUI
import Testing

/// An app that shows its launch environment's `GREETING` and `KEPT` as `greeting` and `kept`.
enum EnvironmentEchoApp {
    static let bundleIdentifier = "dev.showreel.test.environment-echo"

    static let definition = AppDefinition(bundleIdentifier: bundleIdentifier, displayName: "Environment echo") { context in
        let screen = Screen(title: "Environment echo")
        for (index, name) in ["GREETING", "KEPT"].enumerated() {
            let label = Label(context.environment[name] ?? "unset")
            label.accessibilityIdentifier = name.lowercased()
            label.frame = Rect(x: 10, y: 100 + Double(index) * 40, width: 360, height: 26)
            screen.view.addSubview(label)
        }
        return screen
    }
}

@Suite("A workspace: config.yaml, tags and -e variables", .timeLimit(.minutes(10)))
struct FlowWorkspaceTests {
    @Test("flows globs read as Java's (Maestro's): * and ? within a folder, ** across, classes, alternatives")
    func globs() throws {
        let cases: [(String, String, Bool)] = [
            ("*", "a.yaml", true), ("*", "smoke/a.yaml", false), ("smoke/*", "smoke/a.yaml", true),
            ("**", "smoke/deep/a.yaml", true), ("**/*.yaml", "a.yaml", false), ("**/*.yaml", "x/a.yaml", true),
            ("?.yaml", "a.yaml", true), ("?.yaml", "ab.yaml", false), ("{smoke,login}/*", "login/a.yaml", true),
            ("[!b]*.yaml", "a.yaml", true), ("[!b]*.yaml", "b.yaml", false), ("a.yaml", "a_yaml", false),
        ]
        for (pattern, path, matches) in cases {
            #expect(try FlowGlob(pattern).matches(path) == matches, "\(pattern) ~ \(path)")
        }
        #expect(try FlowGlob("smoke/login/*.yaml").literalFolder == "smoke/login")
        #expect(try FlowGlob("*/a.yaml").literalFolder == nil)
        #expect(throws: FlowGlobError.self) { try FlowGlob("{a,b") }
    }

    @Test("-e values go over the header's env: into the flow's environment, and the launched app sees them")
    func variablesReachTheApp() async throws {
        let folder = try FlowFolder()
        try folder.write(
            "echo.yaml",
            """
            appId: \(EnvironmentEchoApp.bundleIdentifier)
            env:
              GREETING: from the header
              KEPT: kept from the header
            ---
            - launchApp
            - assertVisible: "from the command line"
            - assertVisible: "kept from the header"
            """)
        let variables = ["GREETING": "from the command line", "ONLY": "given"]
        let selection = try FlowWorkspace.select(
            FlowWorkspace.Request(paths: [folder.url.path], variables: variables),
            parser: FlowParser(knownApps: [EnvironmentEchoApp.bundleIdentifier]))
        let flow = try #require(selection.flows.first)
        #expect(flow.environment == ["GREETING": "from the command line", "KEPT": "kept from the header", "ONLY": "given"])
        let options = FlowRunOptions(
            output: folder.url.appendingPathComponent("out"), apps: [EnvironmentEchoApp.definition],
            recording: RecordingOptions(scale: 0.25), previews: false, variables: variables)
        #expect(options.variables == variables)
        let entry = await FlowRunner(options: options).run(flow, videoName: "echo")
        #expect(entry.status == .passed, "\(entry.failures)")
    }

    @Test("config.yaml is never a flow; a workspace without one runs its top-level flows, one with flows: at any depth")
    func discovery() throws {
        let folder = try FlowFolder()
        let flow = "appId: \(EnvironmentEchoApp.bundleIdentifier)\ntags: [a]\n---\n- launchApp\n"
        try folder.write("top.yaml", flow)
        try folder.write("sub/deep.yaml", flow)
        try folder.write("config.yml", "")
        let parser = FlowParser(knownApps: [EnvironmentEchoApp.bundleIdentifier])
        let top = try FlowWorkspace.select(FlowWorkspace.Request(paths: [folder.url.path]), parser: parser)
        #expect(top.flows.map { ($0.id as NSString).lastPathComponent } == ["top.yaml"])
        try folder.write("config.yml", "flows: '**'\nexcludeTags: [b]\n")
        let deep = try FlowWorkspace.select(FlowWorkspace.Request(paths: [folder.url.path], includeTags: ["a"]), parser: parser)
        #expect(deep.flows.map(\.id) == ["sub/deep.yaml", "top.yaml"].map { folder.url.path + "/" + $0 })
        #expect(deep.leftOutByTags == 0)
        #expect(throws: FlowWorkspaceError.self) {
            try FlowWorkspace.select(FlowWorkspace.Request(paths: [folder.url.path], excludeTags: ["a"]), parser: parser)
        }
    }

    @Test(
        "executionOrder in a matrix: ordered flows first, flow by flow in every cell; after a failure without continueOnFailure the ordered rest is skipped, the others run"
    )
    func orderedMatrix() async throws {
        let folder = try FlowFolder()
        let passing = "appId: dev.showreel.hello\n---\n- launchApp\n- assertVisible: {id: tapCount}\n"
        try folder.write("a.yaml", passing)
        try folder.write("b.yaml", "appId: dev.showreel.hello\n---\n- launchApp\n- assertVisible: {text: Nowhere, timeout: 0.5}\n")
        try folder.write("c.yaml", passing)
        try folder.write("config.yaml", "executionOrder:\n  continueOnFailure: false\n  flowsOrder: [b, c]\n")
        let selection = try FlowWorkspace.select(
            FlowWorkspace.Request(paths: [folder.url.path]), parser: FlowParser(knownApps: ShowcaseCatalog.apps.map(\.bundleIdentifier)))
        #expect(selection.flows.map(\.name) == ["b", "c", "a"])
        let order = try #require(selection.order)
        #expect(!order.continueOnFailure)
        let jobs = try RunMatrix(appearances: ["light", "dark"]).jobs(for: selection.flows)
        let runner = MatrixRunner(
            options: FlowRunOptions(
                output: folder.url.appendingPathComponent("out"), apps: ShowcaseCatalog.apps, recording: RecordingOptions(scale: 0.25),
                previews: false))
        let result = await runner.run(jobs, workers: 2, order: order)
        #expect(
            result.entries.map { "\($0.nameInCell) \($0.status)" } == [
                "b [en-phone-light] failed", "b [en-phone-dark] skipped", "c [en-phone-light] skipped", "c [en-phone-dark] skipped",
                "a [en-phone-light] passed", "a [en-phone-dark] passed",
            ])
        #expect(result.entries[2].failures.first?.message.contains("b [en-phone-light] failed before it") == true)
    }
}
