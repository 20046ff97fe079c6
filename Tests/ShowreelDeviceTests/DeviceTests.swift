import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelDevice
import ShowreelRender
import ShowreelTestSupport
import ShowreelUI
import Testing

@Suite("Device")
struct DeviceTests {
    @Test("tapping a button by identifier changes the screen and the element tree")
    func tapChangesText() async throws {
        let home = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: home.registry)
        try await device.launch(HelloApp.bundleIdentifier)
        let before = await device.screenshot()
        #expect(try await device.element(.staticText("tapCount")).label == "Not tapped yet")
        try await device.tap(.button("tapButton"))
        try await device.tap(.button("Tap me"))
        #expect(try await device.element(.staticText("tapCount")).label == "Tapped 2 times")
        let after = await device.screenshot()
        #expect(!after.hasSamePixels(as: before))
        await device.shutdown()
    }

    @Test("touch indicators: with showsTouches a circle marks the finger while it is down, and only then")
    func touchIndicators() async throws {
        func fingerDown(showsTouches: Bool) async throws -> (down: PixelBuffer, after: PixelBuffer) {
            let home = try Workspace()
            let device = try Device(apps: ShowcaseCatalog.apps, registry: home.registry, showsTouches: showsTouches)
            try await device.launch(HelloApp.bundleIdentifier)
            let collector = try StreamCollector(socketPath: device.display.socketPath)
            try await eventually("the first frame", timeout: .seconds(10)) { collector.frames.count >= 1 }
            // A tap on empty space: nothing but the indicator can change the screen.
            try await device.tap(at: Point(x: 195, y: 500))
            try await device.wait(.seconds(2))
            let frames = try await collector.stop()
            await device.shutdown()
            return (frames.count > 1 ? frames[1].pixels : frames[0].pixels, frames.last!.pixels)
        }
        let plain = try await fingerDown(showsTouches: false)
        let shown = try await fingerDown(showsTouches: true)
        // At 2x, the tap point is pixel (390, 1000).
        #expect(plain.down.pixel(x: 390, y: 1000) == plain.after.pixel(x: 390, y: 1000))
        #expect(shown.down.pixel(x: 390, y: 1000) != plain.down.pixel(x: 390, y: 1000))
        #expect(shown.after.hasSamePixels(as: plain.after), "the indicator fades once the finger lifts")
    }

    @Test("a missing element is an error naming the query and what the screen shows")
    func missingElement() async throws {
        let home = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: home.registry)
        try await device.launch(HelloApp.bundleIdentifier)
        await #expect {
            try await device.tap(.button("Sign in"))
        } throws: { error in
            let text = String(describing: error)
            return text.contains("buttons[\"Sign in\"]") && text.contains("'Tap me'") && text.contains("'Showreel'")
        }
        await device.shutdown()
    }

    @Test("an app that stops with a fatal error reports its message")
    func fatalError() async throws {
        let home = try Workspace()
        let crashing = AppDefinition(bundleIdentifier: "dev.showreel.crash", displayName: "Crash") { context in
            throw AppFatalError("Unknown countries datasource requested: \(context.arguments.last ?? "")")
        }
        let device = try Device(apps: [crashing], registry: home.registry)
        await #expect(
            throws: DeviceError.appCrashed(
                bundleIdentifier: "dev.showreel.crash",
                message: "Unknown countries datasource requested: bogus")
        ) {
            try await device.launch("dev.showreel.crash", context: LaunchContext(arguments: ["--countries-datasource", "bogus"]))
        }
        await #expect(throws: DeviceError.self) { try await device.tap(at: Point(x: 10, y: 10)) }
        await #expect(throws: DeviceError.unknownApp("nope", installed: ["dev.showreel.crash"])) {
            try await device.launch("nope")
        }
        await device.shutdown()
    }

    @Test("the black mask covers the screen's corners and sensor housing, nothing else")
    func screenMask() async throws {
        let home = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: home.registry)
        try await device.launch(HelloApp.bundleIdentifier)
        let pixels = await device.screenshot()
        let mask = ScreenMask(profile: .phone)
        let centre = pixels.pixel(x: 390, y: 844)
        mask.apply(to: pixels)
        #expect(pixels.pixel(x: 0, y: 0) == RGBA(red: 0, green: 0, blue: 0))
        #expect(pixels.pixel(x: 779, y: 1687) == RGBA(red: 0, green: 0, blue: 0))
        #expect(mask.masks(x: 390, y: 50))  // inside the sensor housing
        #expect(!mask.masks(x: 390, y: 844))
        #expect(pixels.pixel(x: 390, y: 844) == centre)
        await device.shutdown()
    }
}
