/// The XPath 1.0 subset WebDriver clients send to iOS: location paths (`/`, `//`, `.`, `..`,
/// the child, descendant, parent, ancestor, sibling and self axes), name tests and `*`,
/// predicates with `@attribute`, strings, numbers, `=`, `!=`, `<`, `>`, `and`, `or`, `not()`,
/// `contains()`, `starts-with()`, `position()`, `last()`, `count()`, positions (`[2]`),
/// parentheses and `|`. Anything else is refused by name (an `invalid selector`), never guessed.
struct XPathExpression: Sendable {
    indirect enum Node: Sendable {
        case path(absolute: Bool, steps: [Step])
        /// `(expr)[predicates]/steps`.
        case filter(Node, predicates: [Node], steps: [Step])
        /// `a | b | c`, `a or b or c`, `a and b and c`: flat, so a long chain is no deep tree.
        case union([Node])
        case or([Node])
        case and([Node])
        case compare(String, Node, Node)
        case negate(Node)
        case literal(String)
        case number(Double)
        case attribute(String)
        case function(String, [Node])
    }

    enum Axis: String, Sendable, CaseIterable {
        case child, descendant, parent, ancestor, `self`
        case descendantOrSelf = "descendant-or-self"
        case ancestorOrSelf = "ancestor-or-self"
        case followingSibling = "following-sibling"
        case precedingSibling = "preceding-sibling"

        var isReverse: Bool { [.parent, .ancestor, .ancestorOrSelf, .precedingSibling].contains(self) }
    }

    enum NodeTest: Sendable, Equatable {
        case any, node
        case name(String)
    }

    struct Step: Sendable {
        var axis: Axis
        var test: NodeTest
        var predicates: [Node]
    }

    let root: Node
    let source: String

    static let functions: Set<String> = [
        "contains", "starts-with", "ends-with", "not", "position", "last", "count", "true", "false",
        "string-length", "normalize-space", "string",
    ]

    init(_ source: String) throws(WebDriverError) {
        try LocatorLimits.checkLength(source, kind: "xpath")
        self.source = source
        var parser = Parser(tokens: try Self.tokenize(source), source: source)
        root = try parser.expression()
        if let extra = parser.peek {
            throw parser.unsupported("'\(extra.text)' after a complete expression")
        }
    }

    // MARK: Tokens

    struct Token: Sendable, Equatable {
        enum Kind: Sendable, Equatable { case symbol, name, string, number }
        var kind: Kind
        var text: String
    }

