import ShowreelGraphics
import Testing

@Suite("Pixel areas")
struct PixelAreaTests {
    private func area(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> PixelArea {
        PixelArea(rows: y..<(y + height), columns: x..<(x + width))
    }

    @Test("areas added up leave out each one another covers, in whichever order they come")
    func addingLeavesOutCoveredAreas() {
        let caret = area(10, 10, 2, 20)
        let field = area(0, 0, 100, 40)
        let key = area(50, 600, 60, 80)
        // A caret blinking frame after frame: one area.
        #expect([caret].adding([caret, caret]) == [caret])
        // Inside the field, before or after it: the field alone.
        #expect([caret].adding([field]) == [field])
        #expect([field].adding([caret]) == [field])
        // Apart: both, in the order they came; empty ones are nothing to copy.
        #expect([field].adding([key, area(5, 5, 0, 9)]) == [field, key])
        // Overlapping without covering: both, a pixel copied twice is still right.
        let wider = area(90, 0, 40, 40)
        #expect([field].adding([wider]) == [field, wider])
    }

    @Test("past the areas it checks, adding keeps every area it is given: nothing changed is lost")
    func addingPastItsChecksLosesNothing() {
        let cells = (0..<40).map { area(0, $0 * 50, 390, 44) }
        let added = [PixelArea]().adding(cells + cells)
        #expect(added.count >= cells.count)
        #expect(cells.allSatisfy { cell in added.contains { $0.contains(cell) } })
        #expect(Array(added.prefix([PixelArea].coverageChecks)) == Array(cells.prefix([PixelArea].coverageChecks)))
    }

    @Test("an area contains itself, what lies inside it and any empty area, nothing that sticks out")
    func containment() {
        let box = area(10, 10, 20, 20)
        #expect(box.contains(box))
        #expect(box.contains(area(15, 15, 5, 5)))
        #expect(box.contains(area(500, 500, 0, 3)))
        #expect(!box.contains(area(25, 25, 10, 2)))
        #expect(!box.contains(area(0, 0, 5, 5)))
    }
}
