import ShowcaseApps
import ShowreelAccessibility
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelUI

@Suite("Navigation, presentation and alerts")
struct NavigationTests {
    @Test("push slides the details in on the scene clock; progress is a pure function of time")
    func pushProgress() throws {
        let h = try SceneHarness(app: CountriesApp.definition)
        let width = h.scene.bounds.width
        try h.tap("Canada", type: .cell)  // the push starts when the finger lifts, 100 ms in
        let start = h.scene.now
        let nav = try #require(h.scene.appWindow.rootScreen as? NavigationController)
        let details = try #require(nav.topScreen)
        #expect(details.title == "Canada")
        #expect(h.scene.hasRunningAnimations)
        #expect(h.scene.animationsEndTime == start + AnimationDurations.push)

        h.scene.advanceTime(to: start + .milliseconds(175))  // half the duration
        h.scene.layoutIfNeeded()
        let expected = width * (1 - AnimationCurve.decelerate.value(at: 0.5))
        #expect(abs(details.view.frame.x - expected) < 0.001)
        // The screen below moves a third as far, to the left.
        let list = nav.screens[0]
        #expect(abs(list.view.frame.x - (-0.3 * width * AnimationCurve.decelerate.value(at: 0.5))) < 0.001)

        h.scene.advanceTime(to: start + AnimationDurations.push)
        h.scene.layoutIfNeeded()
        #expect(details.view.frame.x == 0)
        #expect(!h.scene.hasRunningAnimations)
        #expect(list.view.superview == nil)  // off screen once covered
        #expect(h.element("countryName")?.isHittable == true)
        #expect(h.element("BackButton")?.label == "Countries")
        #expect(h.elements.first { $0.type == .navigationBar }?.identifier == "Canada")
    }

    @Test("two runs of the same push give the same frames at the same times")
    func pushIsDeterministic() throws {
        func frames() throws -> [UInt64] {
            let h = try SceneHarness(profile: .phoneSmall, app: CountriesApp.definition)
            try h.tap("Canada", type: .cell)
            var hashes: [UInt64] = []
            for _ in 0..<6 {
                h.advance(by: .milliseconds(70))
                hashes.append(h.render().contentHash)
            }
            return hashes
        }
        let first = try frames(), second = try frames()
        #expect(first == second)
        #expect(Set(first).count >= 5)  // it really moved
    }

    @Test("the back button pops with the reverse animation")
    func pop() throws {
        let h = try SceneHarness(app: CountriesApp.definition)
        try h.tap("Canada", type: .cell)
        h.settle()
        try h.tap("BackButton")
        let nav = try #require(h.scene.appWindow.rootScreen as? NavigationController)
        #expect(nav.screens.count == 1)
        let start = h.scene.now
        let details = try #require(nav.transition?.from)
        h.scene.advanceTime(to: start + .milliseconds(100))
        h.scene.layoutIfNeeded()
        let p = AnimationCurve.decelerate.value(at: 100.0 / 350)
        #expect(abs(details.view.frame.x - h.scene.bounds.width * p) < 0.001)
        h.settle()
        #expect(h.element("countryName") == nil)
        #expect(h.element("Canada", type: .cell)?.isHittable == true)
        #expect(details.parentScreen == nil)
    }

    @Test("an edge swipe from the left pops; one from the right reports to the hook")
    func edgeSwipes() throws {
        let h = try SceneHarness(app: CountriesApp.definition)
        var rightSwipes = 0
        h.scene.onEdgeSwipeFromRight = { rightSwipes += 1 }
        h.drag(from: Point(x: 388, y: 400), to: Point(x: 250, y: 405))
        #expect(rightSwipes == 1)
        try h.tap("Canada", type: .cell)
        h.settle()
        h.drag(from: Point(x: 5, y: 400), to: Point(x: 200, y: 400))
        h.settle()
        #expect(h.element("countryName") == nil)
        #expect(rightSwipes == 1)
    }

