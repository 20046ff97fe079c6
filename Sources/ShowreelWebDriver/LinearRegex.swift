/// A `MATCHES` regular expression, matched in time proportional to the text's length times the
/// pattern's size, whatever the pattern: it is compiled to a small program of instructions run
/// as a Thompson NFA (every thread of the match advanced together, one character at a time),
/// so `((((.*)*)*)*)*x` costs no more than `.*x`. A backtracking engine (Swift's `Regex`, ICU)
/// takes exponential time on such a pattern and held the server's threads for good.
///
/// The syntax is ICU's (what NSPredicate's MATCHES takes) without what needs backtracking:
/// literals and `\`-escapes, `.`, classes (`[a-z]`, `[^0-9]`, `\d \w \s` and their negations),
/// groups (`(...)`, `(?:...)`, `(?<name>...)`), `|`, `* + ? {n} {n,} {n,m}` (lazy `?` too: a
/// whole match does not depend on it), `^`, `$`, `\A`, `\z` and a leading `(?i)`.
/// Backreferences, lookaround, possessive and atomic groups, word boundaries and property
/// classes are refused by name (`invalid selector`). The whole text must match, as MATCHES
/// means.
struct LinearRegex: Sendable {
    enum Instruction: Sendable {
        case character(Character)
        case any
        case set(CharacterClass)
        case split(Int, Int)
        case jump(Int)
        case atStart, atEnd
        case match
    }

    /// A bracketed class or a class escape.
    struct CharacterClass: Sendable {
        enum Item: Sendable {
            case character(Character)
            case range(Unicode.Scalar, Unicode.Scalar)
            case digit(negated: Bool)
            case word(negated: Bool)
            case space(negated: Bool)
        }
        var items: [Item]
        var negated: Bool

        func contains(_ c: Character, caseInsensitive: Bool) -> Bool {
            guard caseInsensitive else { return containsExactly(c) }
            return [String(c), c.lowercased(), c.uppercased()].contains { $0.count == 1 && containsExactly(Character($0)) }
        }

        private func containsExactly(_ c: Character) -> Bool {
            let found = items.contains { item in
                switch item {
                case let .character(x): return x == c
                case let .range(low, high):
                    guard c.unicodeScalars.count == 1, let scalar = c.unicodeScalars.first else { return false }
                    return (low...high).contains(scalar)
                case let .digit(negated):
                    let digit = c.unicodeScalars.count == 1 && c.unicodeScalars.first!.properties.numericType == .decimal
                    return digit != negated
                case let .word(negated): return (c.isLetter || c.isNumber || c == "_") != negated
                case let .space(negated): return c.isWhitespace != negated
                }
            }
            return found != negated
        }
    }

    let program: [Instruction]
    let caseInsensitive: Bool

    /// Compiles `pattern` (`caseInsensitive` as `[c]` asks); `invalid selector` naming what is
    /// wrong or not supported.
    init(_ pattern: String, caseInsensitive: Bool = false) throws(WebDriverError) {
        var parser = Parser(pattern: pattern)
        let tree = try parser.parse()
        self.caseInsensitive = caseInsensitive || parser.caseInsensitive
        var compiler = Compiler(pattern: pattern, caseInsensitive: self.caseInsensitive)
        try compiler.emit(tree)
        try compiler.append(.match)
        program = compiler.program
    }

