import ShowreelAccessibility
import ShowreelFlows
import ShowreelGraphics
import ShowreelStudio
import Testing

/// The selector a recorded step is written with: unique, in the user's priority, never ambiguous.
@Suite struct SelectorRankerTests {
    static func element(_ type: ElementType, id: String = "", label: String = "", _ frame: Rect, _ children: [ElementSnapshot] = [])
        -> ElementSnapshot
    {
        ElementSnapshot(
            type: type, identifier: id, label: label, frame: frame, isEnabled: true, isHittable: type != .table, children: children)
    }

    /// A table of two rows labelled alike and one by identifier, each with its text inside.
    static let index = ElementIndex(roots: [
        element(
            .window, Rect(x: 0, y: 0, width: 390, height: 844),
            [
                element(
                    .table, Rect(x: 0, y: 100, width: 390, height: 600),
                    [
                        element(
                            .cell, label: "Canada", Rect(x: 0, y: 100, width: 390, height: 44),
                            [element(.staticText, label: "Canada", Rect(x: 16, y: 110, width: 100, height: 24))]),
                        element(.cell, label: "Canada", Rect(x: 0, y: 144, width: 390, height: 44)),
                        element(.cell, id: "chad", label: "Chad", Rect(x: 0, y: 188, width: 390, height: 44)),
                    ])
            ])
    ])

    @Test func anIdentifierComesFirstAndIsUnique() throws {
        let entry = try #require(Self.index.element(at: Point(x: 200, y: 200)))
        let best = SelectorRanker(priority: SelectorKind.defaultPriority).best(for: entry.path, in: Self.index)
        #expect(best?.yaml == "{id: \"chad\"}")
        #expect(best?.isUnique == true)
    }

    @Test func aFingerOnARowsTextMeansTheRow() throws {
        let entry = try #require(Self.index.element(at: Point(x: 20, y: 115)))
        #expect(entry.element.type == .cell && entry.path == [0, 0, 0])
    }

    @Test func aTextFoundTwiceIsNarrowedByTypeThenIndexed() throws {
        let text = try #require(Self.index.entries.first { $0.element.type == .staticText })
        let ranker = SelectorRanker(priority: SelectorKind.defaultPriority)
        #expect(ranker.best(for: text.path, in: Self.index)?.yaml == "{text: \"Canada\", type: staticText}")
        let secondRow = try #require(Self.index.element(at: Point(x: 200, y: 150)))
        let all = ranker.candidates(for: secondRow.path, in: Self.index)
        #expect(all.first?.yaml == "\"Canada\"" && all.first?.isUnique == false && all.first?.matches == 3)
        #expect(ranker.best(for: secondRow.path, in: Self.index)?.yaml == "{text: \"Canada\", type: cell, index: 1}")
        // Every candidate written with an index finds exactly its element.
        let indexed = all.filter { $0.yaml.contains("index") }
        #expect(indexed.allSatisfy { $0.isUnique })
    }

    @Test func thePriorityIsTheUsers() throws {
        let entry = try #require(Self.index.element(at: Point(x: 200, y: 200)))
        #expect(SelectorRanker(priority: [.text, .id]).best(for: entry.path, in: Self.index)?.yaml == "\"Chad\"")
        #expect(SelectorRanker(priority: [.point, .id]).best(for: entry.path, in: Self.index)?.yaml == "{id: \"chad\"}")
        #expect(SelectorRanker(priority: [.point]).best(for: entry.path, in: Self.index)?.yaml == "{point: \"195,210\"}")
    }
}
