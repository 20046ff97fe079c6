import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelDevice
import ShowreelRender
import ShowreelTesting
import ShowreelUI
import ShowreelWire
import Testing

/// A test app with one volatile default, `debugFlag` (registered true), shown as a switch:
/// `--volatile yes|no` says how it registers, as a release or debug build would.
enum VolatileDefaultsApp {
    static func definition(_ bundleIdentifier: String) -> AppDefinition {
        AppDefinition(bundleIdentifier: bundleIdentifier, displayName: "Defaults") { context in
            let defaults = AppDefaults(suite: bundleIdentifier, context: context)
            defaults.registerDefaults(
                ["launchNote": .string("none")], volatileDefaults: ["debugFlag": .bool(true)],
                isVolatile: context.option(for: "--volatile") != "no")
            let screen = TableScreen(title: "Defaults", identifier: "defaults")
            screen.table.sections = [
                TableSection(rows: [
                    .toggle("Debug flag", isOn: defaults.bool(forKey: "debugFlag"), identifier: "debugFlag") { on in
                        defaults.set(on, forKey: "debugFlag")
                    }
                ])
            ]
            return screen
        }
    }
}

/// The debug aids driven through the automation API on a booted device, as a UI test would.
@Suite("Debug aids on a device")
struct DebugAidsTests {
    typealias Harness = AutomationAPITests.Harness

    @Test("Greeting: drag the drawer, edit its form, see the greeting change; the setting survives a relaunch (debug build)")
    func drawer() async throws {
        try await Harness.with { h in
            let app = Application(GreetingApp.bundleIdentifier, device: h.client)
            try await app.launch()
            let drawer = app.buttons["debugDrawer"]
            let start = try await drawer.snapshot.frame
            #expect(start.width == 59 && start.maxX == 390 - 8, "the handle fills the 75x75 window less its margin: \(start)")
            _ = try await h.client.perform(
                .swipe(
                    DeviceAction.Swipe(
                        .points(from: start.center, to: Point(x: start.center.x - 150, y: start.center.y + 300)),
                        duration: .milliseconds(500))))
            let moved = try await drawer.snapshot.frame
            #expect(moved.x == start.x - 150 && moved.y == start.y + 300)
            try await drawer.tap()
            #expect(try await app.switches["useDefault"].waitForExistence(timeout: .seconds(2)))
            _ = try await h.client.perform(.wait(.milliseconds(600)))
            #expect(try await drawer.exists == false)
            #expect(try await app.staticTexts["bundleIdentifier"].label == GreetingApp.bundleIdentifier)
            #expect(try await app.staticTexts["buildVersion"].label == "2.3")
            #expect(try await app.staticTexts["buildNumber"].label == "41")
            try await app.switches["useDefault"].tap()
            try await app.textFields["customDebugMessage"].typeText("Hi from QA")
            try await app.buttons["debugFormDone"].tap()
            #expect(try await drawer.waitForExistence(timeout: .seconds(2)))
            _ = try await h.client.perform(.wait(.milliseconds(600)))
            #expect(try await drawer.snapshot.frame == moved)
            try await app.buttons["generateGreeting"].tap()
            #expect(try await app.staticTexts["greeting"].label == "Hi from QA")
            // Debug builds register the drawer's defaults non-volatile: a relaunch keeps them.
            try await app.launch()
            try await app.buttons["generateGreeting"].tap()
            #expect(try await app.staticTexts["greeting"].label == "Hi from QA")
        }
    }

    @Test(
        "volatile defaults across a real relaunch: volatile keys revert, non-volatile ones persist",
        arguments: [("yes", "1"), ("no", "0")])
    func volatileDefaults(volatile: String, afterRelaunch: String) async throws {
        let bundle = "dev.showreel.test.defaults"
        try await Harness.with(extraApps: [VolatileDefaultsApp.definition(bundle)]) { h in
            var app = Application(bundle, device: h.client)
            app.launchArguments = ["--volatile", volatile]
            try await app.launch()
            #expect(try await app.switches["debugFlag"].value == "1")
            try await app.switches["debugFlag"].tap()
            #expect(try await app.switches["debugFlag"].value == "0")
            try await app.terminate()
            try await app.launch()
            #expect(try await app.switches["debugFlag"].value == afterRelaunch)
            let file = h.device.dataContainer(for: bundle).appendingPathComponent("Library/Preferences/\(bundle).json")
            #expect(FileManager.default.fileExists(atPath: file.path))
        }
    }

    /// The debug window's element, by its identifier.
    func debugWindow(_ app: Application) -> Element { app.descendants(matching: .window)["debugWindow"] }

