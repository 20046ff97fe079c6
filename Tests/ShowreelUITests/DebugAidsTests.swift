import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelUI

@Suite("Launch arguments and providers")
struct LaunchArgumentsTests {
    @Test("option(for:) reads the following value or `=value`; the last repeat wins; valueless options read nil")
    func options() {
        let context = LaunchContext(arguments: ["--env", "staging", "--verbose", "--env=qa", "--user", "--flag"])
        #expect(context.option(for: "--env") == "qa")
        #expect(context.options(for: "--env") == ["staging", "qa"])
        #expect(context.option(for: "--verbose") == nil)
        #expect(context.contains(option: "--verbose"))
        #expect(context.option(for: "--user") == nil)
        #expect(context.option(for: "--flag") == nil && context.contains(option: "--flag"))
        #expect(context.option(for: "--missing") == nil && !context.contains(option: "--missing"))
        // A value that looks like another option's prefix is not mistaken for it.
        #expect(context.option(for: "--en") == nil)
    }

    @Test("a provider creates its dependency once, on first use, from the launch argument")
    func provider() throws {
        final class Made { let name: String; init(_ name: String) { self.name = name } }
        var made: [String] = []
        func provider(_ arguments: [String]) -> Provider<Made> {
            Provider(
                "--source", in: LaunchContext(arguments: arguments), default: "real",
                choices: [
                    "real": {
                        made.append("real"); return Made("real")
                    },
                    "mock": {
                        made.append("mock"); return Made("mock")
                    },
                ])
        }
        let mock = provider(["--source", "mock"])
        #expect(made.isEmpty)
        #expect(try mock.value().name == "mock")
        #expect(try mock.value() === mock.value())
        #expect(made == ["mock"])
        #expect(try provider([]).value().name == "real")
        #expect(throws: AppFatalError.self) { try provider(["--source", "bogus"]).value() }
        do {
            _ = try provider(["--source"]).value()
            Issue.record("a valueless option must stop the app")
        } catch let error as AppFatalError {
            #expect(error.message == "--source needs a value: one of real, mock.")
        }
    }
}

@Suite("App defaults")
struct AppDefaultsTests {
    func context(_ home: URL) -> LaunchContext { LaunchContext(environment: ["HOME": home.path]) }

    @Test("set values persist in the data container; volatile keys revert at the next registration only when volatile")
    func volatileSequences() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("defaults-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        for isVolatile in [true, false] {
            let suite = "dev.showreel.test.\(isVolatile)"
            let first = AppDefaults(suite: suite, context: context(home))
            first.registerDefaults(["launchCount": .int(0)], volatileDefaults: ["useDefault": .bool(true)], isVolatile: isVolatile)
            #expect(first.bool(forKey: "useDefault"))
            first.set(false, forKey: "useDefault")
            first.set("3", forKey: "launchCount")
            #expect(!first.bool(forKey: "useDefault"))
            let second = AppDefaults(suite: suite, context: context(home))
            // Read before registering again: what was written is on disk.
            #expect(!second.bool(forKey: "useDefault"))
            second.registerDefaults(["launchCount": .int(0)], volatileDefaults: ["useDefault": .bool(true)], isVolatile: isVolatile)
            #expect(second.bool(forKey: "useDefault") == isVolatile)
            #expect(second.string(forKey: "launchCount") == "3", "normal defaults always persist")
        }
        #expect(
            FileManager.default.fileExists(atPath: home.appendingPathComponent("Library/Preferences/dev.showreel.test.false.json").path))
    }
}

