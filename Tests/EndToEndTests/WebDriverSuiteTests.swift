import Foundation
import ShowreelRecorder
import ShowreelReport
import ShowreelTestSupport
import ShowreelTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `showreel webdriver` driven by real clients: the pytest suite in Tests/WebDriverSuite with
/// Appium's Python client and Selenium (from the build folder's virtualenv, `scripts/browser-venv`),
/// and raw HTTP for what a suite cannot see (the server stopping, an attached device).
@Suite("WebDriver server")
struct WebDriverSuiteTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A `showreel webdriver` on a free port, writing into the workspace's `out`.
    struct Server {
        let process: ChildProcess
        let url: String
        let output: URL

        static func start(_ workspace: Workspace, _ extra: [String] = []) async throws -> Server {
            let output = workspace.file("out")
            let process = try ChildProcess(
                try BuildProducts.showreel, ["webdriver", "--port", "0", "--output", output.path] + extra,
                environment: workspace.environment, in: workspace, name: "webdriver")
            let prefix = "WebDriver server listening on http://127.0.0.1:"
            let deadline = ContinuousClock.now + .seconds(60)
            while true {
                if let line = process.stderr.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }),
                    let port = Int(line.dropFirst(prefix.count).prefix { $0.isNumber })
                {
                    return Server(process: process, url: "http://127.0.0.1:\(port)", output: output)
                }
                guard process.process.isRunning, ContinuousClock.now < deadline else {
                    process.process.terminate()
                    throw TestFailure("showreel webdriver did not report listening: \(process.stderr)")
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }

        /// SIGTERM, as a CI job's end sends it: the server must end its sessions and exit 0.
        func stop() async throws {
            kill(process.process.processIdentifier, SIGTERM)
            #expect(try await process.waitForExit(timeout: .seconds(120)) == 0, "stderr: \(process.stderr)")
        }

        func call(_ method: String, _ path: String, _ body: [String: Any]? = nil, headers: [String: String] = [:]) async throws -> (
            Int, [String: Any]
        ) {
            var request = URLRequest(url: URL(string: url + path)!)
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            request.httpMethod = method
            request.timeoutInterval = 600  // a hang's bound; a loaded machine may answer late
            if var body {
                if method == "POST", path.hasSuffix("/session") { body = Self.withoutSilenceTimeout(body) }
                request.httpBody = try JSONSerialization.data(withJSONObject: body)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
            let (data, response) = try await httpData(for: request)
            let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, json)
        }

        /// A new session's capabilities with `appium:newCommandTimeout` 0 (never) unless they set
        /// it: a loaded machine can leave a test's client silent for a minute, which is slowness,
        /// not the silence that option ends sessions for (the test of it sets its own).
        static func withoutSilenceTimeout(_ body: [String: Any]) -> [String: Any] {
            var body = body
            if var capabilities = body["capabilities"] as? [String: Any], var always = capabilities["alwaysMatch"] as? [String: Any],
                always["appium:newCommandTimeout"] == nil
            {
                always["appium:newCommandTimeout"] = 0
                capabilities["alwaysMatch"] = always
                body["capabilities"] = capabilities
            }
            // The JSON Wire Protocol's form, unprefixed.
            if var desired = body["desiredCapabilities"] as? [String: Any], desired["newCommandTimeout"] == nil,
                desired["appium:newCommandTimeout"] == nil
            {
                desired["newCommandTimeout"] = 0
                body["desiredCapabilities"] = desired
            }
            return body
        }

        func value(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> Any? {
            let (status, json) = try await call(method, path, body)
            #expect(status == 200, "\(method) \(path): \(json)")
            return json["value"]
        }
    }

    @Test("the pytest suite (Appium's Python client, Selenium) passes against showreel webdriver")
    func pytestSuite() async throws {
        let workspace = try Workspace()
        let server = try await Server.start(workspace)
        let python = Self.root.appendingPathComponent(".build/venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            try await server.stop()
            throw TestFailure("no virtualenv at \(python.path): run scripts/browser-venv (make test does)")
        }
        var environment = workspace.environment
        environment["SHOWREEL_WEBDRIVER_URL"] = server.url
        environment["SHOWREEL_WEBDRIVER_OUTPUT"] = server.output.path
        let pytest = try ChildProcess(
            python,
            [
                "-m", "pytest", Self.root.appendingPathComponent("Tests/WebDriverSuite").path,
                "-p", "no:cacheprovider", "-q", "-rfE",
            ],
            environment: environment, in: workspace, name: "pytest", directory: workspace.url)
        let status = try await pytest.waitForExit(timeout: .seconds(300))
        #expect(status == 0, "pytest:\n\(pytest.stdout)\n\(pytest.stderr)")
        #expect(pytest.stdout.contains(" passed"), "\(pytest.stdout)")
        #expect(!pytest.stdout.contains("failed"), "\(pytest.stdout)")
        try await server.stop()
    }

    @Test("SIGTERM ends running sessions: a recorded session's video is finished and filed in the manifest")
    func stopFinishesSessions() async throws {
        let workspace = try Workspace()
        let server = try await Server.start(workspace)
        let created =
            try await server.value(
                "POST", "/wd/hub/session",
                [
                    "desiredCapabilities": [
                        "platformName": "iOS", "bundleId": "dev.showreel.countries", "arguments": ["--countries-datasource", "local-mock"],
                        "showreel:record": true, "showreel:name": "left-running",
                    ]
                ]) as? [String: Any]
        let session = try #require(created?["sessionId"] as? String)
        let element = try #require(
            try await server.value(
                "POST", "/session/\(session)/element",
                ["using": "accessibility id", "value": "Canada"]) as? [String: String])
        let id = try #require(element["element-6066-11e4-a52e-4f735466cecf"])
        #expect(element["ELEMENT"] == id)
        _ = try await server.value("POST", "/session/\(session)/element/\(id)/click", ["id": id])
        try await server.stop()
        let frames = try await decodedFrames(server.output.appendingPathComponent("left-running.mov"))
        #expect(frames.count >= 2, "the video shows the list, then Canada")
        let manifest = try String(contentsOf: server.output.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(manifest.contains("\"video\" : \"left-running.mov\""))
        #expect(workspace.registry.records().isEmpty, "the session's device was booted in the server's own registry")
    }

    @Test(
        "appium:udid attaches to a device booted with `showreel device boot`, records it through its display stream; DELETE leaves it running"
    )
    func attachedDevice() async throws {
        let workspace = try Workspace()
        let device = try ChildProcess(
            try BuildProducts.showreel,
            [
                "device", "boot", "--clock", "virtual", "--launch", "dev.showreel.countries",
                "--", "--countries-datasource", "local-mock",
            ],
            environment: workspace.environment, in: workspace, name: "device")
        defer { device.process.terminate() }
        let deadline = ContinuousClock.now + .seconds(60)
        while !device.stderr.contains("automation API at") {
            guard device.process.isRunning, ContinuousClock.now < deadline else { throw TestFailure("device boot: \(device.stderr)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        let udid = device.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try await Server.start(workspace)
        let created =
            try await server.value(
                "POST", "/session",
                [
                    "capabilities": [
                        "alwaysMatch": [
                            "platformName": "iOS", "appium:udid": udid, "showreel:record": true, "showreel:name": "attached",
                        ]
                    ]
                ]) as? [String: Any]
        let session = try #require(created?["sessionId"] as? String)
        #expect(
            try await server.value("POST", "/session/\(session)/appium/start_recording_screen", ["options": ["timeLimit": 60]]) as? String
                == "")
        let source = try #require(try await server.value("GET", "/session/\(session)/source") as? String)
        #expect(source.contains("<XCUIElementTypeApplication"), "\(source.prefix(200))")
        #expect(source.contains("label=\"Canada\""))
        let element = try #require(
            try await server.value(
                "POST", "/session/\(session)/element",
                ["using": "xpath", "value": "//XCUIElementTypeCell[@label='Canada']"]) as? [String: String])
        _ = try await server.value("POST", "/session/\(session)/element/\(element["ELEMENT"]!)/click", [:])
        let name = try #require(
            try await server.value(
                "POST", "/session/\(session)/element",
                ["using": "accessibility id", "value": "countryName"]) as? [String: String])
        #expect(try await server.value("GET", "/session/\(session)/element/\(name["ELEMENT"]!)/text") as? String == "Canada")
        let encoded = try #require(try await server.value("POST", "/session/\(session)/appium/stop_recording_screen") as? String)
        let video = try #require(Data(base64Encoded: encoded))
        #expect(video.count > 100 && String(decoding: video[4..<8], as: UTF8.self) == "ftyp", "an MP4 of the attached device")
        _ = try await server.value("DELETE", "/session/\(session)")
        #expect(
            try await !decodedFrames(server.output.appendingPathComponent("attached.mov")).isEmpty,
            "the session's video, from the display stream")
        // Its steps are chapters, and it has a preview; the device traced the actions in its own
        // process, each command a step, and the trace lies beside the video.
        let chapters = try MediaProbe.stepTracks(server.output.appendingPathComponent("attached.mov")).chapters.map(\.title)
        #expect(chapters.contains { $0.contains("click XCUIElementTypeCell \"Canada\"") }, "\(chapters)")
        #expect(FileManager.default.fileExists(atPath: server.output.appendingPathComponent("attached.webp").path))
        let trace = try RunTrace.load(from: server.output.appendingPathComponent("attached.trace.json"))
        let entry = try #require(try RunManifest.load(from: server.output.appendingPathComponent("manifest.json")).entries.first)
        #expect(entry.steps.map(\.title) == trace.steps.map(\.title), "the report matches steps to the trace in order")
        let click = try #require(trace.steps.first { $0.title.contains("click XCUIElementTypeCell \"Canada\"") })
        func rows(_ elements: [RunTrace.Element]) -> [RunTrace.Element] {
            elements.flatMap { ($0.type == "cell" && $0.label == "Canada" ? [$0] : []) + rows($0.children) }
        }
        let canada = try #require(rows(click.tree).first, "the tree when the click started has the Canada row")
        #expect(click.target == canada.frame, "the click's target is the Canada row")
        let (before, after) = (try #require(click.before), try #require(click.after))
        #expect(trace.pictures[before] != trace.pictures[after], "the list before the click, Canada's page after it")
        let client = try DeviceClient.named(udid, registry: workspace.registry)
        #expect(try await client.info().foregroundApp == "dev.showreel.countries", "the attached device is still running its app")
        try await server.stop()
    }

    @Test("--allow-cors answers Appium Inspector's web page: preflight and CORS headers")
    func allowCORS() async throws {
        let workspace = try Workspace()
        let server = try await Server.start(workspace, ["--allow-cors"])
        var preflight = URLRequest(url: URL(string: server.url + "/session")!)
        preflight.httpMethod = "OPTIONS"
        preflight.timeoutInterval = 600
        preflight.setValue("http://localhost:1234", forHTTPHeaderField: "Origin")
        let (_, response) = try await httpData(for: preflight)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 204)
        #expect(http.value(forHTTPHeaderField: "Access-Control-Allow-Origin") == "http://localhost:1234")
        let (status, body) = try await server.call("GET", "/status", headers: ["Origin": "http://localhost:1234"])
        #expect(status == 200, "\(body)")
        try await server.stop()
    }

    @Test("a session whose client goes silent past appium:newCommandTimeout ends: its video is filed, its device shut down")
    func abandonedSession() async throws {
        let workspace = try Workspace()
        let server = try await Server.start(workspace)
        let created =
            try await server.value(
                "POST", "/session",
                [
                    "capabilities": [
                        "alwaysMatch": [
                            "platformName": "iOS", "appium:bundleId": "dev.showreel.hello", "appium:newCommandTimeout": 1,
                            "showreel:record": true, "showreel:name": "abandoned",
                        ]
                    ]
                ]) as? [String: Any]
        let session = try #require(created?["sessionId"] as? String)
        // Only /status from here on: a command to the session would count as the client's.
        let deadline = ContinuousClock.now + .seconds(60)
        while (try await server.value("GET", "/status") as? [String: Any])?["sessions"] as? Int != 0 {
            guard ContinuousClock.now < deadline else { throw TestFailure("the silent session was never ended") }
            try await Task.sleep(for: .milliseconds(100))
        }
        let (status, body) = try await server.call("GET", "/session/\(session)/source")
        #expect(status == 404 && (body["value"] as? [String: Any])?["error"] as? String == "invalid session id")
        let manifest = try String(contentsOf: server.output.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(manifest.contains("\"video\" : \"abandoned.mov\""))
        try await server.stop()
    }
}
