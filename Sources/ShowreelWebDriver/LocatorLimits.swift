/// What one locator may ask of the server: a client's xpath, predicate or class chain is parsed
/// and evaluated inside the server, so its size, its nesting and the work it takes on a screen
/// are bounded. A locator past a limit is an `invalid selector` naming the limit, never a crash
/// (the parsers and evaluators recurse once per level of nesting, so depth is what bounds
/// their stacks) and never a find that runs on for minutes (every evaluation spends from a
/// `LocatorBudget`).
enum LocatorLimits {
    /// Characters in one locator's value. Appium Inspector's longest xpaths are a few hundred.
    static let maxLength = 10_000
    /// Levels of nesting: parentheses, predicates, function calls, `not`/`NOT` and unary minus
    /// in an xpath or a predicate, groups in a regular expression.
    static let maxDepth = 64
    /// Steps of work one find may take on one screen (an element visited, a character matched).
    static let maxSteps = 300_000
    /// Instructions a regular expression (`MATCHES`) may compile to, counted repeats expanded.
    static let maxRegexSize = 10_000

    /// The locator's text for a message: whole when short, else its start.
    static func quoted(_ source: String) -> String {
        source.count <= 200 ? "'\(source)'" : "'\(source.prefix(120))…' (\(source.count) characters)"
    }

    /// Refuses a locator longer than `maxLength`.
    static func checkLength(_ source: String, kind: String) throws(WebDriverError) {
        let length = source.count
        guard length <= maxLength else {
            throw .invalidSelector(
                "The \(kind) \(quoted(source)) is \(length) characters long; a locator may have at most \(maxLength) characters.")
        }
    }

    /// The error for a locator nested deeper than `maxDepth`.
    static func tooDeep(_ source: String, kind: String) -> WebDriverError {
        .invalidSelector(
            "The \(kind) \(quoted(source)) nests more than \(maxDepth) levels deep (parentheses, brackets, function calls or NOTs); "
                + "a locator may nest at most \(maxDepth) levels.")
    }
}

/// A recursive-descent parser of a locator that counts how deep it is nested, so its stack
/// (and the evaluator's, which recurses as deep as the parse did) stays bounded.
protocol NestingParser {
    /// Levels of nesting open now.
    var depth: Int { get set }
    var source: String { get }
    /// How errors name the locator: "xpath", "predicate".
    static var kind: String { get }
}

extension NestingParser {
    /// One level deeper while `body` parses (a parenthesis, a predicate, an argument, a NOT);
    /// `invalid selector` past `LocatorLimits.maxDepth`.
    mutating func nested<T>(_ body: (inout Self) throws(WebDriverError) -> T) throws(WebDriverError) -> T {
        guard depth < LocatorLimits.maxDepth else { throw LocatorLimits.tooDeep(source, kind: Self.kind) }
        depth += 1
        defer { depth -= 1 }
        return try body(&self)
    }
}

/// The work one find may still do: every element an evaluation visits and every character a
/// pattern matches spends from it, so no locator, however written, holds a session (or the
/// server's threads) for long. Used by one evaluation at a time.
final class LocatorBudget {
    private var left: Int
    private let limit: Int
    private let locator: () -> String

    /// `locator` names the locator in the error ("the xpath '//x'").
    init(limit: Int = LocatorLimits.maxSteps, locator: @escaping () -> String) {
        self.left = limit
        self.limit = limit
        self.locator = locator
    }

    /// Takes `steps` from the budget; `invalid selector` once it is spent.
    func spend(_ steps: Int = 1) throws(WebDriverError) {
        left -= steps
        guard left >= 0 else {
            throw .invalidSelector(
                "\(locator()) takes more than \(limit) steps to evaluate on this screen, the most one find may take; "
                    + "simplify it (fewer nested predicates, repeats or wildcards).")
        }
    }
}