    @Test("Mail: the debug window opens with a right-edge swipe, a shake and Command-D")
    func openThreeWays() async throws {
        try await Harness.with { h in
            let app = Application(MailApp.bundleIdentifier, device: h.client)
            try await app.launch()
            let window = debugWindow(app)
            let openers: [(String, () async throws -> Void)] = [
                ("edge swipe", { _ = try await h.client.perform(.swipe(DeviceAction.Swipe(.edge(.right)))) }),
                ("shake", { try await app.shake() }),
                ("Command-D", { try await app.keyCommand("d", modifiers: .command) }),
            ]
            for (name, open) in openers {
                try await open()
                #expect(try await window.waitForExistence(timeout: .seconds(2)), "\(name) did not open the debug window")
                _ = try await h.client.perform(.wait(.milliseconds(600)))
                #expect(try await app.cells["debugAction.Mark all as read"].exists)
                try await app.buttons["debugWindowClose"].tap()
                #expect(try await window.waitForNonExistence(timeout: .seconds(2)))
            }
        }
    }

    @Test("Mail: each kind of action through the API (simple, producer ok, producer failing, modal), and shake's preferred action")
    func actions() async throws {
        try await Harness.with { h in
            let app = Application(MailApp.bundleIdentifier, device: h.client)
            try await app.launch()
            try await app.cells["Release 5.1 notes"].tap()
            _ = try await h.client.perform(.wait(.milliseconds(600)))
            try await app.keyCommand("d")
            _ = try await h.client.perform(.wait(.milliseconds(600)))
            try await app.cells["debugAction.Sync with server"].tap()
            #expect(try await app.alerts.firstMatch.waitForExistence(timeout: .seconds(2)))
            #expect(try await app.staticTexts.containing(label: "503 Service Unavailable").firstMatch.exists)
            try await app.buttons["OK"].tap()
            _ = try await h.client.perform(.wait(.milliseconds(600)))
            #expect(try await app.staticTexts["debugActionState.Sync with server"].label == "Failed")
            try await app.cells["debugAction.Reload thread"].tap()
            #expect(try await debugWindow(app).waitForNonExistence(timeout: .seconds(2)))
            _ = try await h.client.perform(.wait(.milliseconds(600)))
            try await app.cells["message0"].tap()
            _ = try await h.client.perform(.wait(.milliseconds(600)))
            try await app.keyCommand("d")
            _ = try await h.client.perform(.wait(.milliseconds(600)))
            try await app.cells["debugAction.Feature flags"].tap()
            #expect(try await app.switches["flag.smartInbox"].waitForExistence(timeout: .seconds(2)))
            _ = try await h.client.perform(.wait(.milliseconds(600)))
            try await app.cells["featureFlagsDone"].tap()
            _ = try await h.client.perform(.wait(.milliseconds(600)))
            try await app.cells["debugAction.Sign out"].tap()
            #expect(try await debugWindow(app).waitForNonExistence(timeout: .seconds(2)))
            try await app.keyCommand("d")
            _ = try await h.client.perform(.wait(.milliseconds(600)))
            #expect(try await app.staticTexts["quickInfoValue.User"].label == "Signed out")
            try await app.buttons["debugWindowClose"].tap()
            _ = try await h.client.perform(.wait(.milliseconds(600)))
            try await app.buttons["reply"].tap()
            #expect(try await app.textFields["replyBody"].waitForExistence(timeout: .seconds(2)))
            _ = try await h.client.perform(.wait(.milliseconds(600)))
            try await app.shake()
            #expect(try await app.textFields["replyBody"].value == "Thanks, sounds good!")
            #expect(try await debugWindow(app).exists == false)
        }
    }

    @Test("release locators on a device: no drawer, and shake, edge swipe and Command-D open nothing")
    func release() async throws {
        try await Harness.with(extraApps: [
            GreetingApp.makeDefinition { GreetingApp.ServiceLocator(context: $0) },
            MailApp.makeDefinition { try MailApp.ServiceLocator(context: $0) },
        ]) { h in
            let greeting = Application(GreetingApp.bundleIdentifier, device: h.client)
            try await greeting.launch()
            #expect(try await greeting.buttons["debugDrawer"].exists == false)
            let mail = Application(MailApp.bundleIdentifier, device: h.client)
            try await mail.launch()
            _ = try await h.client.perform(.swipe(DeviceAction.Swipe(.edge(.right))))
            try await mail.shake()
            try await mail.keyCommand("d")
            _ = try await h.client.perform(.wait(.seconds(1)))
            #expect(try await debugWindow(mail).exists == false)
            #expect(try await mail.cells["Release 5.1 notes"].isHittable)
        }
    }
}
