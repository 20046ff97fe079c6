import Foundation

/// Evaluates an `XPathExpression` over a `PageTree` (its XML as page source writes it).
extension XPathExpression {
    /// A value while evaluating: elements (tree indices, in document order), the strings of an
    /// attribute (none or one), a string, a number, a boolean.
    enum Value {
        case nodes([Int])
        case strings([String])
        case string(String)
        case number(Double)
        case bool(Bool)

        var boolean: Bool {
            switch self {
            case let .nodes(nodes): !nodes.isEmpty
            case let .strings(strings): !strings.isEmpty
            case let .string(text): !text.isEmpty
            case let .number(number): number != 0 && !number.isNaN
            case let .bool(value): value
            }
        }

        var text: String {
            switch self {
            case .nodes: ""
            case let .strings(strings): strings.first ?? ""
            case let .string(text): text
            case let .number(number): number.rounded() == number ? String(Int(number)) : String(number)
            case let .bool(value): value ? "true" : "false"
            }
        }

        var number: Double {
            switch self {
            case let .number(number): number
            case let .bool(value): value ? 1 : 0
            default: Double(text.trimmingCharacters(in: .whitespaces)) ?? .nan
            }
        }
    }

    /// The node standing for the document above the application element.
    static let document = -1

    struct Context {
        var node: Int
        var position: Int
        var size: Int
    }

    /// The elements the expression selects, in document order.
    func select(in tree: PageTree, from start: Int) throws(WebDriverError) -> [Int] {
        let value = try evaluate(root, Context(node: start == tree.root ? Self.document : start, position: 1, size: 1), tree)
        guard case let .nodes(nodes) = value else {
            throw WebDriverError.invalidSelector(
                "The xpath \(source) gives a \(Self.kindName(value)), not elements; an xpath for find element must select elements.")
        }
        return nodes.filter { $0 != Self.document }
    }

    private static func kindName(_ value: Value) -> String {
        switch value {
        case .nodes: "element list"
        case .strings: "attribute value"
        case .string: "string"
        case .number: "number"
        case .bool: "boolean"
        }
    }

    private func evaluate(_ node: Node, _ context: Context, _ tree: PageTree) throws(WebDriverError) -> Value {
        switch node {
        case let .literal(text): return .string(text)
        case let .number(number): return .number(number)
        case let .attribute(name):
            guard context.node != Self.document, let value = tree.attribute(name, of: context.node) else { return .strings([]) }
            return .strings([value])
        case let .negate(inner): return .number(-(try evaluate(inner, context, tree).number))
        case let .or(left, right):
            if try evaluate(left, context, tree).boolean { return .bool(true) }
            return .bool(try evaluate(right, context, tree).boolean)
        case let .and(left, right):
            if try !evaluate(left, context, tree).boolean { return .bool(false) }
            return .bool(try evaluate(right, context, tree).boolean)
        case let .compare(op, left, right):
            return .bool(compare(op, try evaluate(left, context, tree), try evaluate(right, context, tree)))
        case let .union(left, right):
            guard case let .nodes(a) = try evaluate(left, context, tree), case let .nodes(b) = try evaluate(right, context, tree) else {
                throw WebDriverError.invalidSelector("The xpath \(source) joins with '|' something that is not elements.")
            }
            return .nodes(Array(Set(a + b)).sorted())
        case let .path(absolute, steps):
            return .nodes(try walk(steps, from: [absolute ? Self.document : context.node], tree))
        case let .filter(inner, predicates, steps):
            guard case var .nodes(nodes) = try evaluate(inner, context, tree) else {
                throw WebDriverError.invalidSelector("The xpath \(source) filters something that is not elements.")
            }
            for predicate in predicates { nodes = try filter(nodes, predicate, tree) }
            return .nodes(try walk(steps, from: nodes, tree))
        case let .function(name, arguments):
            return try call(name, arguments, context, tree)
        }
    }

