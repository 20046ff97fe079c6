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
            // A whole number as one (within Int's range: a converted 1e300 or infinity traps).
            case let .number(number): number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
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

    /// The elements the expression selects, in document order, within `budget`'s work.
    func select(in tree: PageTree, from start: Int, budget: LocatorBudget) throws(WebDriverError) -> [Int] {
        let evaluation = Evaluation(expression: self, tree: tree, budget: budget)
        let value = try evaluation.evaluate(root, Context(node: start == tree.root ? Self.document : start, position: 1, size: 1))
        guard case let .nodes(nodes) = value else {
            throw WebDriverError.invalidSelector(
                "The xpath \(source) gives a \(Self.kindName(value)), not elements; an xpath for find element must select elements.")
        }
        return nodes.filter { $0 != Self.document }
    }

    static func kindName(_ value: Value) -> String {
        switch value {
        case .nodes: "element list"
        case .strings: "attribute value"
        case .string: "string"
        case .number: "number"
        case .bool: "boolean"
        }
    }

    /// One evaluation: the tree it reads and the budget it spends.
    struct Evaluation {
        let expression: XPathExpression
        let tree: PageTree
        let budget: LocatorBudget
        var source: String { expression.source }
        static var document: Int { XPathExpression.document }

        func evaluate(_ node: Node, _ context: Context) throws(WebDriverError) -> Value {
            try budget.spend()
            switch node {
            case let .literal(text): return .string(text)
            case let .number(number): return .number(number)
            case let .attribute(name):
                guard context.node != Self.document, let value = tree.attribute(name, of: context.node) else { return .strings([]) }
                return .strings([value])
            case let .negate(inner): return .number(-(try evaluate(inner, context).number))
            case let .or(terms):
                for term in terms { if try evaluate(term, context).boolean { return .bool(true) } }
                return .bool(false)
            case let .and(terms):
                for term in terms { if try !evaluate(term, context).boolean { return .bool(false) } }
                return .bool(true)
            case let .compare(op, left, right):
                return .bool(compare(op, try evaluate(left, context), try evaluate(right, context)))
            case let .union(terms):
                var union = Set<Int>()
                for term in terms {
                    guard case let .nodes(nodes) = try evaluate(term, context) else {
                        throw WebDriverError.invalidSelector("The xpath \(source) joins with '|' something that is not elements.")
                    }
                    try budget.spend(nodes.count)
                    union.formUnion(nodes)
                }
                return .nodes(union.sorted())
            case let .path(absolute, steps):
                return .nodes(try walk(steps, from: [absolute ? Self.document : context.node]))
            case let .filter(inner, predicates, steps):
                guard case var .nodes(nodes) = try evaluate(inner, context) else {
                    throw WebDriverError.invalidSelector("The xpath \(source) filters something that is not elements.")
                }
                for predicate in predicates { nodes = try filter(nodes, predicate) }
                return .nodes(try walk(steps, from: nodes))
            case let .function(name, arguments):
                return try call(name, arguments, context)
            }
        }

        func call(_ name: String, _ arguments: [Node], _ context: Context) throws(WebDriverError) -> Value {
            var values: [Value] = []
            for argument in arguments { values.append(try evaluate(argument, context)) }
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

        func compare(_ op: String, _ left: Value, _ right: Value) -> Bool {
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

        func walk(_ steps: [Step], from start: [Int]) throws(WebDriverError) -> [Int] {
            var current = start
            for step in steps {
                var next = Set<Int>()
                for node in current {
                    let along = axis(step.axis, of: node)
                    try budget.spend(along.count + 1)
                    var candidates = along.filter { matches(step.test, $0) }
                    for predicate in step.predicates { candidates = try filter(candidates, predicate) }
                    next.formUnion(candidates)
                }
                current = next.sorted()
            }
            return current
        }

        /// Keeps the candidates (in axis order) the predicate holds for: a number is a position.
        func filter(_ candidates: [Int], _ predicate: Node) throws(WebDriverError) -> [Int] {
            var kept: [Int] = []
            for (offset, candidate) in candidates.enumerated() {
                let context = Context(node: candidate, position: offset + 1, size: candidates.count)
                let value = try evaluate(predicate, context)
                if case let .number(number) = value {
                    if Double(offset + 1) == number { kept.append(candidate) }
                } else if value.boolean {
                    kept.append(candidate)
                }
            }
            return kept
        }

        func matches(_ test: NodeTest, _ node: Int) -> Bool {
            switch test {
            case .node: true
            case .any: node != Self.document
            case let .name(name): node != Self.document && tree.typeName(of: node) == name
            }
        }

        func children(_ node: Int) -> [Int] { node == Self.document ? [tree.root] : tree.nodes[node].children }
        func parent(_ node: Int) -> Int? {
            node == Self.document ? nil : (tree.nodes[node].parent ?? Self.document)
        }

        /// The nodes along `axis` from `node`, nearest first for the reverse axes.
        func axis(_ axis: Axis, of node: Int) -> [Int] {
            switch axis {
            case .child: return children(node)
            case .self: return [node]
            case .descendant: return node == Self.document ? [tree.root] + tree.descendants(of: tree.root) : tree.descendants(of: node)
            case .descendantOrSelf: return [node] + self.axis(.descendant, of: node)
            case .parent: return parent(node).map { [$0] } ?? []
            case .ancestor, .ancestorOrSelf:
                var found = axis == .ancestorOrSelf ? [node] : []
                var current = parent(node)
                while let next = current { found.append(next); current = parent(next) }
                return found
            case .followingSibling, .precedingSibling:
                guard let parent = parent(node) else { return [] }
                let siblings = children(parent)
                guard let at = siblings.firstIndex(of: node) else { return [] }
                return axis == .followingSibling ? Array(siblings[(at + 1)...]) : Array(siblings[..<at].reversed())
            }
        }
    }
}
