import ShowreelAccessibility
import ShowreelGraphics
import Testing

/// Query chains evaluated on a tree built by hand: what `count` and `index` see.
@Suite("Element queries")
struct ElementQueryTests {
    /// A window holding a table of five cells, each with a label inside.
    static let tree: [ElementSnapshot] = {
        func element(_ type: ElementType, _ label: String, _ children: [ElementSnapshot] = []) -> ElementSnapshot {
            ElementSnapshot(
                type: type, identifier: "", label: label, frame: Rect(x: 0, y: 0, width: 10, height: 10),
                isEnabled: true, isHittable: true, children: children)
        }
        let cells = (1...5).map { element(.cell, "Cell \($0)", [element(.staticText, "Text \($0)")]) }
        return [element(.window, "", [element(.table, "Table", cells)])]
    }()

    @Test("a cell below several matches of the step before comes once, in document order")
    func descendantsOfDescendants() {
        let cells = ElementQuery.descendants().descendants(type: .cell).evaluate(in: Self.tree)
        #expect(cells.map(\.label) == ["Cell 1", "Cell 2", "Cell 3", "Cell 4", "Cell 5"])
        let fourth = ElementQuery.descendants().descendants(type: .cell).refined { $0.index = 3 }.evaluate(in: Self.tree)
        #expect(fourth.map(\.label) == ["Cell 4"])
        let texts = ElementQuery.descendants().descendants().descendants(type: .staticText).evaluate(in: Self.tree)
        #expect(texts.map(\.label) == ["Text 1", "Text 2", "Text 3", "Text 4", "Text 5"])
    }

    @Test("children and descendants keep their meaning")
    func axes() {
        #expect(ElementQuery.descendants(type: .cell).evaluate(in: Self.tree).count == 5)
        #expect(ElementQuery.descendants(type: .table).children(type: .cell).evaluate(in: Self.tree).count == 5)
        #expect(ElementQuery.descendants(type: .window).children(type: .cell).evaluate(in: Self.tree).isEmpty)
        #expect(ElementQuery(steps: [ElementQuery.Step(axis: .children, type: .window)]).evaluate(in: Self.tree).count == 1)
        #expect(ElementQuery(steps: [ElementQuery.Step(axis: .children, type: .table)]).evaluate(in: Self.tree).isEmpty)
        #expect(
            ElementQuery.descendants(type: .cell).children(type: .staticText).refined { $0.index = 4 }
                .evaluate(in: Self.tree).map(\.label) == ["Text 5"])
    }
}
