import ShowreelAccessibility

/// What a WebDriver element id stands for: where the element was in the tree and what it was,
/// so a later command finds it again in a fresh tree, or says it went stale.
struct ElementReference: Sendable, Equatable {
    var path: [Int]
    var type: ElementType
    var identifier: String
    var label: String

    init(_ node: PageTree.Node) {
        path = node.path
        type = node.snapshot.type
        identifier = node.snapshot.identifier
        label = node.snapshot.label
    }

    func isSame(as element: ElementSnapshot) -> Bool {
        element.type == type && element.identifier == identifier && (!identifier.isEmpty || element.label == label)
    }

    /// The element in `tree`: at its old place, or (moved) the one element with its type and
    /// identifier; nil when it is gone.
    func locate(in tree: PageTree) -> Int? {
        if path.isEmpty { return tree.root }
        if let index = tree.node(at: path), isSame(as: tree.nodes[index].snapshot) { return index }
        guard !identifier.isEmpty else { return nil }
        let same = tree.descendants(of: tree.root).filter { isSame(as: tree.nodes[$0].snapshot) }
        return same.count == 1 ? same[0] : nil
    }

    /// An element query for the device's actions that selects this node only: by identifier or
    /// label when that is unique (so traces and messages read `buttons["Sign up"]`), else by
    /// its position under each ancestor.
    static func query(for index: Int, in tree: PageTree) -> ElementQuery {
        let element = tree.nodes[index].snapshot
        if !element.identifier.isEmpty {
            let query = ElementQuery.descendants(type: element.type).refined { $0.identifier = element.identifier }
            if query.evaluate(in: tree.roots).count == 1 { return query }
        }
        if !element.label.isEmpty {
            let query = ElementQuery.descendants(type: element.type).refined { $0.label = element.label }
            if query.evaluate(in: tree.roots).count == 1 { return query }
        }
        return ElementQuery(steps: tree.nodes[index].path.map { ElementQuery.Step(axis: .children, index: $0) })
    }
}
