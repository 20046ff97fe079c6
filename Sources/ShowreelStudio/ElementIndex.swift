import ShowreelAccessibility
import ShowreelGraphics

/// One moment's element tree, flattened with each element's path of child positions (the same
/// identity `ElementQuery.evaluate` tells elements apart by), for hit-testing and selectors.
package struct ElementIndex: Sendable {
    package struct Entry: Sendable {
        package var path: [Int]
        package var element: ElementSnapshot
        package var depth: Int { path.count }
    }

    package let roots: [ElementSnapshot]
    package let entries: [Entry]

    package init(roots: [ElementSnapshot]) {
        self.roots = roots
        var entries: [Entry] = []
        func visit(_ elements: [ElementSnapshot], parent: [Int]) {
            for (position, element) in elements.enumerated() {
                entries.append(Entry(path: parent + [position], element: element))
                visit(element.children, parent: parent + [position])
            }
        }
        visit(roots, parent: [])
        self.entries = entries
    }

    package func entry(at path: [Int]) -> Entry? { entries.first { $0.path == path } }

    /// The element a finger at `point` means: the deepest control (row, button, field, key) whose
    /// frame holds the point, else the deepest element, hittable ones first, the last drawn
    /// (topmost) among equals; windows and untitled containers only when nothing else is there.
    package func element(at point: Point) -> Entry? {
        let holding = entries.filter { entry in
            let frame = entry.element.frame
            return frame.width > 0 && frame.height > 0 && point.x >= frame.minX && point.x < frame.maxX && point.y >= frame.minY
                && point.y < frame.maxY
        }
        // A row, a button, a field: what a finger on the text inside it means.
        let controls = holding.filter { Self.controls.contains($0.element.type) }
        let specific = holding.filter { $0.element.type != .window && $0.element.type != .other || !$0.element.identifier.isEmpty }
        let pool = !controls.isEmpty ? controls : specific.isEmpty ? holding : specific
        return pool.enumerated().max { lhs, rhs in
            let left = (lhs.element.element.isHittable ? 1 : 0, lhs.element.depth, lhs.offset)
            let right = (rhs.element.element.isHittable ? 1 : 0, rhs.element.depth, rhs.offset)
            return left < right
        }?.element
    }

    static let controls: Set<ElementType> = [.button, .cell, .textField, .secureTextField, .switch, .key]

    /// The paths `query` selects, in order.
    package func paths(matching query: ElementQuery) -> [[Int]] {
        let found = query.evaluate(in: roots)
        // Equal snapshots at two places are told apart by order: the n-th equal match is the
        // n-th equal entry.
        var used: Set<[Int]> = []
        return found.compactMap { element in
            guard let entry = entries.first(where: { $0.element == element && !used.contains($0.path) }) else { return nil }
            used.insert(entry.path)
            return entry.path
        }
    }
}
