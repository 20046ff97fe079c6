/// Which elements a test means, as an XCUITest query chain: `app.tables.cells["Canada"]` is
/// `ElementQuery.descendants(type: .table).descendants(type: .cell, key: "Canada")`.
///
/// A query is data (it crosses the automation API as JSON) and is evaluated against a
/// fresh tree every time, so an element found once is found again after the screen changes.
public struct ElementQuery: Codable, Equatable, Hashable, Sendable, CustomStringConvertible {
    public enum Axis: String, Codable, Sendable { case descendants, children }

    public struct Step: Codable, Equatable, Hashable, Sendable {
        public var axis: Axis
        public var type: ElementType?
        /// The identifier, else the label: what XCUITest's subscript matches.
        public var key: String?
        public var identifier: String?
        public var label: String?
        public var labelContains: String?
        public var placeholder: String?
        public var value: String?
        /// Keep only the match at this position (XCUITest's `element(boundBy:)`).
        public var index: Int?

        public init(
            axis: Axis = .descendants, type: ElementType? = nil, key: String? = nil, identifier: String? = nil,
            label: String? = nil, labelContains: String? = nil, placeholder: String? = nil,
            value: String? = nil, index: Int? = nil
        ) {
            self.axis = axis; self.type = type; self.key = key; self.identifier = identifier; self.label = label
            self.labelContains = labelContains; self.placeholder = placeholder; self.value = value; self.index = index
        }

        func matches(_ element: ElementSnapshot) -> Bool {
            if let type, type != .any, element.type != type { return false }
            if let key, element.identifier != key, element.label != key { return false }
            if let identifier, element.identifier != identifier { return false }
            if let label, element.label != label { return false }
            if let labelContains, !element.label.contains(labelContains) { return false }
            if let placeholder, element.placeholder != placeholder { return false }
            if let value, element.value != value { return false }
            return true
        }

        var description: String {
            var text = type.map { $0 == .any ? "descendants" : "\($0)s" } ?? "elements"
            if axis == .children { text = "children(\(text))" }
            if let key { text += "[\"\(key)\"]" }
            var filters: [String] = []
            if let identifier { filters.append("identifier == \"\(identifier)\"") }
            if let label { filters.append("label == \"\(label)\"") }
            if let labelContains { filters.append("label CONTAINS \"\(labelContains)\"") }
            if let placeholder { filters.append("placeholder == \"\(placeholder)\"") }
            if let value { filters.append("value == \"\(value)\"") }
            if !filters.isEmpty { text += ".matching(\(filters.joined(separator: " AND ")))" }
            if let index { text += ".element(boundBy: \(index))" }
            return text
        }
    }

    public var steps: [Step]

    public init(steps: [Step]) { self.steps = steps }

    /// A further step below this query's matches.
    public func descendants(type: ElementType? = nil, key: String? = nil) -> ElementQuery {
        ElementQuery(steps: steps + [Step(axis: .descendants, type: type, key: key)])
    }

    public func children(type: ElementType? = nil, key: String? = nil) -> ElementQuery {
        ElementQuery(steps: steps + [Step(axis: .children, type: type, key: key)])
    }

    /// Narrows the last step.
    public func refined(_ change: (inout Step) -> Void) -> ElementQuery {
        var copy = self
        if copy.steps.isEmpty { copy.steps.append(Step()) }
        change(&copy.steps[copy.steps.count - 1])
        return copy
    }

    public static func descendants(type: ElementType? = nil, key: String? = nil) -> ElementQuery {
        ElementQuery(steps: [Step(type: type, key: key)])
    }

    public static func button(_ key: String) -> ElementQuery { descendants(type: .button, key: key) }
    public static func staticText(_ key: String) -> ElementQuery { descendants(type: .staticText, key: key) }
    public static func textField(_ key: String) -> ElementQuery { descendants(type: .textField, key: key) }
    public static func cell(_ key: String) -> ElementQuery { descendants(type: .cell, key: key) }
    public static func key(_ key: String) -> ElementQuery { descendants(type: .key, key: key) }
    public static func any(_ key: String) -> ElementQuery { descendants(key: key) }

    /// Every element the chain selects from `roots`, in document order, each once: a cell under
    /// two matches of the step before (a table and the window around it) is still one cell, so
    /// `count` and `index` mean what they say.
    public func evaluate(in roots: [ElementSnapshot]) -> [ElementSnapshot] {
        // Elements are told apart by their path of child positions from the roots; each step
        // walks the tree once, in document order, and keeps the matches below the last step's.
        var scope: Set<[Int]>?  // nil before the first step: the app itself
        var selected = roots
        for step in steps {
            var found: [(path: [Int], element: ElementSnapshot)] = []
            func visit(_ elements: [ElementSnapshot], parent: [Int], parentInScope: Bool, ancestorInScope: Bool) {
                for (position, element) in elements.enumerated() {
                    let path = parent + [position]
                    let candidate =
                        if scope == nil {
                            step.axis == .descendants || parent.isEmpty
                        } else {
                            step.axis == .descendants ? ancestorInScope : parentInScope
                        }
                    if candidate, step.matches(element) { found.append((path, element)) }
                    let inScope = scope?.contains(path) ?? false
                    visit(element.children, parent: path, parentInScope: inScope, ancestorInScope: ancestorInScope || inScope)
                }
            }
            visit(roots, parent: [], parentInScope: false, ancestorInScope: false)
            if let index = step.index { found = found.indices.contains(index) ? [found[index]] : [] }
            scope = Set(found.map(\.path))
            selected = found.map(\.element)
        }
        return selected
    }

    public var description: String {
        steps.isEmpty ? "app" : steps.map(\.description).joined(separator: ".")
    }
}