    private func call(_ name: String, _ arguments: [Node], _ context: Context, _ tree: PageTree) throws(WebDriverError) -> Value {
        var values: [Value] = []
        for argument in arguments { values.append(try evaluate(argument, context, tree)) }
        func needs(_ count: Int) throws(WebDriverError) {
            guard values.count == count else {
                throw WebDriverError.invalidSelector(
                    "The xpath \(source) calls \(name)() with \(values.count) arguments; it takes \(count).")
            }
        }
        switch name {
        case "contains": try needs(2); return .bool(values[0].text.contains(values[1].text) || values[1].text.isEmpty)
        case "starts-with": try needs(2); return .bool(values[0].text.hasPrefix(values[1].text))
        case "ends-with": try needs(2); return .bool(values[0].text.hasSuffix(values[1].text))
        case "not": try needs(1); return .bool(!values[0].boolean)
        case "position": try needs(0); return .number(Double(context.position))
        case "last": try needs(0); return .number(Double(context.size))
        case "true": try needs(0); return .bool(true)
        case "false": try needs(0); return .bool(false)
        case "string": try needs(1); return .string(values[0].text)
        case "string-length": try needs(1); return .number(Double(values[0].text.count))
        case "normalize-space":
            try needs(1)
            return .string(values[0].text.split(whereSeparator: \.isWhitespace).joined(separator: " "))
        case "count":
            try needs(1)
            switch values[0] {
            case let .nodes(nodes): return .number(Double(nodes.count))
            case let .strings(strings): return .number(Double(strings.count))
            default: throw WebDriverError.invalidSelector("The xpath \(source) counts something that is not elements.")
            }
        default:
            throw WebDriverError.invalidSelector("The xpath \(source) calls \(name)(), which is not supported.")
        }
    }

    private func compare(_ op: String, _ left: Value, _ right: Value) -> Bool {
        // An attribute compares by any of its values (none: false), as node-sets do in XPath 1.0.
        if case let .strings(strings) = left { return strings.contains { compare(op, .string($0), right) } }
        if case let .strings(strings) = right { return strings.contains { compare(op, left, .string($0)) } }
        if case .nodes = left { return false }
        if case .nodes = right { return false }
        switch op {
        case "=", "!=":
            let equal: Bool
            if case .bool = left {
                equal = left.boolean == right.boolean
            } else if case .bool = right {
                equal = left.boolean == right.boolean
            } else if case .number = left {
                equal = left.number == right.number
            } else if case .number = right {
                equal = left.number == right.number
            } else {
                equal = left.text == right.text
            }
            return op == "=" ? equal : !equal
        case "<": return left.number < right.number
        case "<=": return left.number <= right.number
        case ">": return left.number > right.number
        default: return left.number >= right.number
        }
    }

    private func walk(_ steps: [Step], from start: [Int], _ tree: PageTree) throws(WebDriverError) -> [Int] {
        var current = start
        for step in steps {
            var next = Set<Int>()
            for node in current {
                var candidates = axis(step.axis, of: node, tree).filter { matches(step.test, $0, tree) }
                for predicate in step.predicates { candidates = try filter(candidates, predicate, tree) }
                next.formUnion(candidates)
            }
            current = next.sorted()
        }
        return current
    }

    /// Keeps the candidates (in axis order) the predicate holds for: a number is a position.
    private func filter(_ candidates: [Int], _ predicate: Node, _ tree: PageTree) throws(WebDriverError) -> [Int] {
        var kept: [Int] = []
        for (offset, candidate) in candidates.enumerated() {
            let context = Context(node: candidate, position: offset + 1, size: candidates.count)
            let value = try evaluate(predicate, context, tree)
            if case let .number(number) = value {
                if Double(offset + 1) == number { kept.append(candidate) }
            } else if value.boolean {
                kept.append(candidate)
            }
        }
        return kept
    }

    private func matches(_ test: NodeTest, _ node: Int, _ tree: PageTree) -> Bool {
        switch test {
        case .node: true
        case .any: node != Self.document
        case let .name(name): node != Self.document && tree.typeName(of: node) == name
        }
    }

    private func children(_ node: Int, _ tree: PageTree) -> [Int] { node == Self.document ? [tree.root] : tree.nodes[node].children }
    private func parent(_ node: Int, _ tree: PageTree) -> Int? {
        node == Self.document ? nil : (tree.nodes[node].parent ?? Self.document)
    }

    /// The nodes along `axis` from `node`, nearest first for the reverse axes.
    private func axis(_ axis: Axis, of node: Int, _ tree: PageTree) -> [Int] {
        switch axis {
        case .child: return children(node, tree)
        case .self: return [node]
        case .descendant: return node == Self.document ? [tree.root] + tree.descendants(of: tree.root) : tree.descendants(of: node)
        case .descendantOrSelf: return [node] + self.axis(.descendant, of: node, tree)
        case .parent: return parent(node, tree).map { [$0] } ?? []
        case .ancestor, .ancestorOrSelf:
            var found = axis == .ancestorOrSelf ? [node] : []
            var current = parent(node, tree)
            while let next = current { found.append(next); current = parent(next, tree) }
            return found
        case .followingSibling, .precedingSibling:
            guard let parent = parent(node, tree) else { return [] }
            let siblings = children(parent, tree)
            guard let at = siblings.firstIndex(of: node) else { return [] }
            return axis == .followingSibling ? Array(siblings[(at + 1)...]) : Array(siblings[..<at].reversed())
        }
    }
}