    static func tokenize(_ source: String) throws(WebDriverError) -> [Token] {
        var tokens: [Token] = []
        let characters = Array(source)
        var i = 0
        func isNameStart(_ c: Character) -> Bool { c.isLetter || c == "_" }
        func isNamePart(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" || c == "-" || c == "." }
        while i < characters.count {
            let c = characters[i]
            if c.isWhitespace { i += 1; continue }
            let next: Character? = i + 1 < characters.count ? characters[i + 1] : nil
            if c.isNumber || (c == "." && next?.isNumber == true) {
                var end = i
                while end < characters.count, characters[end].isNumber || characters[end] == "." { end += 1 }
                tokens.append(Token(kind: .number, text: String(characters[i..<end])))
                i = end
                continue
            }
            switch c {
            case "/":
                if next == "/" {
                    tokens.append(Token(kind: .symbol, text: "//")); i += 2
                } else {
                    tokens.append(Token(kind: .symbol, text: "/")); i += 1
                }
            case "[", "]", "(", ")", "@", ",", "|", "=", "*", "+", "-":
                tokens.append(Token(kind: .symbol, text: String(c))); i += 1
            case "!", "<", ">":
                if next == "=" {
                    tokens.append(Token(kind: .symbol, text: "\(c)=")); i += 2
                } else if c == "!" {
                    throw WebDriverError.invalidSelector("The xpath \(source) has a '!' that is not part of '!='.")
                } else {
                    tokens.append(Token(kind: .symbol, text: String(c))); i += 1
                }
            case ":":
                guard next == ":" else {
                    throw WebDriverError.invalidSelector(
                        "The xpath \(source) has a ':' outside an axis ('child::'); namespaces are not supported.")
                }
                tokens.append(Token(kind: .symbol, text: "::")); i += 2
            case ".":
                if next == "." {
                    tokens.append(Token(kind: .symbol, text: "..")); i += 2
                } else {
                    tokens.append(Token(kind: .symbol, text: ".")); i += 1
                }
            case "\"", "'":
                guard let close = characters[(i + 1)...].firstIndex(of: c) else {
                    throw WebDriverError.invalidSelector("The xpath \(source) has a string that is never closed (a \(c) is missing).")
                }
                tokens.append(Token(kind: .string, text: String(characters[(i + 1)..<close]))); i = close + 1
            case _ where isNameStart(c):
                var end = i
                while end < characters.count, isNamePart(characters[end]) { end += 1 }
                tokens.append(Token(kind: .name, text: String(characters[i..<end]))); i = end
            default:
                throw WebDriverError.invalidSelector("The xpath \(source) has '\(c)', which this XPath subset does not support.")
            }
        }
        return tokens
    }

    // MARK: Grammar

    struct Parser: NestingParser {
        static let kind = "xpath"
        var tokens: [Token]
        var position = 0
        let source: String
        /// Levels of nesting open now (see `LocatorLimits.maxDepth`).
        var depth = 0

        var peek: Token? { position < tokens.count ? tokens[position] : nil }
        func peek(_ offset: Int) -> Token? { position + offset < tokens.count ? tokens[position + offset] : nil }

        mutating func take(_ symbol: String) -> Bool {
            guard let token = peek, token.kind == .symbol || token.kind == .name, token.text == symbol else { return false }
            position += 1
            return true
        }

        mutating func expect(_ symbol: String) throws(WebDriverError) {
            guard take(symbol) else {
                throw unsupported(peek.map { "'\($0.text)' where '\(symbol)' was expected" } ?? "an end where '\(symbol)' was expected")
            }
        }

        func unsupported(_ what: String) -> WebDriverError {
            WebDriverError.invalidSelector(
                "The xpath \(source) is not supported here: it has \(what). Supported: paths with /, //, ., .., "
                    + "axes (child, descendant, parent, ancestor, following-sibling, preceding-sibling, self), * or XCUIElementType names, "
                    + "and predicates with @attributes, =, !=, and, or, not(), contains(), starts-with(), position(), last() and [n].")
        }

        mutating func expression() throws(WebDriverError) -> Node {
            try nested { (parser: inout Parser) throws(WebDriverError) in try parser.orExpression() }
        }

        mutating func orExpression() throws(WebDriverError) -> Node {
            var terms = [try andExpression()]
            while take("or") { terms.append(try andExpression()) }
            return terms.count == 1 ? terms[0] : .or(terms)
        }

        mutating func andExpression() throws(WebDriverError) -> Node {
            var terms = [try comparison()]
            while take("and") { terms.append(try comparison()) }
            return terms.count == 1 ? terms[0] : .and(terms)
        }

        mutating func comparison() throws(WebDriverError) -> Node {
            let left = try unary()
            for op in ["=", "!=", "<", "<=", ">", ">="] where peek?.kind == .symbol && peek?.text == op {
                position += 1
                return .compare(op, left, try unary())
            }
            return left
        }

        mutating func unary() throws(WebDriverError) -> Node {
            if take("-") { return .negate(try nested { (parser: inout Parser) throws(WebDriverError) in try parser.unary() }) }
            return try union()
        }

        mutating func union() throws(WebDriverError) -> Node {
            var terms = [try pathOrPrimary()]
            while take("|") { terms.append(try pathOrPrimary()) }
            return terms.count == 1 ? terms[0] : .union(terms)
        }

        mutating func pathOrPrimary() throws(WebDriverError) -> Node {
            guard let token = peek else { throw unsupported("an empty expression") }
            switch token.kind {
            case .string: position += 1; return .literal(token.text)
            case .number:
                position += 1
                guard let number = Double(token.text) else { throw unsupported("the number '\(token.text)'") }
                return .number(number)
            case .name where peek(1)?.text == "(" && peek(1)?.kind == .symbol && !["node", "text"].contains(token.text):
                return try functionCall()
            case .symbol where token.text == "@":
                position += 1
                guard let name = peek, name.kind == .name else { throw unsupported("'@' without an attribute name") }
                position += 1
                return .attribute(name.text)
            case .symbol where token.text == "(":
                position += 1
                let inner = try expression()
                try expect(")")
                var predicates: [Node] = []
                while take("[") { predicates.append(try expression()); try expect("]") }
                var steps: [Step] = []
                if peek?.text == "/" || peek?.text == "//" { steps = try relativeSteps(leadingSeparator: true) }
                return predicates.isEmpty && steps.isEmpty ? inner : .filter(inner, predicates: predicates, steps: steps)
            default:
                return try locationPath()
            }
        }

        mutating func functionCall() throws(WebDriverError) -> Node {
            let name = peek!.text
            position += 2
            guard XPathExpression.functions.contains(name) else { throw unsupported("the function \(name)()") }
            var arguments: [Node] = []
            if !take(")") {
                repeat { arguments.append(try expression()) } while take(",")
                try expect(")")
            }
            return .function(name, arguments)
        }

        mutating func locationPath() throws(WebDriverError) -> Node {
            if peek?.text == "/" || peek?.text == "//" {
                // A lone "/" is the document itself.
                if peek?.text == "/", peek(1) == nil || [")", "]", "|"].contains(peek(1)!.text) {
                    position += 1; return .path(absolute: true, steps: [])
                }
                return .path(absolute: true, steps: try relativeSteps(leadingSeparator: true))
            }
            return .path(absolute: false, steps: try relativeSteps(leadingSeparator: false))
        }

        mutating func relativeSteps(leadingSeparator: Bool) throws(WebDriverError) -> [Step] {
            var steps: [Step] = []
            var expectSeparator = leadingSeparator
            while true {
                if expectSeparator {
                    if take("//") { steps.append(Step(axis: .descendantOrSelf, test: .node, predicates: [])) } else if !take("/") { break }
                }
                steps.append(try step())
                expectSeparator = true
            }
            return steps
        }

        mutating func step() throws(WebDriverError) -> Step {
            if take("..") { return Step(axis: .parent, test: .node, predicates: []) }
            if take(".") { return Step(axis: .self, test: .node, predicates: []) }
            var axis = Axis.child
            if let token = peek, token.kind == .name, peek(1)?.text == "::" {
                guard let named = Axis(rawValue: token.text) else { throw unsupported("the axis \(token.text)::") }
                axis = named
                position += 2
            }
            if peek?.text == "@" { throw unsupported("an attribute step ('@…' selects attributes; WebDriver finds elements)") }
            let test: NodeTest
            if take("*") {
                test = .any
            } else if let token = peek, token.kind == .name {
                position += 1
                if token.text == "node" || token.text == "text" {
                    try expect("(")
                    try expect(")")
                    guard token.text == "node" else {
                        throw unsupported("text() (XCUITest's page source has no text nodes; use @label or @value)")
                    }
                    test = .node
                } else {
                    test = .name(token.text)
                }
            } else {
                throw unsupported(peek.map { "'\($0.text)' where a step was expected" } ?? "a path that ends with a separator")
            }
            var predicates: [Node] = []
            while take("[") {
                predicates.append(try expression())
                try expect("]")
            }
            return Step(axis: axis, test: test, predicates: predicates)
        }
    }
}
