import Foundation
import ShowreelRecorder
import ShowreelReport
import ShowreelTestSupport
import ShowreelTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `showreel init`: a new package written against this checkout, built once, then run as its
/// README says: its flows under its own executable's `run`, its tests under `swift test`, and an
/// Appium client session on its app through its own executable's `webdriver`.
@Suite("showreel init")
struct InitPackageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The generated package's build folder, kept between runs in this checkout's `.build`, so
    /// a second run rebuilds only the new package's own files, not Showreel.
    static let scratch = root.appendingPathComponent(".build/init-proof")

    static func initPackage(_ arguments: [String], in workspace: Workspace, name: String = "init") async throws -> ChildProcess {
        let process = try ChildProcess(
            try BuildProducts.showreel, ["init"] + arguments, environment: workspace.environment, in: workspace, name: name)
        _ = try await process.waitForExit()
        return process
    }

    @Test("init refuses a name that is not a Swift identifier and a folder that is not empty: one sentence, exit 64, nothing written")
    func refusals() async throws {
        let workspace = try Workspace()
        let target = workspace.file("new")
        let badName = try await Self.initPackage(["9Lives", "--output", target.path, "--showreel", Self.root.path], in: workspace)
        #expect(badName.terminationStatus == 64)
        #expect(badName.stderr.hasPrefix("error: '9Lives' is not a valid Swift identifier"), "\(badName.stderr)")
        #expect(badName.stderr.split(separator: "\n").count == 1, "one sentence: \(badName.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target.path), "nothing written for a bad name")

        let full = workspace.file("full")
        try FileManager.default.createDirectory(at: full, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: full.appendingPathComponent("Package.swift"))
        let occupied = try await Self.initPackage(["Groceries", "--output", full.path], in: workspace, name: "occupied")
        #expect(occupied.terminationStatus == 64)
        #expect(occupied.stderr.contains("already exists and is not empty"), "\(occupied.stderr)")
        #expect(occupied.stderr.split(separator: "\n").count == 1, "one sentence: \(occupied.stderr)")
        #expect(try String(contentsOf: full.appendingPathComponent("Package.swift"), encoding: .utf8) == "mine", "never overwrites")
        #expect(try FileManager.default.contentsOfDirectory(atPath: full.path) == ["Package.swift"])

        let notShowreel = try await Self.initPackage(
            ["Groceries", "--output", target.path, "--showreel", workspace.url.path], in: workspace, name: "not-showreel")
        #expect(notShowreel.terminationStatus == 64)
        #expect(notShowreel.stderr.contains("no Package.swift there"), "\(notShowreel.stderr)")
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    @Test("by default the package depends on Showreel by URL and branch; an empty folder is used as it is")
    func defaultDependency() async throws {
        let workspace = try Workspace()
        let target = workspace.file("empty")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        let made = try await Self.initPackage(["Groceries", "--output", target.path], in: workspace)
        #expect(made.terminationStatus == 0, "\(made.stderr)")
        let manifest = try String(contentsOf: target.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains(".package(url: \"https://github.com/showreel-dev/showreel.git\", branch: \"main\")"), "\(manifest)")
        #expect(manifest.contains(".product(name: \"ShowreelCLI\", package: \"showreel\")"))
        for file in [
            ".gitignore", ".github/workflows/ui.yml", "README.md", "Flows/browse.yaml", "Sources/groceries/GroceriesCommand.swift",
        ] {
            #expect(FileManager.default.fileExists(atPath: target.appendingPathComponent(file).path), "\(file)")
        }
    }

    @Test(
        "a package from `showreel init` against this checkout builds once; its flows pass under its executable's run, its tests pass and leave videos, an Appium client drives its app through its webdriver"
    )
    func generatedPackageRuns() async throws {
        let workspace = try Workspace()
        let package = workspace.file("Groceries")
        let made = try await Self.initPackage(
            [package.lastPathComponent, "--output", package.path, "--showreel", Self.root.path], in: workspace)
        #expect(made.terminationStatus == 0, "\(made.stderr)")
        let swift = URL(fileURLWithPath: "/usr/bin/env")

        // Built once: the executable and the tests. `make test` runs this test on its own, after
        // the suite: a second build of Showreel takes minutes of both cores.
        let build = try ChildProcess(
            swift, ["swift", "build", "--build-tests", "--scratch-path", Self.scratch.path],
            environment: workspace.environment,
            in: workspace, name: "build", directory: package)
        let built = try await build.waitForExit(timeout: .seconds(3600))
        try #require(built == 0, "swift build:\n\(build.stdout.suffix(4000))\n\(build.stderr.suffix(4000))")
        let executable = Self.scratch.appendingPathComponent("debug/groceries")

        // Its flows, under its own executable's `run`.
        let flowsOutput = workspace.file("flows")
        let run = try ChildProcess(
            executable, ["run", "Flows", "--output", flowsOutput.path], environment: workspace.environment, in: workspace, name: "run",
            directory: package)
        #expect(try await run.waitForExit(timeout: .seconds(600)) == 0, "run:\n\(run.stdout)\n\(run.stderr)")
        let flows = try RunManifest.load(from: flowsOutput.appendingPathComponent("manifest.json"))
        #expect(
            flows.entries.count == 3 && flows.entries.allSatisfy { $0.status == .passed }, "\(flows.entries.map { ($0.id, $0.failures) })")

        // `run` checks a flow's app against the package's own apps, with a "did you mean".
        let typo = try workspace.write("typo.yaml", "appId: com.example.grocerie\n---\n- launchApp\n")
        let refused = try ChildProcess(
            executable, ["run", typo.path, "--output", workspace.file("typo").path], environment: workspace.environment, in: workspace,
            name: "typo")
        #expect(try await refused.waitForExit() == 64)
        #expect(refused.stderr.contains("did you mean 'com.example.groceries'?"), "\(refused.stderr)")
        #expect(refused.stderr.contains("(installed: com.example.groceries)"), "only the package's app: \(refused.stderr)")

        try await Self.bootAndRecordThroughHost(executable, workspace)

        // Its tests, under `swift test`, leaving a video each.
        let testsOutput = workspace.file("tests")
        var environment = workspace.environment
        environment["SHOWREEL_RECORDINGS"] = testsOutput.path
        let test = try ChildProcess(
            swift, ["swift", "test", "--skip-build", "--scratch-path", Self.scratch.path], environment: environment, in: workspace,
            name: "test", directory: package)
        #expect(
            try await test.waitForExit(timeout: .seconds(600)) == 0, "swift test:\n\(test.stdout.suffix(6000))\n\(test.stderr.suffix(3000))"
        )
        let tests = try RunManifest.load(from: testsOutput.appendingPathComponent("manifest.json"))
        #expect(tests.entries.count == 6, "three tests, two languages, one XCTest case: \(tests.entries.map(\.id))")
        #expect(tests.entries.allSatisfy { $0.status == .passed }, "\(tests.entries.map { ($0.id, $0.failures) })")
        let videos = tests.entries.compactMap(\.video).map { testsOutput.appendingPathComponent($0) }
        #expect(videos.count == 6, "a video per test: \(videos)")
        let french = try #require(videos.first { $0.lastPathComponent.contains("fr") }, "the French test's video: \(videos)")
        let frames = try await offPool { try MediaProbe.probe(french).frameCount }
        #expect(frames > 1, "the French test's video decodes")

        // An Appium client session on its app, through its own executable's `webdriver`.
        let wdOutput = workspace.file("webdriver")
        let server = try ChildProcess(
            executable, ["webdriver", "--port", "0", "--output", wdOutput.path], environment: workspace.environment, in: workspace,
            name: "webdriver")
        try await server.stopping {
            let url = try await Self.webDriverURL(server)
            let python = Self.root.appendingPathComponent(".build/venv/bin/python")
            guard FileManager.default.isExecutableFile(atPath: python.path) else {
                throw TestFailure("no virtualenv at \(python.path): run scripts/browser-venv (make test does)")
            }
            let script = try workspace.write("appium_session.py", Self.appiumSession)
            environment["SHOWREEL_WEBDRIVER_URL"] = url
            let client = try ChildProcess(python, [script.path], environment: environment, in: workspace, name: "appium")
            #expect(try await client.waitForExit(timeout: .seconds(300)) == 0, "appium:\n\(client.stdout)\n\(client.stderr)")
            #expect(client.stdout.contains("Apples"), "\(client.stdout)")
            server.signal(SIGTERM)
            #expect(try await server.waitForExit() == 0, "\(server.stderr)")
        }
        let session = try RunManifest.load(from: wdOutput.appendingPathComponent("manifest.json"))
        #expect(session.entries.map(\.video) == ["groceries-appium.mov"] && session.entries.first?.status == .passed)
    }

    /// The package's executable boots a device with its app (which `device list` and `GET /v1/info`
    /// name), and its tunnel host, with no `showreel` on its PATH, runs a legacy `/launch` of
    /// `showreel io booted recordVideo ...` as itself, as an iOS suite sends it.
    static func bootAndRecordThroughHost(_ executable: URL, _ workspace: Workspace) async throws {
        let device = try ChildProcess(
            executable, ["device", "boot", "--clock", "virtual", "--launch", "com.example.groceries", "--", "--items-source", "mock"],
            environment: workspace.environment, in: workspace, name: "device")
        try await device.stopping {
            let deadline = ContinuousClock.now + .seconds(60)
            while !device.stderr.contains("automation API at") {
                guard device.process.isRunning, ContinuousClock.now < deadline else { throw TestFailure("device boot: \(device.stderr)") }
                try await Task.sleep(for: .milliseconds(20))
            }
            let udid = device.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let list = try ChildProcess(executable, ["device", "list"], environment: workspace.environment, in: workspace, name: "list")
            #expect(try await list.waitForExit() == 0)
            #expect(list.stdout.contains(udid) && list.stdout.contains("  com.example.groceries"), "\(list.stdout)")
            let client = try DeviceClient.named(udid, registry: workspace.registry)
            #expect(try await client.info().installedApps == ["com.example.groceries"])

            var environment = workspace.environment
            environment["PATH"] = "/usr/bin:/bin"
            let host = try ChildProcess(executable, ["host", "--port", "0"], environment: environment, in: workspace, name: "host")
            try await host.stopping {
                let tunnel = TunnelHostClient(baseURL: URL(string: "http://127.0.0.1:\(try await host.listeningPort())")!)
                let video = workspace.file("booted.mov")
                let recording = try await HostRecording.start(
                    host: tunnel, argv: ["showreel", "io", "booted", "recordVideo", "--force", video.path], api: .legacy)
                try await Application("com.example.groceries", device: client).cells["apples"].tap()
                try await recording.stop()
                #expect(
                    try await tunnel.command(recording.id).executable == executable.resolvingSymlinksInPath().path,
                    "the host ran itself as `showreel`")
                let frames = try await offPool { try MediaProbe.probe(video).frameCount }
                #expect(frames > 1, "the list, then the item's details")
            }
        }
    }

    /// The server's URL from its "listening" line.
    static func webDriverURL(_ server: ChildProcess) async throws -> String {
        let prefix = "WebDriver server listening on http://127.0.0.1:"
        let deadline = ContinuousClock.now + .seconds(60)
        while true {
            if let line = server.stderr.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }),
                let port = Int(line.dropFirst(prefix.count).prefix { $0.isNumber })
            {
                return "http://127.0.0.1:\(port)"
            }
            guard server.process.isRunning, ContinuousClock.now < deadline else {
                throw TestFailure("the package's webdriver did not report listening: \(server.stderr)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Appium's Python client: a recorded session on the package's app, an item's details.
    static let appiumSession = #"""
        import os
        from appium import webdriver
        from appium.options.common import AppiumOptions
        from appium.webdriver.common.appiumby import AppiumBy

        options = AppiumOptions()
        options.platform_name = "iOS"
        options.set_capability("appium:automationName", "XCUITest")
        options.set_capability("appium:bundleId", "com.example.groceries")
        options.set_capability("appium:processArguments", {"args": ["--items-source", "mock"], "env": {}})
        options.set_capability("showreel:record", True)
        options.set_capability("showreel:name", "groceries-appium")
        driver = webdriver.Remote(os.environ["SHOWREEL_WEBDRIVER_URL"], options=options)
        try:
            driver.find_element(AppiumBy.ACCESSIBILITY_ID, "apples").click()
            name = driver.find_element(AppiumBy.ACCESSIBILITY_ID, "itemName").text
            assert name == "Apples", name
            print(name)
        finally:
            driver.quit()
        """#
}