@Suite("Debug drawer")
struct DebugDrawerTests {
    @Test("Greeting's drawer: 75x75 at the top right above the status bar; a pan drags it; a tap opens the form, Done brings it back")
    func drawer() throws {
        let h = try SceneHarness(app: GreetingApp.definition)
        let window = try #require(h.scene.windows.first { $0.accessibilityIdentifier == "debugDrawerWindow" })
        #expect(window.level == WindowLevel(1100) && window.level > .statusBar)
        #expect(window.frame == Rect(x: h.scene.bounds.maxX - 75, y: h.scene.safeArea.minY, width: 75, height: 75))
        let handle = try #require(h.element("debugDrawer", type: .button))
        #expect(handle.isHittable)
        // Drag it down and left: the window follows the finger.
        h.drag(from: handle.frame.center, to: Point(x: handle.frame.center.x - 100, y: handle.frame.center.y + 200))
        #expect(window.frame.x == h.scene.bounds.maxX - 175 && window.frame.y == h.scene.safeArea.minY + 200)
        // A tap: the drawer hides, the form comes up in a navigation stack.
        try h.tap("debugDrawer")
        h.settle()
        #expect(window.isHidden)
        #expect(h.element("debugDrawer") == nil)
        #expect(h.element("useDefault", type: .switch)?.value == "1")
        #expect(h.element("buildVersion")?.label == "2.3")
        #expect(h.element("buildNumber")?.label == "41")
        #expect(h.element("bundleIdentifier")?.label == "dev.showreel.greeting")
        try h.tap("useDefault", type: .switch)
        try h.tap("customDebugMessage", type: .textField)
        h.settle()
        try h.typeOnKeyboard("Hi QA")
        try h.tap("debugFormDone")
        h.settle()
        #expect(!window.isHidden)
        #expect(h.element("debugDrawer") != nil)
        try h.tap("generateGreeting")
        #expect(h.element("greeting")?.label == "Hi QA")
    }

    @Test("the drawer sits above the app, keyboard and status bar; the form opens on the top presented screen")
    func levelsAndPresenter() throws {
        let h = try SceneHarness(app: GreetingApp.definition)
        let levels = h.scene.windows.map(\.level)
        let drawer = try #require(h.scene.windows.last)
        #expect(drawer.accessibilityIdentifier == "debugDrawerWindow")
        #expect(levels.dropLast().allSatisfy { $0 < drawer.level } && drawer.level > .statusBar)
        let root = try #require(h.scene.appWindow.rootScreen)
        let sheet = Screen(title: "Sheet")
        root.present(sheet, animated: false)
        h.settle()
        try h.tap("debugDrawer")
        h.settle()
        #expect(sheet.presentedScreen is NavigationController)
        #expect((sheet.presentedScreen as? NavigationController)?.topScreen?.title == "Debug settings")
        // The app dismissing what it presents takes the form away: the drawer comes back.
        root.dismiss(animated: false)
        h.settle()
        #expect(h.element("debugDrawer") != nil)
    }

    @Test("the drawer leaves with its app and comes back where it was dragged")
    func background() throws {
        let h = try SceneHarness(app: GreetingApp.definition)
        let root = try #require(h.scene.appWindow.rootScreen)
        let handle = try #require(h.element("debugDrawer"))
        h.drag(from: handle.frame.center, to: Point(x: 100, y: 500))
        let moved = try #require(h.element("debugDrawer")).frame
        h.scene.setAppRootScreen(nil)
        #expect(h.element("debugDrawer") == nil)
        #expect(h.scene.windows.count == 2)
        h.scene.setAppRootScreen(root)
        #expect(h.element("debugDrawer")?.frame == moved)
    }

    @Test("StringServiceForDebug forwards to production unless useDefault is off")
    func stringService() {
        let defaults = AppDefaults(suite: "test", context: LaunchContext())
        defaults.registerDefaults([:], volatileDefaults: GreetingDebugDefaults.registered, isVolatile: false)
        let service = StringServiceForDebug(production: DefaultStringService(), defaults: defaults)
        #expect(service.greeting == "Hello World")
        defaults.set("Custom", forKey: GreetingDebugDefaults.customDebugMessage)
        #expect(service.greeting == "Hello World")
        defaults.set(false, forKey: GreetingDebugDefaults.useDefault)
        #expect(service.greeting == "Custom")
    }

