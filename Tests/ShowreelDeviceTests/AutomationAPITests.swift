import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelDevice
import ShowreelTestSupport
import ShowreelTesting
import ShowreelUI
import ShowreelWire
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every automation call over real HTTP, against a device on the virtual clock.
@Suite("Automation API")
struct AutomationAPITests {
    /// A booted device with its automation API listening on an ephemeral port.
    final class Harness {
        let home: Workspace
        let device: Device
        let client: DeviceClient
        let server: Task<Void, any Error>

        private init(extraApps: [AppDefinition], traceExporter: AutomationServer.TraceExporter?) async throws {
            home = try Workspace()
            device = try Device(apps: ShowcaseCatalog.apps + [EchoApp.definition] + extraApps, registry: home.registry)
            let listening = AsyncStream<Int>.makeStream()
            let device = self.device
            server = Task {
                try await AutomationServer(device: device, traceExporter: traceExporter).run { listening.continuation.yield($0) }
            }
            let port = try #require(await listening.stream.first(where: { _ in true }))
            client = DeviceClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!)
            try await device.publishAutomationURL(client.baseURL!.absoluteString)
        }

        private func close() async {
            server.cancel()
            await device.shutdown()
        }

        /// Runs `body` with a fresh device and automation API, and shuts them down afterwards
        /// whether the body passed, failed an expectation or threw: a scoped fixture.
        static func with(
            extraApps: [AppDefinition] = [], traceExporter: AutomationServer.TraceExporter? = nil, _ body: (Harness) async throws -> Void
        ) async throws {
            let h = try await Harness(extraApps: extraApps, traceExporter: traceExporter)
            do { try await body(h) } catch {
                await h.close()
                throw error
            }
            await h.close()
        }
    }

    @Test("device info, and the registry leads to the automation API")
    func info() async throws {
        try await Harness.with { h in
            let info = try await h.client.info()
            #expect(info.udid == h.device.udid)
            #expect(info.clock == .virtual)
            #expect(info.installedApps.contains(HelloApp.bundleIdentifier))
            let found = try DeviceClient.named("booted", registry: h.home.registry)
            #expect(found.baseURL == h.client.baseURL)
        }
    }

    @Test("launch passes arguments and environment; the data container survives relaunch")
    func launchContext() async throws {
        try await Harness.with { h in
            var app = Application(EchoApp.bundleIdentifier, device: h.client)
            app.launchArguments = ["--countries-datasource", "local-mock"]
            app.launchEnvironment = ["GREETING": "Hi"]
            try await app.launch()
            #expect(try await app.staticTexts["arg1"].label == "local-mock")
            #expect(try await app.staticTexts["env.GREETING"].label == "Hi")
            #expect(try await app.staticTexts["launches"].label == "Launches: 1")
            try await app.launch()
            #expect(try await app.staticTexts["launches"].label == "Launches: 2")
            #expect(
                FileManager.default.fileExists(
                    atPath: h.device.dataContainer(for: EchoApp.bundleIdentifier).appendingPathComponent("launches").path))
        }
    }

    @Test("app states: foreground, background keeps state, terminate, wait for state")
    func appStates() async throws {
        try await Harness.with { h in
            let app = Application(HelloApp.bundleIdentifier, device: h.client)
            #expect(try await app.state == .notRunning)
            try await app.launch()
            #expect(try await app.state == .runningForeground)
            try await app.buttons["tapButton"].tap()
            _ = try await h.client.perform(.pressHome)
            #expect(try await app.state == .runningBackground)
            #expect(try await app.buttons["tapButton"].exists == false)
            try await app.activate()
            #expect(try await app.staticTexts["tapCount"].label == "Tapped 1 time")
            #expect(try await app.wait(for: .runningForeground, timeout: .seconds(1)))
            try await app.terminate()
            #expect(try await app.state == .notRunning)
            let before = await h.device.currentTime
            #expect(try await app.wait(for: .runningForeground, timeout: .seconds(2)) == false)
            #expect(await h.device.currentTime - before == .seconds(2))
        }
    }

    @Test("queries by type, identifier, label, value; children, descendants, count, frame")
    func queries() async throws {
        try await Harness.with { h in
            let app = Application(HelloApp.bundleIdentifier, device: h.client)
            try await app.launch()
            #expect(try await app.buttons.count == 1)
            #expect(try await app.staticTexts.count == 2)
            #expect(try await app.buttons["Tap me"].identifier == "tapButton")
            #expect(try await app.staticTexts.containing(label: "tapped").count == 1)
            #expect(try await app.staticTexts.matching(identifier: "title").firstMatch.label == "Showreel")
            #expect(try await app.staticTexts.element(boundBy: 1).identifier == "tapCount")
            let frame = try await app.buttons["tapButton"].snapshot.frame
            #expect(frame.width == 342 && frame.height == 54)
            let windows = app.descendants(matching: .window)
            #expect(try await windows.firstMatch.children.count == 3)
            #expect(try await windows.firstMatch.descendants(matching: .button).count == 1)
            let echo = Application(EchoApp.bundleIdentifier, device: h.client)
            try await echo.launch()
            let byValue = Elements(device: h.client, query: ElementQuery.descendants().refined { $0.value = "on" })
            #expect(try await byValue.firstMatch.identifier == "emptyValue")
            #expect(try await h.client.tree().count >= 2)
        }
    }

    @Test("tap by element and by point, double tap, press for a duration on the device clock")
    func taps() async throws {
        try await Harness.with { h in
            let app = Application(HelloApp.bundleIdentifier, device: h.client)
            try await app.launch()
            try await app.buttons["tapButton"].doubleTap()
            #expect(try await app.staticTexts["tapCount"].label == "Tapped 2 times")
            let centre = try await app.buttons["tapButton"].snapshot.frame.center
            _ = try await h.client.perform(.tap(DeviceAction.Tap(.point(centre))))
            #expect(try await app.staticTexts["tapCount"].label == "Tapped 3 times")
            let before = await h.device.currentTime
            try await app.buttons["tapButton"].press(forDuration: .milliseconds(1500))
            #expect(await h.device.currentTime - before == .milliseconds(1500))
            #expect(try await app.staticTexts["tapCount"].label == "Tapped 4 times")
        }
    }

    @Test("waits run on the device clock: a 30 s timeout is 30 s of virtual time")
    func waits() async throws {
        try await Harness.with { h in
            let app = Application(HelloApp.bundleIdentifier, device: h.client)
            try await app.launch()
            #expect(try await app.buttons["tapButton"].waitForExistence(timeout: .seconds(5)))
            let before = await h.device.currentTime
            // (How fast that is in wall time is for the bench, not a test on a shared machine.)
            #expect(try await app.buttons["Sign in"].waitForExistence(timeout: .seconds(30)) == false)
            #expect(await h.device.currentTime - before == .seconds(30))
            #expect(try await app.buttons["Sign in"].waitForNonExistence(timeout: .seconds(1)))
            _ = try await h.client.perform(.wait(.milliseconds(2500)))
            #expect(await h.device.currentTime - before == .milliseconds(32_500))
        }
    }

    @Test("status bar override and clear, like simctl status_bar")
    func statusBar() async throws {
        try await Harness.with { h in
            let shown = try #require(
                try await h.client.perform(
                    .overrideStatusBar(StatusBarOverride(time: "10:10", dataNetwork: .fiveG, batteryState: .charging, batteryLevel: 42))
                ).statusBar)
            #expect(shown.time == "10:10" && shown.batteryLevel == 42 && shown.dataNetwork == .fiveG)
            #expect(await h.device.statusBar.batteryState == .charging)
            let cleared = try #require(try await h.client.perform(.clearStatusBar).statusBar)
            #expect(cleared.time == "9:41" && cleared.batteryLevel == 100)
            await #expect(throws: DeviceClient.Failure.self) {
                _ = try await h.client.perform(.overrideStatusBar(StatusBarOverride(batteryLevel: 140)))
            }
        }
    }

    @Test("screenshot is a PNG of the screen's pixel size")
    func screenshot() async throws {
        try await Harness.with { h in
            try await h.client.launch(HelloApp.bundleIdentifier)
            let png = try await h.client.screenshotPNG()
            #expect(png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
            // IHDR: width and height, big-endian, at bytes 16...23.
            let bytes = [UInt8](png)
            let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
            let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == 780 && height == 1688)
        }
    }

    @Test("errors are JSON sentences: unknown element with what the screen shows, malformed body, unknown app, crash")
    func errors() async throws {
        try await Harness.with { h in
            let app = Application(HelloApp.bundleIdentifier, device: h.client)
            try await app.launch()
            do {
                try await app.buttons["Sign in"].tap()
                Issue.record("tapping a missing button should fail")
            } catch let failure as DeviceClient.Failure {
                #expect(failure.statusCode == 404)
                #expect(failure.message.contains("buttons[\"Sign in\"]"))
                #expect(failure.message.contains("'Tap me'"))
            }
            // A malformed body names the field.
            var request = URLRequest(url: h.client.baseURL!.appendingPathComponent("v1/wait-for"))
            request.httpMethod = "POST"
            request.timeoutInterval = 600  // a hang's bound; a loaded machine may answer late
            request.httpBody = Data(#"{"query": {"steps": []}}"#.utf8)
            let (data, response) = try await httpData(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 400)
            let body = try JSONDecoder().decode(AutomationAPI.ErrorBody.self, from: data)
            #expect(body.error == "POST /v1/wait-for: invalid JSON body: missing field 'timeout'")
            request.httpBody = Data("not json".utf8)
            let (garbage, _) = try await httpData(for: request)
            #expect(String(decoding: garbage, as: UTF8.self).contains("not valid JSON"))

            await #expect { try await h.client.launch("dev.showreel.nope") } throws: { error in
                (error as? DeviceClient.Failure)?.statusCode == 404
            }
            let crashing = AppDefinition(bundleIdentifier: "dev.showreel.test.crash", displayName: "Crash") { _ in
                throw AppFatalError("Unknown countries datasource requested: bogus")
            }
            let home = try Workspace()
            let device = try Device(apps: [crashing], registry: home.registry)
            let listening = AsyncStream<Int>.makeStream()
            let server = Task { try await AutomationServer(device: device).run { listening.continuation.yield($0) } }
            let port = try #require(await listening.stream.first(where: { _ in true }))
            let client = DeviceClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!)
            do {
                try await client.launch("dev.showreel.test.crash")
                Issue.record("a crashing app should fail to launch")
            } catch let failure as DeviceClient.Failure {
                #expect(failure.statusCode == 422)
                #expect(failure.message.contains("Unknown countries datasource requested: bogus"))
            }
            #expect(try await client.status(of: "dev.showreel.test.crash").state == .crashed)
            #expect(try await client.status(of: "dev.showreel.test.crash").message == "Unknown countries datasource requested: bogus")
            server.cancel()
            await device.shutdown()
        }
    }
}
