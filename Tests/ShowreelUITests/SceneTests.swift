import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelUI

@Suite("Scene: dirty tracking, determinism, status bar, accessibility, events")
struct SceneTests {
    @Test("nothing is rendered when nothing changed; a change makes exactly one frame due")
    func dirtyTracking() throws {
        let h = try SceneHarness(app: HelloApp.definition)
        var invalidations = 0
        h.scene.onInvalidate = { invalidations += 1 }
        let pixels = PixelBuffer(width: h.scene.profile.pixelWidth, height: h.scene.profile.pixelHeight)
        #expect(h.scene.renderIfNeeded(into: pixels))
        #expect(!h.scene.needsRender)
        let count = h.scene.renderCount
        // Queries, layout and time passing with nothing moving change nothing.
        _ = h.scene.accessibilityTree()
        h.scene.layoutIfNeeded()
        h.scene.advanceTime(by: .seconds(1))
        #expect(!h.scene.renderIfNeeded(into: pixels))
        #expect(h.scene.renderCount == count)
        #expect(invalidations == 0)
        try h.tap("tapButton")
        #expect(h.scene.needsRender)
        #expect(invalidations == 1)
        #expect(h.scene.renderIfNeeded(into: pixels))
        #expect(!h.scene.renderIfNeeded(into: pixels))
        #expect(h.scene.renderCount == count + 1)
    }

    @Test("every sample screen is clean after one render (layout does not dirty it again)")
    func cleanAfterRender() throws {
        for app in ShowcaseCatalog.apps {
            let h = try SceneHarness(app: app)
            h.settle()
            _ = h.render()
            _ = h.scene.accessibilityTree()
            #expect(!h.scene.needsRender, "\(app.bundleIdentifier) is dirty after render")
        }
    }

    @Test("the same state renders byte-identical pixels, in one scene or two")
    func determinism() throws {
        let a = try SceneHarness(app: CountriesApp.definition)
        let first = a.render()
        a.scene.setNeedsRender()
        let second = a.render()
        #expect(first.contentHash == second.contentHash)
        #expect(first.hasSamePixels(as: second))
        let b = try SceneHarness(app: CountriesApp.definition)
        #expect(b.render().contentHash == first.contentHash)
    }

    @Test("status bar overrides like simctl: some fields at a time, cleared back to live values")
    func statusBarOverrides() throws {
        let h = try SceneHarness(app: HelloApp.definition)
        #expect(h.scene.statusBar.time == "9:41")
        #expect(!h.scene.isStatusBarOverridden)
        let live = h.render().contentHash
        h.scene.overrideStatusBar {
            $0.time = "10:09"; $0.batteryLevel = 42; $0.batteryState = .discharging
        }
        h.scene.overrideStatusBar {
            $0.dataNetwork = .lte; $0.cellularBars = 2; $0.operatorName = "Showreel"
        }
        let values = h.scene.statusBar
        #expect(values.time == "10:09" && values.batteryLevel == 42 && values.dataNetwork == .lte && values.operatorName == "Showreel")
        #expect(h.scene.needsRender)
        #expect(h.render().contentHash != live)
        #expect(h.scene.accessibilityTree().first?.label == "10:09")
        // Overridden, the clock does not move the time.
        h.scene.advanceTime(by: .seconds(120))
        #expect(h.scene.statusBar.time == "10:09")
        h.scene.clearStatusBarOverrides()
        #expect(!h.scene.isStatusBarOverridden)
        #expect(h.scene.statusBar == h.scene.liveStatusBar)
        #expect(h.scene.statusBar.time == "9:43")  // the live time follows the scene clock
    }

    @Test("the accessibility tree carries types, identifiers, values and placeholders, and round-trips as JSON")
    func treeJSON() throws {
        let h = try SceneHarness(app: SignUpApp.definition)
        h.settle()
        let tree = h.scene.accessibilityTree()
        let data = try JSONEncoder().encode(tree)
        let decoded = try JSONDecoder().decode([ElementSnapshot].self, from: data)
        #expect(decoded == tree)
        let json = String(decoding: data, as: UTF8.self)
        #expect(json.contains("\"placeholder\":\"Email\""))
        let all = decoded.flatMap(\.flattened)
        #expect(all.first?.type == .statusBar)
        #expect(all.contains { $0.type == .textField && $0.identifier == "email" && $0.value == "" && $0.placeholder == "Email" })
        #expect(all.contains { $0.type == .switch && $0.identifier == "resetAppearance" && $0.value == "0" })
        #expect(all.contains { $0.type == .navigationBar && $0.identifier == "Sign Up" })
        #expect(all.contains { $0.type == .key && $0.identifier == "Return" && $0.isHittable })
        #expect(all.contains { $0.type == .table && $0.identifier == "signUpForm" })
        // What the keyboard covers stays in the tree but is not hittable.
        let keyboardTop = try #require(h.scene.keyboardFrame).minY
        let covered = all.filter {
            !([.key, .keyboard, .window, .table] as [ElementType?]).contains($0.type) && $0.frame.center.y > keyboardTop
        }
        #expect(!covered.isEmpty)
        #expect(covered.allSatisfy { !$0.isHittable })
    }