    @Test("the production locator (a release build) shows no drawer and the real greeting")
    func release() throws {
        let app = GreetingApp.makeDefinition { GreetingApp.ServiceLocator(context: $0) }
        let h = try SceneHarness(app: app)
        #expect(h.scene.windows.allSatisfy { $0.accessibilityIdentifier != "debugDrawerWindow" })
        #expect(h.element("debugDrawer") == nil)
        try h.tap("generateGreeting")
        #expect(h.element("greeting")?.label == "Hello World")
        // Release registers the drawer's defaults volatile (nothing sticks); debug keeps them.
        #expect(GreetingApp.ServiceLocator(context: LaunchContext()).debugDefaultsAreVolatile)
        #expect(
            !GreetingApp.ServiceLocatorForDebug(wrapping: GreetingApp.ServiceLocator(context: LaunchContext()))
                .debugDefaultsAreVolatile)
    }
}

/// Screens named for the issue's example: A[a0, a1*] -> B[b0, b1] -> C[c0*], D[d0] presented.
final class ActionsScreen: Screen, DebugActionsProviding {
    let make: () -> [DebugAction]
    private(set) var reads = 0
    init(_ title: String, _ make: @escaping () -> [DebugAction]) {
        self.make = make
        super.init(title: title)
    }
    var debugActions: [DebugAction] { reads += 1; return make() }
}

@Suite("Debug window")
struct DebugWindowTests {
    /// A scene whose root carries a debug window, with the issue's four screens on screen.
    func example() -> (SceneHarness, [ActionsScreen], DebugWindow) {
        let noop: () -> Void = {}
        let a = ActionsScreen("A") { [.simple("a0", noop), .simple("a1", isUbiquitous: true, noop)] }
        let b = ActionsScreen("B") { [.simple("b0", noop), .simple("b1", noop)] }
        let c = ActionsScreen("C") { [.simple("c0", isUbiquitous: true, noop)] }
        let d = ActionsScreen("D") { [.simple("d0", noop)] }
        let nav = NavigationController(rootScreen: a)
        let debugWindow = DebugWindow { [DebugInfoItem("Environment", "Test")] }
        nav.sceneAccessories = [debugWindow]
        let h = SceneHarness(root: nav)
        nav.push(b, animated: false)
        nav.push(c, animated: false)
        c.present(d, animated: false)
        h.settle()
        return (h, [a, b, c, d], debugWindow)
    }

    var titles: (SceneHarness) -> [String] {
        { h in h.elements.filter { $0.identifier.hasPrefix("debugAction.") }.map(\.label) }
    }

    @Test("the top screen's actions, then the ubiquitous ones below it: d0, c0, a1")
    func ubiquitousOrder() {
        let (h, screens, window) = example()
        #expect(DebugAction.collect(in: h.scene).map(\.title) == ["d0", "c0", "a1"])
        #expect(screens.allSatisfy { $0.reads == 1 })
        window.open()
        h.settle()
        #expect(titles(h) == ["d0", "c0", "a1"])
    }

    @Test("shake ignores ubiquitous actions: one preferred for shake below the top screen does not run")
    func shakeIgnoresUbiquitous() {
        var ran = false
        let a = ActionsScreen("A") { [.simple("a1", isUbiquitous: true, isPreferredForShake: true) { ran = true }] }
        let b = ActionsScreen("B") { [.simple("b0") {}] }
        let nav = NavigationController(rootScreen: a)
        let debugWindow = DebugWindow { [] }
        nav.sceneAccessories = [debugWindow]
        let h = SceneHarness(root: nav)
        #expect(DebugAction.preferredForShake(in: h.scene)?.title == "a1", "on A itself it is the shake action")
        nav.push(b, animated: false)
        h.settle()
        #expect(DebugAction.preferredForShake(in: h.scene) == nil)
        #expect(h.scene.shake())
        h.settle()
        #expect(!ran)
        #expect(debugWindow.isOpen)
        #expect(titles(h) == ["b0", "a1"])
    }

