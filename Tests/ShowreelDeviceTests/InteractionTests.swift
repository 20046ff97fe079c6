import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelDevice
import ShowreelRender
import ShowreelTestSupport
import ShowreelTesting
import ShowreelUI
import ShowreelWire
import Testing

/// The events of the automation API on the real sample apps, with animations on the device clock.
@Suite("Interaction")
struct InteractionTests {
    typealias Harness = AutomationAPITests.Harness

    /// Every frame the display stream sends while `body` runs (after the first, current screen).
    func frames(of device: Device, while body: () async throws -> Void) async throws -> [Frame] {
        let collector = try StreamCollector(socketPath: device.display.socketPath)
        try await eventually("the first frame", timeout: .seconds(10)) { collector.frames.count >= 1 }
        try await body()
        return Array(try await collector.stop().dropFirst())
    }

    @Test("tapping a country pushes its details with a slide, frame by frame on the device clock")
    func pushCanada() async throws {
        try await Harness.with { h in
            let app = Application("dev.showreel.countries", device: h.client)
            try await app.launch()
            let recorded = try await frames(of: h.device) {
                try await app.cells["Canada"].tap()
                _ = try await h.client.perform(.wait(.seconds(1)))
            }
            #expect(try await app.staticTexts["countryName"].label == "Canada")
            #expect(try await app.staticTexts["countryRegion"].label == "Northern America, Americas")
            #expect(try await app.staticTexts["countryPopulation"].label == "36155487 people")
            #expect(try await app.staticTexts["countryArea"].label == "9984670.0 sq km")
            // A push animation of ~0.35 s at 60 frames a second shows as many distinct frames.
            #expect(recorded.count >= 15, "got \(recorded.count) frames")
            let gaps = zip(recorded, recorded.dropFirst()).map { ($1.presentationTime - $0.presentationTime) }
            #expect(gaps.allSatisfy { $0 > .zero && $0 <= .milliseconds(120) })
            // Back with a swipe in from the left edge.
            _ = try await h.client.perform(.swipe(DeviceAction.Swipe(.edge(.left))))
            _ = try await h.client.perform(.wait(.seconds(1)))
            #expect(try await app.cells["Canada"].waitForExistence(timeout: .seconds(1)))
            #expect(try await app.staticTexts["countryName"].exists == false)
        }
    }

    @Test("typing the classic demo address key by key, switching planes and shift, then Return")
    func typeEmail() async throws {
        try await Harness.with { h in
            let app = Application("dev.showreel.signup", device: h.client)
            try await app.launch()
            let byPlaceholder = Elements(
                device: h.client, query: ElementQuery.descendants(type: .textField).refined { $0.placeholder = "Email" })
            #expect(try await byPlaceholder.firstMatch.identifier == "email")
            let before = await h.device.currentTime
            try await app.textFields["email"].typeText("UITestExample@example.com", keyDelay: .milliseconds(50), jitter: .milliseconds(50))
            #expect(try await app.textFields["email"].value == "UITestExample@example.com")
            // 25 characters, plus shift for U, I, T, E and a plane switch each way around "@" and ".".
            let elapsed = await h.device.currentTime - before
            #expect(elapsed > .seconds(2) && elapsed < .seconds(8), "typing took \(elapsed) of device time")
            try await app.keys["Return"].tap()
            #expect(try await app.staticTexts["result"].waitForExistence(timeout: .seconds(2)))
            #expect(try await app.staticTexts["result"].label.contains("UITestExample@example.com"))
        }
    }

    @Test("typing is deterministic: the same seed gives the same frames and timestamps")
    func typingDeterminism() async throws {
        func run() async throws -> [(UInt64, Duration)] {
            var result: [(UInt64, Duration)] = []
            try await Harness.with { h in
                try await h.client.launch("dev.showreel.signup")
                let recorded = try await frames(of: h.device) {
                    _ = try await h.client.perform(
                        .typeText(
                            DeviceAction.TypeText(
                                "Hi@x.io", into: .textField("email"),
                                keyDelay: .milliseconds(40), jitter: .milliseconds(80), seed: 7)))
                }
                let sessions = h.device.display.sessions
                #expect(sessions.allSatisfy { $0.framesDropped == 0 }, "sessions: \(sessions)")
                #expect(sessions.last?.framesSent == recorded.count + 1, "sessions: \(sessions), received \(recorded.count + 1)")
                result = recorded.map { ($0.pixels.contentHash, $0.presentationTime) }
            }
            return result
        }
        let first = try await run()
        let second = try await run()
        #expect(first.count > 10)
        #expect(first.map(\.0) == second.map(\.0))
        #expect(first.map(\.1) == second.map(\.1))
    }