    /// Whether the whole of `text` matches, spending a step of `budget` per thread per character
    /// and per instruction followed between characters.
    func wholeMatch(_ text: String, budget: LocatorBudget) throws(WebDriverError) -> Bool {
        let characters = Array(caseInsensitive ? text.lowercased() : text)
        var marks = [Int](repeating: -1, count: program.count)
        var current: [Int] = []
        var next: [Int] = []
        var stack: [Int] = []
        var generation = 0
        var work = 0

        /// Adds the threads `pc` leads to at `position` without consuming a character.
        func follow(_ start: Int, at position: Int, into list: inout [Int]) {
            stack.append(start)
            while let pc = stack.popLast() {
                work += 1
                guard marks[pc] != generation else { continue }
                marks[pc] = generation
                switch program[pc] {
                case let .jump(target): stack.append(target)
                case let .split(first, second):
                    stack.append(second)
                    stack.append(first)
                case .atStart: if position == 0 { stack.append(pc + 1) }
                case .atEnd: if position == characters.count { stack.append(pc + 1) }
                default: list.append(pc)
                }
            }
        }

        follow(0, at: 0, into: &current)
        for position in 0..<characters.count {
            guard !current.isEmpty else { return false }
            try budget.spend(work + current.count)
            work = 0
            let c = characters[position]
            generation += 1
            next.removeAll(keepingCapacity: true)
            for pc in current {
                let accepts: Bool
                switch program[pc] {
                case let .character(x): accepts = x == c
                case .any: accepts = !Self.isLineBreak(c)
                case let .set(set): accepts = set.contains(c, caseInsensitive: caseInsensitive)
                default: accepts = false
                }
                if accepts { follow(pc + 1, at: position + 1, into: &next) }
            }
            swap(&current, &next)
        }
        return current.contains { if case .match = program[$0] { true } else { false } }
    }

    static func isLineBreak(_ c: Character) -> Bool { c.isNewline }

    // MARK: Parsing

    indirect enum Node {
        case empty
        case atom(Instruction)
        case sequence([Node])
        case alternation([Node])
        case repetition(Node, min: Int, max: Int?)
    }

    struct Parser {
        let pattern: String
        let characters: [Character]
        var position = 0
        var depth = 0
        var caseInsensitive = false

        init(pattern: String) {
            self.pattern = pattern
            characters = Array(pattern)
        }

        var peek: Character? { position < characters.count ? characters[position] : nil }

        func problem(_ what: String) -> WebDriverError {
            .invalidSelector(
                "The regular expression \(LocatorLimits.quoted(pattern)) of MATCHES \(what). MATCHES takes literals, ., [classes], "
                    + "\\d \\w \\s, groups, |, * + ? {n,m}, ^ and $ (matched without backtracking: no backreferences, lookaround or possessive repeats)."
            )
        }

        func unsupported(_ what: String) -> WebDriverError { problem("uses \(what), which is not supported") }

        mutating func parse() throws(WebDriverError) -> Node {
            if characters.starts(with: Array("(?i)")) {
                caseInsensitive = true
                position = 4
            }
            let node = try alternation()
            if let extra = peek { throw problem("has an unmatched '\(extra)' at character \(position + 1)") }
            return node
        }