    @Test("opened by a right-edge swipe, by Command-D, and by a shake only while no text field has focus")
    func triggers() throws {
        let h = try SceneHarness(app: MailApp.definition)
        let right = h.scene.bounds.maxX
        h.drag(from: Point(x: right - 2, y: 400), to: Point(x: right - 200, y: 400))
        h.settle()
        #expect(h.element("debugWindow") != nil)
        try h.tap("debugWindowClose")
        h.settle()
        #expect(h.element("debugWindow") == nil)
        #expect(h.scene.keyCommand("cmd+d"))
        h.settle()
        #expect(h.element("debugWindow") != nil)
        try h.tap("debugWindowClose")
        h.settle()
        #expect(h.scene.shake())
        h.settle()
        #expect(h.element("debugWindow") != nil)
        try h.tap("debugWindowClose")
        h.settle()
        // Reply: a focused field takes the shake; unfocused, the preferred action runs instead of the window.
        try h.tap("Release 5.1 notes", type: .cell)
        h.settle()
        try h.tap("message0", type: .cell)
        h.settle()
        try h.tap("reply")
        h.settle()
        try h.tap("replyBody", type: .textField)
        h.settle()
        #expect(!h.scene.shake())
        #expect(h.element("debugWindow") == nil)
        _ = h.scene.firstResponder?.resignFirstResponder()
        h.settle()
        #expect(h.scene.shake())
        h.settle()
        #expect(h.element("debugWindow") == nil)
        #expect(h.element("replyBody", type: .textField)?.value == "Thanks, sounds good!")
        // The edge swipe and Command-D still open the window there.
        #expect(h.scene.keyCommand("cmd+d"))
        h.settle()
        #expect(titles(h) == ["Insert sample reply", "Feature flags", "Sign out"])
    }

    @Test("each kind of action: simple closes, producer success closes, producer failure alerts and stays, modal presents")
    func actionKinds() throws {
        let h = try SceneHarness(app: MailApp.definition)
        h.scene.keyCommand("cmd+d")
        h.settle()
        #expect(titles(h) == ["Mark all as read", "Sign out"])
        try h.tap("debugAction.Mark all as read")
        h.settle()
        #expect(h.element("debugWindow") == nil)
        #expect(h.element("Release 5.1 notes", type: .cell)?.label.contains("●") == false)
        try h.tap("Release 5.1 notes", type: .cell)
        h.settle()
        h.scene.keyCommand("cmd+d")
        h.settle()
        try h.tap("debugAction.Reload thread")
        h.advance(by: .milliseconds(200))
        #expect(h.element("debugActionState.Reload thread")?.label == "Running…")

        h.settle()
        #expect(h.element("debugWindow") == nil)
        h.scene.keyCommand("cmd+d")
        h.settle()
        try h.tap("debugAction.Sync with server")
        h.settle()
        let alert = try #require(h.scene.visibleAlerts.first)
        #expect(alert.title == "Sync with server failed")
        #expect(alert.message == "503 Service Unavailable: the sync server is down for maintenance.")
        try h.tap("OK")
        h.settle()
        #expect(h.element("debugWindow") != nil)
        #expect(h.element("debugActionState.Sync with server")?.label == "Failed")
        try h.tap("debugWindowClose")
        h.settle()
        try h.tap("message0", type: .cell)
        h.settle()
        h.scene.keyCommand("cmd+d")
        h.settle()
        try h.tap("debugAction.Feature flags")
        h.settle()
        #expect(h.element("featureFlags") != nil)
        #expect(h.element("flag.smartInbox", type: .switch)?.value == "0")
    }