    @Test("a sheet slides up over the top-most screen and slides down when dismissed")
    func modal() throws {
        let root = Screen(title: "Root")
        let h = SceneHarness(root: root)
        let sheet = Screen(title: "Sheet")
        let label = Label("In the sheet")
        label.accessibilityIdentifier = "sheetLabel"
        sheet.contentView = label
        root.present(sheet)
        #expect(root.presentedScreen === sheet && sheet.presentingScreen === root)
        let start = h.scene.now
        h.scene.layoutIfNeeded()
        let bottom = h.scene.bounds.height
        #expect(sheet.view.frame.y == bottom)
        h.scene.advanceTime(to: start + .milliseconds(225))
        h.scene.layoutIfNeeded()
        let top = h.scene.safeArea.minY + 10
        let expected = top + (bottom - top) * (1 - AnimationCurve.decelerate.value(at: 0.5))
        #expect(abs(sheet.view.frame.y - expected) < 0.001)
        h.settle()
        #expect(sheet.view.frame.y == top)
        #expect(h.element("sheetLabel")?.isHittable == true)
        // A second presentation goes over the top-most one.
        let second = Screen(title: "Second")
        root.present(second)
        h.settle()
        #expect(sheet.presentedScreen === second)
        #expect(h.scene.screensFromTop.map(\.title) == ["Second", "Sheet", "Root"])
        // Dismissing what the root presents takes everything above it too.
        root.dismiss()
        #expect(second.presentingScreen == nil)
        h.settle()
        #expect(root.presentedScreen == nil)
        #expect(h.element("sheetLabel") == nil)
        #expect(h.scene.appWindow.presentedScreens.isEmpty)
    }

    @Test("a full-screen modal covers everything; completion runs after the animation")
    func fullScreenModal() throws {
        let root = Screen(title: "Root")
        let h = SceneHarness(root: root)
        let modal = Screen(title: "Modal")
        modal.modalPresentationStyle = .fullScreen
        var presented = false, dismissed = false
        root.present(modal) { presented = true }
        #expect(!presented)
        h.settle()
        #expect(presented)
        #expect(modal.view.frame == h.scene.bounds)
        modal.dismiss { dismissed = true }
        h.settle()
        #expect(dismissed)
    }

    @Test("an alert fades in with its actions; tapping one runs it and the alert goes")
    func alert() throws {
        let root = Screen(title: "Root")
        let h = SceneHarness(root: root)
        var chosen: [String] = []
        let alert = AlertController(title: "Delete photo?", message: "This cannot be undone.")
        alert.addAction(AlertAction(title: "Cancel", style: .cancel) { chosen.append("cancel") })
        alert.addAction(AlertAction(title: "Delete", style: .destructive) { chosen.append("delete") })
        root.present(alert)
        #expect(h.scene.windows.contains { $0.level == .alert })
        h.advance(by: .milliseconds(100))
        let half = try #require(h.elements.first { $0.type == .alert })
        #expect(half.identifier == "Delete photo?")
        h.settle()
        let node = try #require(h.elements.first { $0.type == .alert })
        #expect(node.children.contains { $0.type == .staticText && $0.label == "This cannot be undone." })
        #expect(node.children.filter { $0.type == .button }.map(\.label) == ["Cancel", "Delete"])
        try h.tap("Delete", type: .button)
        #expect(chosen == ["delete"])
        h.settle()
        #expect(!h.scene.windows.contains { $0.level == .alert })
        #expect(h.elements.first { $0.type == .alert } == nil)
        #expect(root.presentedScreen == nil)
    }

    @Test("an app sent to the background keeps its sheets and alerts; they show again when it returns")
    func backgroundAndBack() throws {
        let root = Screen(title: "Root")
        let h = SceneHarness(root: root)
        let sheet = Screen(title: "Sheet")
        let label = Label("Still here")
        label.accessibilityIdentifier = "sheetLabel"
        sheet.contentView = label
        root.present(sheet)
        let alert = AlertController(title: "Hello")
        alert.addAction(AlertAction(title: "OK"))
        sheet.present(alert)
        h.settle()
        h.scene.setAppRootScreen(nil)
        #expect(h.element("sheetLabel") == nil)
        #expect(h.elements.first { $0.type == .alert } == nil)
        h.scene.setAppRootScreen(root)
        #expect(h.element("sheetLabel") != nil)
        #expect(h.elements.first { $0.type == .alert }?.identifier == "Hello")
        try h.tap("OK")
        h.settle()
        #expect(h.elements.first { $0.type == .alert } == nil)
        #expect(h.element("sheetLabel")?.isHittable == true)
    }
}
