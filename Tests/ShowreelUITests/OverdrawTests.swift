import Foundation
import ShowreelGraphics
import ShowreelRender
import Testing

@testable import ShowreelUI

/// A background that opaque subviews paint over entirely is left out of a render, and only
/// then: wherever a pixel of it could show (an edge between pixels, a translucent or rounded
/// cover, a gap, an antialiased clip) it is drawn, and the picture is the same either way.
@Suite("Overdraw left out")
struct OverdrawTests {
    /// A 100 x 100 point view on a 2x canvas, red, with `covers` inside it.
    private func tree(_ covers: [(Rect, Color)], frame: Rect = Rect(x: 0, y: 0, width: 100, height: 100)) -> View {
        let view = View(frame: frame)
        view.backgroundColor = .systemRed
        for (rect, color) in covers {
            let cover = View(frame: rect)
            cover.backgroundColor = color
            view.addSubview(cover)
        }
        return view
    }

    private func canvas() -> Canvas {
        Canvas(pixels: PixelBuffer(width: 200, height: 200), scale: 2)
    }

    @Test("one opaque subview over the whole background, or several stacked, hide it")
    func coveredBackgrounds() {
        let exact = tree([(Rect(x: 0, y: 0, width: 100, height: 100), .white)])
        #expect(exact.backgroundIsHidden(in: canvas()))
        let larger = tree([(Rect(x: -0.25, y: -10, width: 100.5, height: 120), .white)])
        #expect(larger.backgroundIsHidden(in: canvas()))
        // A bar, a list and a keyboard: rows set by three views, in any order.
        let stacked = tree([
            (Rect(x: 0, y: 70, width: 100, height: 40), .systemBlue), (Rect(x: 0, y: 0, width: 100, height: 20), .white),
            (Rect(x: 0, y: 20, width: 100, height: 50), .systemGreen),
        ])
        #expect(stacked.backgroundIsHidden(in: canvas()))
    }

    @Test("a pixel the covers do not set wholly keeps the background")
    func uncoveredPixels() {
        // Half a pixel (a quarter point at 2x) uncovered at the right edge.
        #expect(!tree([(Rect(x: 0, y: 0, width: 99.75, height: 100), .white)]).backgroundIsHidden(in: canvas()))
        // Two covers meeting inside a pixel row: each sets it only half.
        let meeting = tree([
            (Rect(x: 0, y: 0, width: 100, height: 50.25), .white), (Rect(x: 0, y: 50.25, width: 100, height: 49.75), .systemBlue),
        ])
        #expect(!meeting.backgroundIsHidden(in: canvas()))
        // A gap between two covers.
        let gap = tree([(Rect(x: 0, y: 0, width: 100, height: 40), .white), (Rect(x: 0, y: 41, width: 100, height: 59), .systemBlue)])
        #expect(!gap.backgroundIsHidden(in: canvas()))
        // The background's own edge between pixels: the cover's fill shares that edge and sets it only partly.
        let fractional = tree([(Rect(x: 0, y: 0, width: 50, height: 50), .white)], frame: Rect(x: 0.25, y: 0, width: 50, height: 50))
        let canvas = canvas()
        canvas.translate(x: 0.25, y: 0)
        #expect(!fractional.backgroundIsHidden(in: canvas))
    }

    @Test("translucent, rounded, hidden or faded covers keep the background")
    func coversThatLetItShow() {
        let whole = Rect(x: 0, y: 0, width: 100, height: 100)
        #expect(!tree([(whole, Color.white.withAlpha(0.99))]).backgroundIsHidden(in: canvas()))
        let rounded = tree([(whole, .white)])
        rounded.subviews[0].cornerRadius = 4
        #expect(!rounded.backgroundIsHidden(in: canvas()))
        let hidden = tree([(whole, .white)])
        hidden.subviews[0].isHidden = true
        #expect(!hidden.backgroundIsHidden(in: canvas()))
        let faded = tree([(whole, .white)])
        faded.subviews[0].alpha = 0.5
        #expect(!faded.backgroundIsHidden(in: canvas()))
        let scaled = tree([(whole, .white)])
        scaled.subviews[0].scale = 1.01
        #expect(!scaled.backgroundIsHidden(in: canvas()))
    }

    @Test("under an antialiased clip or a turn, nothing is left out; a restore brings it back")
    func clipsAndTurns() {
        let view = tree([(Rect(x: 0, y: 0, width: 100, height: 100), .white)])
        let canvas = canvas()
        canvas.withState {
            canvas.clip(to: Rect(x: 0, y: 0, width: 100, height: 100), cornerRadius: 8)
            #expect(!view.backgroundIsHidden(in: canvas))
        }
        canvas.withState {
            canvas.clip(to: Rect(x: 0, y: 0, width: 80.25, height: 100))
            #expect(!view.backgroundIsHidden(in: canvas))
        }
        canvas.withState {
            canvas.clip(to: Rect(x: 0, y: 0, width: 80, height: 100))
            #expect(view.backgroundIsHidden(in: canvas))
        }
        canvas.withState {
            canvas.rotate(by: .pi / 6)
            #expect(!view.backgroundIsHidden(in: canvas))
        }
        #expect(view.backgroundIsHidden(in: canvas))
    }

    @Test("a render that leaves hidden backgrounds out has the same pixels as one that draws them")
    func samePixels() {
        func render(_ view: View, leavingOut: Bool) -> (PixelBuffer, Int) {
            let pixels = PixelBuffer(width: 200, height: 200)
            let canvas = Canvas(pixels: pixels, scale: 2)
            canvas.leavesOutOverdraw = leavingOut
            canvas.clear(.black)
            view.render(in: canvas)
            canvas.finish()
            return (pixels, canvas.overdrawLeftOut)
        }
        let stacked = tree([
            (Rect(x: 0, y: 0, width: 100, height: 20), .white), (Rect(x: 0, y: 20, width: 100, height: 80), .systemGreen),
        ])
        stacked.subviews[1].addSubview(
            tree([(Rect(x: 10, y: 10, width: 30.25, height: 30), .systemBlue)], frame: Rect(x: 5, y: 5, width: 40.5, height: 40)))
        let (left, leftOut) = render(stacked, leavingOut: true)
        let (drawn, none) = render(stacked, leavingOut: false)
        #expect(leftOut == 1)
        #expect(none == 0)
        #expect(left.hasSamePixels(as: drawn))
    }
}