    @Test("Quick Info lists environment, version and user; Share opens the share sheet with it as text")
    func quickInfo() throws {
        let h = try SceneHarness(app: MailApp.definition, arguments: ["--mail-environment", "staging"])
        h.scene.keyCommand("cmd+d")
        h.settle()
        #expect(h.element("quickInfoValue.Environment")?.label == "Staging")
        #expect(h.element("quickInfoValue.Server")?.label == "staging.mail.showreel.dev")
        #expect(h.element("quickInfoValue.Version")?.label == "5.1 (212)")
        #expect(h.element("quickInfoValue.User")?.label == "kate.bell@showreel.dev")
        try h.tap("debugShareQuickInfo")
        h.settle()
        let presented = h.scene.windows.flatMap(\.presentedScreens)
        let sheets = presented.compactMap { ($0 as? NavigationController)?.topScreen as? ShareSheetScreen }
        let sheet = try #require(sheets.first)
        #expect(
            sheet.items == ["Environment: Staging\nServer: staging.mail.showreel.dev\nVersion: 5.1 (212)\nUser: kate.bell@showreel.dev"])
        try h.tap("Close")
        h.settle()
        // Sign out is ubiquitous from the inbox, and Quick Info reads the session when the window opens.
        try h.tap("debugAction.Sign out")
        h.settle()
        h.scene.keyCommand("cmd+d")
        h.settle()
        #expect(h.element("quickInfoValue.User")?.label == "Signed out")
    }

    @Test("a running producer is not started twice; once done it can run again")
    func producerOnce() throws {
        var starts = 0
        weak var weakScreen: ActionsScreen?
        let screen = ActionsScreen("A") {
            [
                .producer("work", shouldDismiss: false) { finish in
                    starts += 1
                    weakScreen?.scene?.after(.milliseconds(500)) { finish(.success(())) }
                }
            ]
        }
        weakScreen = screen
        let nav = NavigationController(rootScreen: screen)
        let debugWindow = DebugWindow { [] }
        nav.sceneAccessories = [debugWindow]
        let h = SceneHarness(root: nav)
        debugWindow.open()
        h.settle()
        try h.tap("debugAction.work")
        try h.tap("debugAction.work")
        #expect(starts == 1)
        #expect(h.element("debugActionState.work")?.label == "Running…")
        h.settle()
        #expect(h.element("debugActionState.work")?.label == "Done")
        #expect(debugWindow.isOpen, "shouldDismiss: false keeps the window")
        try h.tap("debugAction.work")
        #expect(starts == 2)
    }

    @Test("actions are read when the window opens and released when it closes")
    func releasedOnClose() throws {
        final class Token {}
        weak var captured: Token?
        let screen = ActionsScreen("A") {
            let token = Token()
            captured = token
            return [.simple("hold") { _ = token }]
        }
        let nav = NavigationController(rootScreen: screen)
        let debugWindow = DebugWindow { [] }
        nav.sceneAccessories = [debugWindow]
        let h = SceneHarness(root: nav)
        h.settle()
        #expect(screen.reads == 0, "nothing is read before the window opens")
        debugWindow.open()
        h.settle()
        #expect(screen.reads == 1)
        #expect(captured != nil)
        try h.tap("debugWindowClose")
        h.settle()
        #expect(!debugWindow.isOpen)
        #expect(captured == nil, "the window kept its actions after closing")
        #expect(h.scene.windows.count == 2, "only the app and keyboard windows remain")
    }

    @Test("the production locator (a release build): shake, edge swipe and Command-D open nothing")
    func release() throws {
        let app = MailApp.makeDefinition { try MailApp.ServiceLocator(context: $0) }
        let h = try SceneHarness(app: app)
        let right = h.scene.bounds.maxX
        h.drag(from: Point(x: right - 2, y: 400), to: Point(x: right - 200, y: 400))
        #expect(!h.scene.shake())
        #expect(!h.scene.keyCommand("cmd+d"))
        h.settle()
        #expect(h.element("debugWindow") == nil)
        #expect(h.scene.windows.count == 2)
    }

    @Test("the app sent away takes its debug window and triggers with it")
    func detached() throws {
        let h = try SceneHarness(app: MailApp.definition)
        h.scene.keyCommand("cmd+d")
        h.settle()
        h.scene.setAppRootScreen(nil)
        #expect(h.element("debugWindow") == nil)
        #expect(!h.scene.keyCommand("cmd+d"))
        #expect(h.scene.onShake == nil && h.scene.onEdgeSwipeFromRight == nil)
    }
}
