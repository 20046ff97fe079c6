import Foundation
import ShowreelGraphics
import ShowreelRecorder
import ShowreelRender
import Testing

#if canImport(Glibc)
import Glibc
import ShowreelTestSupport
#endif

/// A real headed browser suite recorded per test: Chromium under Selenium on an Xvfb display
/// started with `showreel display start`, pytest with this repository's plugin
/// (Integrations/pytest-showreel) recording through a real `showreel host`. The suite is
/// Fixtures/BrowserSuite: three tests, the last failing on purpose. Python, pytest and Selenium
/// come from the build folder's virtualenv (`scripts/browser-venv`, run by `make test`).
@Suite("Browser suite recorded per test", .serialized)
struct BrowserSuiteTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let tests = ["test_title", "test_clicks", "test_fails_on_purpose"]

    /// A display, a host and the workspace they run in; ended by `stop()`.
    struct Rig {
        let workspace: Workspace
        let display: String
        let host: ChildProcess
        let hostURL: String

        static func start() async throws -> Rig {
            let workspace = try Workspace()
            let showreel = try BuildProducts.showreel
            let start = try ChildProcess(
                showreel, ["display", "start", "--size", "1280x800"], environment: workspace.environment,
                in: workspace, name: "display")
            #expect(try await start.waitForExit() == 0, "display start: \(start.stderr)")
            let display = start.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            do {
                let host = try ChildProcess(
                    showreel, ["host", "--port", "0"], environment: workspace.environment, in: workspace, name: "host")
                let port = try await host.listeningPort()
                return Rig(workspace: workspace, display: display, host: host, hostURL: "http://127.0.0.1:\(port)")
            } catch {
                try? await stopDisplay(display, in: workspace)
                throw error
            }
        }

        /// Runs `body` on a fresh rig and stops it afterwards, whether `body` passed or threw: a
        /// failing test must not leave its Xvfb running.
        static func with(_ body: (Rig) async throws -> Void) async throws {
            let rig = try await start()
            do { try await body(rig) } catch {
                try? await rig.stop()
                throw error
            }
            try await rig.stop()
        }

        /// Runs a fixture suite (Fixtures/BrowserSuite unless `suite` names another) with
        /// `options` (after the display's); returns pytest.
        func pytest(_ name: String, _ options: [String], suite: String = "BrowserSuite") async throws -> ChildProcess {
            let python = BrowserSuiteTests.root.appendingPathComponent(".build/venv/bin/python")
            guard FileManager.default.isExecutableFile(atPath: python.path) else {
                throw TestFailure("no virtualenv at \(python.path): run scripts/browser-venv (make test does)")
            }
            var environment = workspace.environment
            environment["DISPLAY"] = display
            let arguments =
                [
                    "-m", "pytest", BrowserSuiteTests.root.appendingPathComponent("Fixtures/\(suite)").path,
                    "-p", "no:cacheprovider", "-rA", "--showreel-display", display,
                    "--showreel-command", try BuildProducts.showreel.path,
                ] + options
            let pytest = try ChildProcess(python, arguments, environment: environment, in: workspace, name: name, directory: workspace.url)
            _ = try await pytest.waitForExit(timeout: .seconds(180))
            print("pytest \(name):\n\(pytest.stdout.split(separator: "\n").suffix(6).joined(separator: "\n"))")
            return pytest
        }

        func stop() async throws {
            host.signal(SIGTERM)
            #expect(try await host.waitForExit() == 0)
            try await Self.stopDisplay(display, in: workspace)
        }

        private static func stopDisplay(_ display: String, in workspace: Workspace) async throws {
            let stop = try ChildProcess(
                try BuildProducts.showreel, ["display", "stop", display], environment: workspace.environment,
                in: workspace, name: "display-stop")
            #expect(try await stop.waitForExit() == 0)
        }
    }

    @Test("--showreel-record on: a video per test that decodes and shows the page; manifest, JUnit property, report")
    func recordEveryTest() async throws {
        try await Rig.with { rig in
            let output = rig.workspace.file("on")
            let junit = rig.workspace.file("pytest-junit.xml")
            let pytest = try await rig.pytest(
                "on",
                [
                    "--showreel-record", "on", "--showreel-host", rig.hostURL,
                    "--showreel-output", output.path, "--junitxml", junit.path,
                ])
            #expect(pytest.terminationStatus == 1, "the failing test must fail the run: \(pytest.stdout)")
            #expect(pytest.stdout.contains("1 failed, 2 passed"))
            #expect(!pytest.stdout.contains("ShowreelWarning"), "\(pytest.stdout)")
            for test in Self.tests {
                let video = output.appendingPathComponent("test_page/\(test).mp4")
                let frames = try await decodedFrames(video)
                #expect(!frames.isEmpty, "\(test): no frames")
                let last = try #require(frames.last).pixels
                let page = try PixelBuffer(pngData: Array(Data(contentsOf: output.appendingPathComponent("test_page/\(test).page.png"))))
                let agreement = Self.agreement(of: last, with: page)
                #expect(
                    agreement >= 0.9, "\(test): the video's last frame matches the page's screenshot at \(Int(agreement * 100))% of points")
            }
            let manifest = try Self.entries(output)
            #expect(manifest.map { $0["name"] as? String } == Self.tests)
            #expect(manifest.map { $0["status"] as? String } == ["passed", "passed", "failed"])
            #expect(manifest.map { $0["video"] as? String } == Self.tests.map { "test_page/\($0).mp4" })
            let properties = try String(contentsOf: junit, encoding: .utf8)
            #expect(properties.contains("<property name=\"showreel_video\" value=\"\(output.path)/test_page/test_clicks.mp4\""))
        }
    }

    @Test("--showreel-record retain-on-failure keeps the failing test's video only; showreel report lists every test")
    func retainOnFailure() async throws {
        try await Rig.with { rig in
            let output = rig.workspace.file("retain")
            let pytest = try await rig.pytest(
                "retain",
                [
                    "--showreel-record", "retain-on-failure", "--showreel-host", rig.hostURL,
                    "--showreel-output", output.path,
                ])
            #expect(pytest.terminationStatus == 1)
            let videos = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("test_page").path)
                .filter { $0.hasSuffix(".mp4") }
            #expect(videos == ["test_fails_on_purpose.mp4"])
            #expect(try await !decodedFrames(output.appendingPathComponent("test_page/test_fails_on_purpose.mp4")).isEmpty)
            let entries = try Self.entries(output)
            #expect(entries.map { $0["video"] as? String } == [nil, nil, "test_page/test_fails_on_purpose.mp4"])
            // The Swift side reads the manifest: report.html and junit.xml list both outcomes.
            let report = rig.workspace.file("report")
            let merge = try ChildProcess(
                try BuildProducts.showreel, ["report", "merge", output.path, "--output", report.path],
                environment: rig.workspace.environment, in: rig.workspace, name: "merge")
            #expect(try await merge.waitForExit() == 1, "merge: \(merge.stderr)")  // 1: the run has a failure
            #expect(merge.stdout.contains("3 entries from 1 run: 2 passed, 1 failed"), "\(merge.stdout)")
            let junit = try String(contentsOf: report.appendingPathComponent("junit.xml"), encoding: .utf8)
            for test in Self.tests { #expect(junit.contains("name=\"\(test)\"")) }
            #expect(junit.contains("<failure"))
            let html = try String(contentsOf: report.appendingPathComponent("report.html"), encoding: .utf8)
            for test in Self.tests { #expect(html.contains(test), "report.html does not list \(test)") }
            #expect(html.contains("test_page/test_fails_on_purpose.mp4"), "report.html does not play the kept video")
        }
    }

    @Test("a tunnel host that is down does not break the suite: each test warns, naming the host and how to start it")
    func hostDown() async throws {
        try await Rig.with { rig in
            let pytest = try await rig.pytest(
                "down",
                [
                    "--showreel-record", "on", "--showreel-host", "http://127.0.0.1:9",
                    "--showreel-output", rig.workspace.file("down").path, "-k", "not fails",
                ])
            #expect(pytest.terminationStatus == 0, "\(pytest.stdout)")
            #expect(pytest.stdout.contains("2 passed"))
            #expect(pytest.stdout.contains("no tunnel host at http://127.0.0.1:9"), "\(pytest.stdout)")
            #expect(pytest.stdout.contains("Start the host with `showreel host`"))
        }
    }

    @Test(
        "ids that read the same as file names (a/b, a_b) get videos of their own; retain-on-failure keeps the failing one's; a 300-character id warns about its name"
    )
    func clashingAndLongNames() async throws {
        try await Rig.with { rig in
            let retained = rig.workspace.file("retain")
            let retain = try await rig.pytest(
                "names-retain",
                ["--showreel-record", "retain-on-failure", "--showreel-host", rig.hostURL, "--showreel-output", retained.path],
                suite: "PluginSuite")
            #expect(retain.terminationStatus == 1, "\(retain.stdout)")
            #expect(retain.stdout.contains("1 failed, 2 passed"), "\(retain.stdout)")
            let kept = try FileManager.default.contentsOfDirectory(atPath: retained.appendingPathComponent("test_names").path)
            #expect(kept == ["test_path[a_b].mp4"], "only the failing test's video is kept: \(kept)")
            let failing = retained.appendingPathComponent("test_names/test_path[a_b].mp4")
            #expect(try await offPool { try FrameDecoder.decodeFrames(failing) }.count >= 1)
            let entries = try Self.entries(retained)
            #expect(entries.map { $0["status"] as? String } == ["failed", "passed", "passed"])
            #expect(entries.map { $0["video"] as? String } == ["test_names/test_path[a_b].mp4", nil, nil])
            // The long id is recorded under a shortened name, with a warning about the name alone.
            #expect(retain.stdout.contains("too long for a file name"), "\(retain.stdout)")
            #expect(!retain.stdout.contains("Start the host"), "\(retain.stdout)")

            let everything = rig.workspace.file("on")
            let on = try await rig.pytest(
                "names-on", ["--showreel-record", "on", "--showreel-host", rig.hostURL, "--showreel-output", everything.path],
                suite: "PluginSuite")
            #expect(on.terminationStatus == 1, "\(on.stdout)")
            let videos = try #require(try Self.entries(everything).map { $0["video"] as? String })
            #expect(Set(videos.compactMap { $0 }).count == 3, "three tests, three files: \(videos)")
            #expect(videos.prefix(2) == ["test_names/test_path[a_b].mp4", "test_names/test_path[a_b] 2.mp4"], "\(videos)")
            let long = try #require(videos.last.flatMap { $0 })
            #expect(long.hasPrefix("test_names/test_long[xxx") && long.contains("\u{2026}"), "\(long)")
            #expect(long.utf8.count < 160, "\(long)")
            for video in videos.compactMap({ $0 }) {
                let url = everything.appendingPathComponent(video)
                #expect(try await offPool { try FrameDecoder.decodeFrames(url) }.count >= 1, "\(video)")
            }
        }
    }

    /// The share of sampled points (a 32x20 grid over `page`) where `frame`, at the same place,
    /// has nearly the same colour (H.264's 4:2:0 chroma shifts colours a little).
    static func agreement(of frame: PixelBuffer, with page: PixelBuffer) -> Double {
        var matching = 0, total = 0
        for row in 0..<20 {
            for column in 0..<32 {
                let x = (column * 2 + 1) * min(frame.width, page.width) / 64
                let y = (row * 2 + 1) * min(frame.height, page.height) / 40
                let a = frame.pixel(x: x, y: y), b = page.pixel(x: x, y: y)
                total += 1
                if abs(Int(a.red) - Int(b.red)) < 40, abs(Int(a.green) - Int(b.green)) < 40, abs(Int(a.blue) - Int(b.blue)) < 40 {
                    matching += 1
                }
            }
        }
        return Double(matching) / Double(total)
    }

    static func entries(_ folder: URL) throws -> [[String: Any]] {
        let data = try Data(contentsOf: folder.appendingPathComponent("manifest.json"))
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(manifest["entries"] as? [[String: Any]])
    }
}
