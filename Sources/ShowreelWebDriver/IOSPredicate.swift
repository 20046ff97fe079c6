import Foundation

/// The `-ios predicate string` subset (NSPredicate's syntax as XCUITest's driver takes it):
/// comparisons of `name`, `label`, `value`, `identifier`, `type`, `enabled`, `visible`,
/// `accessible`, `selected`, `hittable` and `placeholderValue` with `==`, `!=`, `CONTAINS`,
/// `BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES` and `IN` (with `[c]`, `[d]`, `[cd]`), joined
/// by `AND`, `OR`, `NOT` and parentheses. Anything else is an `invalid selector` naming it.
struct IOSPredicate: Sendable {
    indirect enum Condition: Sendable {
        /// Flat, so a long chain of ANDs or ORs is no deep tree.
        case and([Condition])
        case or([Condition])
        case not(Condition)
        /// `regex`: MATCHES's pattern, compiled when the predicate is parsed.
        case compare(key: String, op: String, options: String, values: [String], regex: LinearRegex?)
    }

    static let keys: Set<String> = [
        "name", "label", "value", "identifier", "type", "elementType", "enabled", "visible", "accessible",
        "selected", "hittable", "placeholderValue", "wdName", "wdLabel", "wdValue", "wdType",
        "isEnabled", "isVisible", "isAccessible",
    ]
    static let operators: Set<String> = ["==", "=", "!=", "<>", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES", "IN"]

    let condition: Condition
    let source: String

    init(_ source: String) throws(WebDriverError) {
        try LocatorLimits.checkLength(source, kind: "predicate")
        self.source = source
        var parser = Parser(tokens: try Self.tokenize(source), source: source)
        condition = try parser.or()
        if let extra = parser.peek { throw parser.problem("'\(extra.text)' after a complete predicate") }
    }

    /// Whether the node matches, within `budget`'s work.
    func matches(_ node: Int, in tree: PageTree, budget: LocatorBudget) throws(WebDriverError) -> Bool {
        try Self.holds(condition, node, tree, budget)
    }

    private static func holds(_ condition: Condition, _ node: Int, _ tree: PageTree, _ budget: LocatorBudget) throws(WebDriverError) -> Bool
    {
        try budget.spend()
        switch condition {
        case let .and(terms):
            for term in terms { if try !holds(term, node, tree, budget) { return false } }
            return true
        case let .or(terms):
            for term in terms { if try holds(term, node, tree, budget) { return true } }
            return false
        case let .not(a): return try !holds(a, node, tree, budget)
        case let .compare(key, op, options, values, regex):
            let attribute = Self.attribute(key)
            var actual = tree.attribute(attribute, of: node) ?? ""
            if attribute == "type", let type = PageTree.elementType(named: actual) { actual = PageTree.typeName(type) }
            let fold: (String) -> String = { text in
                var text = text
                if options.contains("c") { text = text.lowercased() }
                if options.contains("d") { text = text.folding(options: .diacriticInsensitive, locale: nil) }
                return text
            }
            let left = fold(actual)
            if let regex {
                // Case is the matcher's to ignore ([c]): folding the pattern would turn \D into \d.
                let subject = options.contains("d") ? actual.folding(options: .diacriticInsensitive, locale: nil) : actual
                return try regex.wholeMatch(subject, budget: budget)
            }
            let rights = values.map { value -> String in
                var value = value
                if attribute == "type", let type = PageTree.elementType(named: value) { value = PageTree.typeName(type) }
                return fold(value)
            }
            switch op {
            case "==", "=": return rights.contains(left)
            case "!=", "<>": return !rights.contains(left)
            case "IN": return rights.contains(left)
            case "CONTAINS": return left.contains(rights[0])
            case "BEGINSWITH": return left.hasPrefix(rights[0])
            case "ENDSWITH": return left.hasSuffix(rights[0])
            default: return try wildcard(rights[0], matches: left, budget: budget)
            }
        }
    }

    /// The page-source attribute a predicate key reads (`wdName` and `isEnabled` are older spellings).
    static func attribute(_ key: String) -> String {
        switch key {
        case "wdName": "name"
        case "wdLabel": "label"
        case "wdValue": "value"
        case "wdType", "elementType": "type"
        case "isEnabled": "enabled"
        case "isVisible": "visible"
        case "isAccessible": "accessible"
        default: key
        }
    }

    static let booleanKeys: Set<String> = ["enabled", "visible", "accessible", "selected", "hittable"]

    /// LIKE's `*` (any run of characters) and `?` (one character) over the whole text, without
    /// backtracking: on a mismatch the last `*` takes one more character, so the work is at
    /// most the pattern's length times the text's (a regular expression took seconds on
    /// `************x`).
    static func wildcard(_ pattern: String, matches text: String, budget: LocatorBudget) throws(WebDriverError) -> Bool {
        let p = Array(pattern), t = Array(text)
        var i = 0, j = 0
        var star: Int?, resume = 0
        while i < t.count {
            try budget.spend()
            if j < p.count, p[j] == "?" || (p[j] != "*" && p[j] == t[i]) {
                i += 1
                j += 1
            } else if j < p.count, p[j] == "*" {
                star = j
                resume = i
                j += 1
            } else if let star {
                j = star + 1
                resume += 1
                i = resume
            } else {
                return false
            }
        }
        while j < p.count, p[j] == "*" { j += 1 }
        return j == p.count
    }

    // MARK: Parsing

    struct Token: Sendable { var text: String; var isString: Bool }

    static func tokenize(_ source: String) throws(WebDriverError) -> [Token] {
        var tokens: [Token] = []
        let characters = Array(source)
        var i = 0
        while i < characters.count {
            let c = characters[i]
            if c.isWhitespace { i += 1; continue }
            if c == "'" || c == "\"" {
                var text = "", j = i + 1
                while j < characters.count, characters[j] != c {
                    if characters[j] == "\\", j + 1 < characters.count { j += 1 }
                    text.append(characters[j]); j += 1
                }
                guard j < characters.count else {
                    throw WebDriverError.invalidSelector("The predicate \(source) has a string that is never closed.")
                }
                tokens.append(Token(text: text, isString: true)); i = j + 1
                continue
            }
            let two = i + 1 < characters.count ? String(characters[i...(i + 1)]) : String(c)
            if ["==", "!=", "<>", "&&", "||"].contains(two) { tokens.append(Token(text: two, isString: false)); i += 2; continue }
            if "()=!{},".contains(c) { tokens.append(Token(text: String(c), isString: false)); i += 1; continue }
            if c == "[" {
                guard let close = characters[i...].firstIndex(of: "]") else {
                    throw WebDriverError.invalidSelector("The predicate \(source) has a '[' that is never closed.")
                }
                tokens.append(Token(text: String(characters[i...close]), isString: false)); i = close + 1
                continue
            }
            if c.isLetter || c.isNumber || c == "_" || c == "." || c == "-" || c == "$" || c == "@" {
                var j = i
                while j < characters.count, characters[j].isLetter || characters[j].isNumber || "_.-$@".contains(characters[j]) { j += 1 }
                tokens.append(Token(text: String(characters[i..<j]), isString: false)); i = j
                continue
            }
            throw WebDriverError.invalidSelector("The predicate \(source) has '\(c)', which is not supported.")
        }
        return tokens
    }

    struct Parser: NestingParser {
        static let kind = "predicate"
        var tokens: [Token]
        var position = 0
        let source: String
        /// Levels of NOT and parentheses open now (see `LocatorLimits.maxDepth`).
        var depth = 0

        var peek: Token? { position < tokens.count ? tokens[position] : nil }

        func problem(_ what: String) -> WebDriverError {
            WebDriverError.invalidSelector(
                "The predicate \(source) is not supported here: it has \(what). Supported: name, label, value, "
                    + "identifier, type, enabled, visible, accessible, selected compared with ==, !=, CONTAINS, BEGINSWITH, ENDSWITH, LIKE, "
                    + "MATCHES or IN (with [c], [d], [cd]), joined by AND, OR, NOT and parentheses.")
        }

        mutating func word(_ words: String...) -> Bool {
            guard let token = peek, !token.isString, words.contains(token.text.uppercased()) else { return false }
            position += 1
            return true
        }

        mutating func or() throws(WebDriverError) -> Condition {
            var terms = [try and()]
            while word("OR", "||") { terms.append(try and()) }
            return terms.count == 1 ? terms[0] : .or(terms)
        }

        mutating func and() throws(WebDriverError) -> Condition {
            var terms = [try not()]
            while word("AND", "&&") { terms.append(try not()) }
            return terms.count == 1 ? terms[0] : .and(terms)
        }

        mutating func not() throws(WebDriverError) -> Condition {
            if word("NOT", "!") { return .not(try nested { (parser: inout Parser) throws(WebDriverError) in try parser.not() }) }
            if word("(") {
                let inner = try nested { (parser: inout Parser) throws(WebDriverError) in try parser.or() }
                guard word(")") else { throw problem("a '(' that is never closed") }
                return inner
            }
            return try comparison()
        }

        mutating func comparison() throws(WebDriverError) -> Condition {
            guard let keyToken = peek, !keyToken.isString else {
                throw problem(peek.map { "'\($0.text)' where a key was expected" } ?? "an end where a key was expected")
            }
            let key = keyToken.text
            guard IOSPredicate.keys.contains(key) else { throw problem("the key '\(key)'") }
            position += 1
            guard let opToken = peek, !opToken.isString, IOSPredicate.operators.contains(opToken.text.uppercased()) else {
                // A bare boolean key: `visible` means `visible == 1`.
                if IOSPredicate.booleanKeys.contains(IOSPredicate.attribute(key)) {
                    return .compare(key: key, op: "==", options: "", values: ["true"], regex: nil)
                }
                throw problem(peek.map { "'\($0.text)' where an operator was expected" } ?? "no operator after '\(key)'")
            }
            position += 1
            let op = opToken.text.uppercased()
            var options = ""
            if let token = peek, !token.isString, token.text.hasPrefix("[") {
                options = String(token.text.dropFirst().dropLast()).lowercased()
                guard options.allSatisfy({ $0 == "c" || $0 == "d" }) else { throw problem("the option \(token.text)") }
                position += 1
            }
            var values: [String] = []
            if op == "IN" {
                guard word("{") else { throw problem("IN without a {list}") }
                repeat { values.append(try value(for: key)) } while word(",")
                guard word("}") else { throw problem("a '{' that is never closed") }
            } else {
                values = [try value(for: key)]
            }
            var regex: LinearRegex?
            if op == "MATCHES" {
                let pattern = options.contains("d") ? values[0].folding(options: .diacriticInsensitive, locale: nil) : values[0]
                regex = try LinearRegex(pattern, caseInsensitive: options.contains("c"))
            }
            return .compare(key: key, op: op, options: options, values: values, regex: regex)
        }

        mutating func value(for key: String) throws(WebDriverError) -> String {
            guard let token = peek else { throw problem("no value after the operator") }
            position += 1
            if token.isString { return token.text }
            let isBoolean = IOSPredicate.booleanKeys.contains(IOSPredicate.attribute(key))
            switch token.text.uppercased() {
            case "TRUE", "YES": return "true"
            case "FALSE", "NO": return "false"
            case "1" where isBoolean: return "true"
            case "0" where isBoolean: return "false"
            default:
                if Double(token.text) != nil { return token.text }
                throw problem("'\(token.text)' where a quoted value was expected")
            }
        }
    }
}