        mutating func alternation() throws(WebDriverError) -> Node {
            var branches = [try sequence()]
            while peek == "|" {
                position += 1
                branches.append(try sequence())
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        mutating func sequence() throws(WebDriverError) -> Node {
            var items: [Node] = []
            while let c = peek, c != "|", c != ")" {
                var item = try atom()
                item = try quantified(item)
                items.append(item)
            }
            return items.isEmpty ? .empty : items.count == 1 ? items[0] : .sequence(items)
        }

        mutating func quantified(_ item: Node) throws(WebDriverError) -> Node {
            guard let c = peek else { return item }
            var result: Node
            switch c {
            case "*": position += 1; result = .repetition(item, min: 0, max: nil)
            case "+": position += 1; result = .repetition(item, min: 1, max: nil)
            case "?": position += 1; result = .repetition(item, min: 0, max: 1)
            case "{":
                let (min, max) = try counted()
                result = .repetition(item, min: min, max: max)
            default: return item
            }
            if peek == "?" {
                position += 1  // lazy: the same whole matches
            } else if peek == "+" {
                throw unsupported("a possessive repeat ('\(c)+')")
            }
            return result
        }

        /// `{n}`, `{n,}`, `{n,m}` at `position`, consumed.
        mutating func counted() throws(WebDriverError) -> (Int, Int?) {
            guard let repeat_ = try peekCounted() else { throw problem("has a '{' that starts no {n,m} repeat") }
            position += repeat_.length
            return (repeat_.min, repeat_.max)
        }

        func peekCounted() throws(WebDriverError) -> (min: Int, max: Int?, length: Int)? {
            guard let close = characters[position...].firstIndex(of: "}") else { return nil }
            let inside = String(characters[(position + 1)..<close])
            let parts = inside.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
            let limit = LocatorLimits.maxRegexSize
            guard let first = parts.first, let min = Int(first), min >= 0 else { return nil }
            var max: Int? = min
            if parts.count == 2 { max = parts[1].isEmpty ? nil : Int(parts[1]) }
            if parts.count == 2, !parts[1].isEmpty, max == nil { return nil }
            guard min <= limit, (max ?? min) <= limit else { throw problem("repeats {\(inside)} times, more than \(limit)") }
            if let max, max < min { throw problem("has the repeat {\(inside)}, whose maximum is below its minimum") }
            return (min, max, close - position + 1)
        }

        mutating func atom() throws(WebDriverError) -> Node {
            let c = characters[position]
            position += 1
            switch c {
            case ".": return .atom(.any)
            case "^": return .atom(.atStart)
            case "$": return .atom(.atEnd)
            case "[": return .atom(.set(try characterClass()))
            case "\\": return try escape()
            case "(": return try group()
            case "*", "+", "?": throw problem("has '\(c)' with nothing before it to repeat, at character \(position)")
            case "{":
                position -= 1
                if (try? peekCounted()) != nil { throw problem("has a {n,m} repeat with nothing before it") }
                position += 1
                return .atom(.character(c))
            default: return .atom(.character(c))
            }
        }

        mutating func group() throws(WebDriverError) -> Node {
            guard depth < LocatorLimits.maxDepth else {
                throw problem("nests groups more than \(LocatorLimits.maxDepth) deep, the most a locator may")
            }
            if peek == "?" {
                let rest = String(characters[position..<min(characters.count, position + 3)])
                if rest.hasPrefix("?:") {
                    position += 2
                } else if rest.hasPrefix("?<"), !rest.hasPrefix("?<="), !rest.hasPrefix("?<!") {
                    guard let close = characters[position...].firstIndex(of: ">") else {
                        throw problem("has a group name that is never closed")
                    }
                    position = close + 1
                } else if rest.hasPrefix("?=") || rest.hasPrefix("?!") || rest.hasPrefix("?<") {
                    throw unsupported("lookaround ('(\(rest)')")
                } else if rest.hasPrefix("?>") {
                    throw unsupported("an atomic group ('(?>')")
                } else {
                    throw unsupported("the group '(\(rest)' (flags other than a leading (?i))")
                }
            }
            depth += 1
            let inner = try alternation()
            depth -= 1
            guard peek == ")" else { throw problem("has a '(' that is never closed") }
            position += 1
            return inner
        }

        mutating func escape() throws(WebDriverError) -> Node {
            guard let c = peek else { throw problem("ends with a lone '\\'") }
            position += 1
            switch c {
            case "A": return .atom(.atStart)
            case "z", "Z": return .atom(.atEnd)
            case "d", "D", "w", "W", "s", "S": return .atom(.set(CharacterClass(items: [Self.classEscape(c)!], negated: false)))
            default: return .atom(.character(try escapedCharacter(c)))
            }
        }

        static func classEscape(_ c: Character) -> CharacterClass.Item? {
            switch c {
            case "d": .digit(negated: false)
            case "D": .digit(negated: true)
            case "w": .word(negated: false)
            case "W": .word(negated: true)
            case "s": .space(negated: false)
            case "S": .space(negated: true)
            default: nil
            }
        }

        /// The character `\c` stands for: a control escape, `\uhhhh`, `\x{h…}`, `\xhh`, or a
        /// punctuation character itself.
        mutating func escapedCharacter(_ c: Character) throws(WebDriverError) -> Character {
            switch c {
            case "n": return "\n"
            case "t": return "\t"
            case "r": return "\r"
            case "f": return "\u{0C}"
            case "v": return "\u{0B}"
            case "e": return "\u{1B}"
            case "a": return "\u{07}"
            case "u": return try hexCharacter(digits: 4)
            case "x":
                if peek == "{" {
                    guard let close = characters[position...].firstIndex(of: "}") else { throw problem("has a \\x{ that is never closed") }
                    let hex = String(characters[(position + 1)..<close])
                    position = close + 1
                    guard let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
                        throw problem("has \\x{\(hex)}, which is no character")
                    }
                    return Character(scalar)
                }
                return try hexCharacter(digits: 2)
            case "b", "B": throw unsupported("a word boundary (\\\(c))")
            case "p", "P": throw unsupported("a property class (\\\(c){...})")
            case "Q", "E": throw unsupported("quoting (\\Q...\\E)")
            case _ where c.isNumber: throw unsupported("a backreference (\\\(c))")
            case _ where c.isLetter: throw unsupported("the escape \\\(c)")
            default: return c
            }
        }

        mutating func hexCharacter(digits: Int) throws(WebDriverError) -> Character {
            guard position + digits <= characters.count else { throw problem("has an escape cut short by its end") }
            let hex = String(characters[position..<(position + digits)])
            position += digits
            guard let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
                throw problem("has the escape '\(hex)', which is no character")
            }
            return Character(scalar)
        }