    @Test("tapping keys directly, and typing with no keyboard showing is a clear error")
    func keys() async throws {
        try await Harness.with { h in
            let app = Application("dev.showreel.greeting", device: h.client)
            try await app.launch()
            await #expect { try await app.typeText("hello") } throws: { error in
                String(describing: error).contains("No keyboard is showing")
            }
            let signup = Application("dev.showreel.signup", device: h.client)
            try await signup.launch()
            try await signup.textFields["email"].tap()
            for key in ["shift", "H", "i"] { _ = try await h.client.perform(.pressKey(key)) }
            #expect(try await signup.textFields["email"].value == "Hi")
            _ = try await h.client.perform(.pressKey("delete"))
            #expect(try await signup.textFields["email"].value == "H")
            await #expect { _ = try await h.client.perform(.pressKey("€")) } throws: { error in
                (error as? DeviceClient.Failure)?.statusCode == 404
            }
        }
    }

    @Test("swiping up on the list scrolls it")
    func scroll() async throws {
        try await Harness.with { h in
            let app = Application("dev.showreel.countries", device: h.client)
            try await app.launch()
            let first = try #require(try await app.cells.all.first)
            let before = first.frame.minY
            try await app.tables["countries"].swipeUp()
            _ = try await h.client.perform(.wait(.seconds(2)))
            let after = try #require(
                try await app.cells.all.first(where: { $0.identifier == first.identifier })?.frame.minY
                    ?? Optional(-1000))
            #expect(after < before - 50, "the first cell moved from \(before) to \(after)")
        }
    }

    // Slow enough (40 pt/s) that lifting the finger does not fling the list on.
    @Test("a drag between two points moves the list with the finger")
    func drag() async throws {
        try await Harness.with { h in
            let app = Application("dev.showreel.countries", device: h.client)
            try await app.launch()
            let canada = try await app.cells["Canada"].snapshot.frame.minY
            _ = try await h.client.perform(
                .swipe(DeviceAction.Swipe(.points(from: Point(x: 200, y: 600), to: Point(x: 200, y: 400)), duration: .seconds(5))))
            _ = try await h.client.perform(.wait(.seconds(1)))
            let moved = try await app.cells["Canada"].snapshot.frame.minY
            #expect(abs((canada - moved) - 200) < 30, "Canada moved from \(canada) to \(moved)")
        }
    }

    @Test("shake and Cmd+D reach the top-most screen")
    func shakeAndKeyCommand() async throws {
        try await Harness.with(extraApps: [MotionApp.definition]) { h in
            let app = Application(MotionApp.bundleIdentifier, device: h.client)
            try await app.launch()
            try await app.shake()
            try await app.keyCommand("d", modifiers: .command)
            #expect(try await app.staticTexts["events"].label == "shake,cmd+d")
        }
    }

    @Test("on the real clock, a tap that pushes returns once the push has finished, with its frames rendered on the way")
    func realClockPushSettles() async throws {
        let home = try Workspace()
        let device = try Device(clock: .real, apps: ShowcaseCatalog.apps, registry: home.registry)
        // A fixed status bar time: on a real clock the bar's minute can change mid-test.
        await device.overrideStatusBar(StatusBarValues())
        try await device.launch("dev.showreel.countries")
        var idleWhenTapReturned = false
        let recorded = try await frames(of: device) {
            try await device.tap(.cell("Canada"))
            idleWhenTapReturned = await !device.isAnimating
        }
        // The push moved across several frames (how many depends on the machine's load), and
        // the last one already shows the finished push: a fresh render has the same pixels.
        #expect(idleWhenTapReturned)
        #expect(recorded.count >= 2, "frames at \(recorded.map(\.presentationTime))")
        let last = try #require(recorded.last)
        #expect(last.pixels.hasSamePixels(as: await device.screenshot()))
        #expect(try await device.element(.staticText("countryName")).isHittable)
        await device.shutdown()
    }
}
