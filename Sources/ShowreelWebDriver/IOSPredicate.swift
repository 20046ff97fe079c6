import Foundation

/// The `-ios predicate string` subset (NSPredicate's syntax as XCUITest's driver takes it):
/// comparisons of `name`, `label`, `value`, `identifier`, `type`, `enabled`, `visible`,
/// `accessible`, `selected`, `hittable` and `placeholderValue` with `==`, `!=`, `CONTAINS`,
/// `BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES` and `IN` (with `[c]`, `[d]`, `[cd]`), joined
/// by `AND`, `OR`, `NOT` and parentheses. Anything else is an `invalid selector` naming it.
struct IOSPredicate: Sendable {
    indirect enum Condition: Sendable {
        case and(Condition, Condition)
        case or(Condition, Condition)
        case not(Condition)
        case compare(key: String, op: String, options: String, values: [String])
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
        self.source = source
        var parser = Parser(tokens: try Self.tokenize(source), source: source)
        condition = try parser.or()
        if let extra = parser.peek { throw parser.problem("'\(extra.text)' after a complete predicate") }
    }

    func matches(_ node: Int, in tree: PageTree) -> Bool { Self.holds(condition, node, tree) }

    private static func holds(_ condition: Condition, _ node: Int, _ tree: PageTree) -> Bool {
        switch condition {
        case let .and(a, b): return holds(a, node, tree) && holds(b, node, tree)
        case let .or(a, b): return holds(a, node, tree) || holds(b, node, tree)
        case let .not(a): return !holds(a, node, tree)
        case let .compare(key, op, options, values):
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
            case "LIKE": return wildcard(rights[0], matches: left)
            default: return (try? Regex(rights[0]).wholeMatch(in: left)) != nil
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

    /// LIKE's `*` and `?` wildcards.
    static func wildcard(_ pattern: String, matches text: String) -> Bool {
        let escaped = NSRegularExpression.escapedPattern(for: pattern)
            .replacingOccurrences(of: "\\*", with: ".*").replacingOccurrences(of: "\\?", with: ".")
        return (try? Regex(escaped).wholeMatch(in: text)) != nil
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

    struct Parser {
        var tokens: [Token]
        var position = 0
        let source: String

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
            var left = try and()
            while word("OR", "||") { left = .or(left, try and()) }
            return left
        }

        mutating func and() throws(WebDriverError) -> Condition {
            var left = try not()
            while word("AND", "&&") { left = .and(left, try not()) }
            return left
        }

        mutating func not() throws(WebDriverError) -> Condition {
            if word("NOT", "!") { return .not(try not()) }
            if word("(") {
                let inner = try or()
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
                    return .compare(key: key, op: "==", options: "", values: ["true"])
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
            return .compare(key: key, op: op, options: options, values: values)
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