        /// A bracketed class, after its `[`.
        mutating func characterClass() throws(WebDriverError) -> CharacterClass {
            var set = CharacterClass(items: [], negated: false)
            if peek == "^" {
                set.negated = true
                position += 1
            }
            var first = true
            while true {
                guard let c = peek else { throw problem("has a '[' that is never closed") }
                position += 1
                if c == "]", !first { return set }
                first = false
                if c == "[" { throw unsupported("a class inside a class ([[...]])") }
                var low: Character = c
                if c == "\\" {
                    guard let e = peek else { throw problem("has a '[' that is never closed") }
                    position += 1
                    if let item = Self.classEscape(e) {
                        set.items.append(item)
                        continue
                    }
                    low = try escapedCharacter(e)
                }
                if peek == "-", position + 1 < characters.count, characters[position + 1] != "]" {
                    position += 1
                    var high = characters[position]
                    position += 1
                    if high == "\\" {
                        guard let e = peek else { throw problem("has a '[' that is never closed") }
                        position += 1
                        high = try escapedCharacter(e)
                    }
                    guard let a = low.unicodeScalars.first, let b = high.unicodeScalars.first, low.unicodeScalars.count == 1,
                        high.unicodeScalars.count == 1, a <= b
                    else { throw problem("has the range \(low)-\(high), which runs backwards or is not between single characters") }
                    set.items.append(.range(a, b))
                } else {
                    set.items.append(.character(low))
                }
            }
        }
    }

    // MARK: Compiling

    struct Compiler {
        let pattern: String
        let caseInsensitive: Bool
        var program: [Instruction] = []

        mutating func append(_ instruction: Instruction) throws(WebDriverError) {
            guard program.count < LocatorLimits.maxRegexSize else {
                throw .invalidSelector(
                    "The regular expression \(LocatorLimits.quoted(pattern)) of MATCHES is larger than \(LocatorLimits.maxRegexSize) "
                        + "instructions once its repeats are counted out, the most a locator may; use fewer or smaller {n,m} repeats.")
            }
            program.append(instruction)
        }

        /// Emits `node`; recursion is as deep as the pattern's groups (bounded by the parser).
        mutating func emit(_ node: Node) throws(WebDriverError) {
            switch node {
            case .empty: break
            case let .atom(.character(c)) where caseInsensitive && c.lowercased().count == 1:
                try append(.character(Character(c.lowercased())))
            case let .atom(instruction): try append(instruction)
            case let .sequence(items): for item in items { try emit(item) }
            case let .alternation(branches):
                // split L1, next; L1: branch; jump end; next: split ... ; last branch
                var jumps: [Int] = []
                for (index, branch) in branches.enumerated() {
                    if index < branches.count - 1 {
                        let split = program.count
                        try append(.split(split + 1, -1))
                        try emit(branch)
                        jumps.append(program.count)
                        try append(.jump(-1))
                        program[split] = .split(split + 1, program.count)
                    } else {
                        try emit(branch)
                    }
                }
                for jump in jumps { program[jump] = .jump(program.count) }
            case let .repetition(inner, min, max):
                for _ in 0..<min { try emit(inner) }
                if let max {
                    // Each optional copy: split body, end.
                    var splits: [Int] = []
                    for _ in min..<max {
                        splits.append(program.count)
                        try append(.split(program.count + 1, -1))
                        try emit(inner)
                    }
                    for split in splits { program[split] = .split(split + 1, program.count) }
                } else {
                    let loop = program.count
                    try append(.split(loop + 1, -1))
                    try emit(inner)
                    try append(.jump(loop))
                    program[loop] = .split(loop + 1, program.count)
                }
            }
        }
    }
}