    @Test("appearance proxies reach system screens; the reset closure restores the app's look")
    func appearanceReset() throws {
        let h = try SceneHarness(app: SignUpApp.definition)
        h.settle()
        let appearance = try #require(h.scene.appearance)
        #expect(appearance.navigationBar == SignUpApp.brandAppearance)
        let restore = appearance.resetToDefaultAppearance()
        #expect(appearance.navigationBar == .systemDefault)
        restore()
        #expect(appearance.navigationBar == SignUpApp.brandAppearance)

        // Without the reset, the contact card's bar picks up the app's colours (the problem).
        let nav = try #require(h.scene.appWindow.rootScreen as? NavigationController)
        try #require(h.scene.firstResponder).resignFirstResponder()
        h.settle()
        try h.tap("showContactCard")
        h.settle()
        let leaked = try #require(nav.presentedScreen as? NavigationController)
        #expect(leaked.navigationBar.effectiveAppearance.barTintColor == SignUpApp.brandAppearance.barTintColor)
        try h.tap("Done")
        h.settle()
        // With it, the card is in the system look, and the app's look comes back after.
        try h.tap("resetAppearance", type: .switch)
        try h.tap("showContactCard")
        h.settle()
        let card = try #require(nav.presentedScreen as? NavigationController)
        #expect(card.navigationBar.effectiveAppearance == .systemDefault)
        #expect(appearance.navigationBar == .systemDefault)
        #expect(nav.navigationBar.effectiveAppearance == SignUpApp.brandAppearance)  // the app's own bar keeps its look
        try h.tap("Done")
        h.settle()
        #expect(appearance.navigationBar == SignUpApp.brandAppearance)
    }

    @Test("shake goes to the top-most screen, then up the hierarchy, then the scene hook")
    func shake() throws {
        final class ShakeScreen: Screen {
            var shakes = 0
            var handles = true
            override func motionEnded(_ motion: Motion) -> Bool { shakes += 1; return handles }
        }
        let root = ShakeScreen(title: "Root")
        let nav = NavigationController(rootScreen: root)
        let h = SceneHarness(root: nav)
        #expect(h.scene.shake())
        #expect(root.shakes == 1)
        let top = ShakeScreen(title: "Top")
        top.handles = false
        nav.present(top, animated: false)
        root.handles = false
        var hook = 0
        h.scene.onShake = {
            hook += 1; return true
        }
        #expect(h.scene.topMostScreen === top)
        #expect(h.scene.shake())
        #expect(top.shakes == 1 && root.shakes == 1 && hook == 1)  // the root is not above the presented screen's chain
    }

    @Test("key commands: the screen's own first, then the scene's (Cmd+D for the debug window)")
    func keyCommands() throws {
        final class CommandScreen: Screen {
            var log: [String] = []
            override var keyCommands: [KeyCommand] {
                [KeyCommand(input: "r", modifiers: .command, title: "Reload") { [unowned self] in log.append("reload") }]
            }
        }
        let screen = CommandScreen(title: "Commands")
        let h = SceneHarness(root: NavigationController(rootScreen: screen))
        var debug = 0
        h.scene.keyCommands = [KeyCommand(input: "d", modifiers: .command, title: "Debug") { debug += 1 }]
        #expect(h.scene.keyCommand("cmd+r"))
        #expect(h.scene.keyCommand(KeyInput("D", modifiers: .command)))
        #expect(!h.scene.keyCommand("cmd+x"))
        #expect(screen.log == ["reload"] && debug == 1)
        #expect(KeyInput(parsing: "Command-Shift-K") == KeyInput("k", modifiers: [.command, .shift]))
        #expect(KeyInput(parsing: "cmd+d")?.description == "cmd+d")
    }

    @Test("screens from the top: the presented stack, navigation children top first")
    func hierarchy() throws {
        let a = Screen(title: "A"), b = Screen(title: "B"), c = Screen(title: "C"), d = Screen(title: "D")
        let nav = NavigationController(rootScreen: a)
        let h = SceneHarness(root: nav)
        nav.push(b, animated: false)
        nav.push(c, animated: false)
        c.present(d, animated: false)
        h.settle()
        #expect(h.scene.topMostScreen === d)
        #expect(h.scene.screensFromTop.map(\.title) == ["D", "C", "B", "A", ""])
        #expect(d.presentingScreen === nav)
    }
}
