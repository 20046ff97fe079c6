import ShowreelAccessibility
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowcaseApps
@testable import ShowreelUI

@Suite("Controls and lists")
struct ControlsTests {
    @Test("a switch toggles on tap, its knob slides on the clock, its value is 1 or 0")
    func switchToggle() throws {
        var changes: [Bool] = []
        let root = Screen(title: "Settings", background: .groupedBackground)
        let table = TableView(
            style: .insetGrouped,
            sections: [
                TableSection(
                    header: "Options", rows: [.toggle("Use default", isOn: false, identifier: "useDefault") { changes.append($0) }])
            ])
        root.contentView = table
        let h = SceneHarness(root: root)
        let node = try #require(h.element("useDefault", type: .switch))
        #expect(node.value == "0" && node.label == "Use default")
        let control = try #require(table.cell(at: 0, row: 0)?.switchControl)
        h.scene.touchDown(at: node.frame.center)
        h.scene.touchUp(at: node.frame.center)
        #expect(changes == [true])
        #expect(h.element("useDefault")?.value == "1")
        let start = h.scene.now
        h.scene.advanceTime(to: start + .milliseconds(125))
        #expect(abs(control.knobPosition - AnimationCurve.easeInOut.value(at: 0.5)) < 1e-9)
        h.settle()
        #expect(control.knobPosition == 1)
        try h.tap("useDefault", type: .switch)
        h.settle()
        #expect(changes == [true, false])
        #expect(h.element("useDefault")?.value == "0")
    }

    @Test("a drag scrolls the list, clips what left the screen, and momentum carries on")
    func tableScrolling() throws {
        let h = try SceneHarness(app: CountriesApp.definition)
        let list = try #require((h.scene.appWindow.rootScreen as? NavigationController)?.topScreen as? CountriesListScreen)
        #expect(h.element("Afghanistan", type: .cell)?.isHittable == true)
        #expect(h.element("Vietnam", type: .cell) == nil)
        // A slow drag (no momentum): the offset follows the finger exactly.
        h.scene.touchDown(at: Point(x: 200, y: 700))
        for step in 1...20 {
            h.advance(by: .milliseconds(50))
            h.scene.touchMoved(to: Point(x: 200, y: 700 - Double(step) * 15))
        }
        h.advance(by: .milliseconds(200))  // hold still: release velocity 0
        h.scene.touchUp(at: Point(x: 200, y: 400))
        #expect(list.table.contentOffset.y == 300)  // the finger's whole way, slop included
        #expect(!h.scene.hasRunningAnimations)
        #expect(h.element("Afghanistan", type: .cell) == nil)
        #expect(h.element("Iceland", type: .cell)?.isHittable == true)
        // A fast flick keeps going after the finger lifts, then stops at the end.
        h.drag(from: Point(x: 200, y: 700), to: Point(x: 200, y: 300), duration: .milliseconds(100))
        let released = list.table.contentOffset.y
        #expect(h.scene.hasRunningAnimations)
        h.advance(by: .milliseconds(300))
        #expect(list.table.contentOffset.y > released)
        h.settle()
        #expect(list.table.contentOffset.y == list.table.maxOffsetY)
        #expect(h.element("Vietnam", type: .cell)?.isHittable == true)
    }

    @Test("a drag that starts on a row does not select it; a tap does, with a fading highlight")
    func dragDoesNotSelect() throws {
        let h = try SceneHarness(app: CountriesApp.definition)
        let nav = try #require(h.scene.appWindow.rootScreen as? NavigationController)
        let canada = try #require(h.element("Canada", type: .cell)).frame.center
        h.drag(from: canada, to: Point(x: canada.x, y: canada.y - 100))
        h.settle()
        #expect(nav.screens.count == 1)
        h.drag(from: Point(x: 200, y: 500), to: Point(x: 200, y: 800))  // back to the top (bounces)
        h.settle()
        let list = try #require(nav.topScreen as? CountriesListScreen)
        #expect(list.table.contentOffset.y == 0)
        let cell = try #require(list.table.cell(withIdentifier: "Canada"))
        h.scene.touchDown(at: try #require(h.element("Canada", type: .cell)).frame.center)
        #expect(cell.highlightAmount == 1)
        h.scene.touchUp(at: try #require(h.element("Canada", type: .cell)).frame.center)
        #expect(nav.screens.count == 2)
        h.settle()
        #expect(cell.highlightAmount == 0)
    }

    @Test("buttons highlight on touch down, fire on touch up inside, not when the finger leaves")
    func buttonTracking() throws {
        var taps = 0
        let root = Screen(title: "Buttons")
        let button = Button("Go") { taps += 1 }
        button.frame = Rect(x: 100, y: 300, width: 190, height: 50)
        root.view.addSubview(button)
        let h = SceneHarness(root: root)
        h.scene.touchDown(at: Point(x: 150, y: 320))
        #expect(button.isHighlighted)
        h.scene.touchMoved(to: Point(x: 150, y: 500))
        #expect(!button.isHighlighted)
        h.scene.touchUp(at: Point(x: 150, y: 500))
        #expect(taps == 0)
        #expect(h.scene.tap(at: Point(x: 150, y: 320)) === button)
        #expect(taps == 1)
        button.isEnabled = false
        h.scene.tap(at: Point(x: 150, y: 320))
        #expect(taps == 1)
    }

    @Test("touch indicators show where the finger is and fade after it lifts")
    func touchIndicators() throws {
        let h = SceneHarness(root: Screen(title: "Touches"))
        h.scene.showsTouches = true
        let before = h.render().contentHash
        h.scene.touchDown(at: Point(x: 100, y: 400))
        #expect(h.scene.needsRender)
        let down = h.render()
        #expect(down.contentHash != before)
        let inside = down.pixel(x: 200, y: 800)
        #expect(inside != RGBA(red: 255, green: 255, blue: 255))
        h.scene.touchUp(at: Point(x: 100, y: 400))
        #expect(h.scene.hasRunningAnimations)
        h.settle()
        #expect(h.render().contentHash == before)
    }

    @Test("views that only override handleTap() still get taps; labels wrap over several lines")
    func legacyTapAndWrapping() throws {
        final class Tile: View {
            var taps = 0
            override func handleTap() -> Bool { taps += 1; return true }
        }
        let root = Screen(title: "Tiles")
        let tile = Tile(frame: Rect(x: 20, y: 200, width: 100, height: 100))
        root.view.addSubview(tile)
        let long = Label("A label long enough to need more than one line at this width", lines: 0)
        long.frame = Rect(x: 20, y: 400, width: 200, height: 100)
        root.view.addSubview(long)
        let h = SceneHarness(root: root)
        #expect(h.scene.tap(at: Point(x: 50, y: 250)) === tile)
        #expect(tile.taps == 1)
        let one = Label("Short").sizeThatFits(Size(width: 200, height: 1000)).height
        let wrapped = long.sizeThatFits(Size(width: 200, height: 1000)).height
        #expect(wrapped > 2 * one)
        #expect(TextMetrics.lines(of: long.text, font: .body, width: 200).count >= 3)
        #expect(TextMetrics.lines(of: long.text, font: .body, width: 200, maxLines: 2).last?.hasSuffix("…") == true)
    }
}
