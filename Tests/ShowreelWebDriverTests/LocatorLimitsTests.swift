import Foundation
import ShowreelAccessibility
import ShowreelGraphics
import Testing

@testable import ShowreelWebDriver

/// Hostile locators (issue 33, items 1 and 2): nesting, size and work are bounded, so a locator
/// is answered with `invalid selector` naming the limit, never a crash or a find that never ends;
/// MATCHES and LIKE match without backtracking.
@Suite("WebDriver locator limits")
struct LocatorLimitsTests {
    static let tree = LocatorTests.tree

    /// A screen of `count` cells, each with a label: what the work budget is measured on.
    static func wideTree(_ count: Int, label: String = "label") -> PageTree {
        let cells = (0..<count).map { LocatorTests.element(.cell, "cell\($0)", label, y: Double($0)) }
        return PageTree(
            roots: [LocatorTests.element(.table, "list", children: cells)], screen: Size(width: 390, height: 844), appName: "app")
    }

    /// Runs `work` on a thread of its own and fails when it has not ended after `timeout`: a
    /// matcher that backtracks for good spins on, and the test says so instead of hanging.
    static func ends<T: Sendable>(
        within timeout: Duration = .seconds(60), _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await withCheckedThrowingContinuation { continuation in
                    Thread { continuation.resume(with: Result { try work() }) }.start()
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() ?? nil else {
                throw TestFailure("the match did not end within \(timeout)")
            }
            return first
        }
    }

    struct TestFailure: Error, CustomStringConvertible { var description: String; init(_ d: String) { description = d } }

    /// The locator is refused as `invalid selector` with a message containing `named`.
    func refused(_ using: String, _ value: String, naming named: String, in tree: PageTree = tree) {
        #expect {
            try Locator(using: using, value: value).select(in: tree, from: tree.root)
        } throws: { error in
            guard let error = error as? WebDriverError else { return false }
            return error.code == .invalidSelector && error.message.contains(named)
        }
    }

    static let tooLong = "at most \(LocatorLimits.maxLength) characters"
    static let tooDeep = "at most \(LocatorLimits.maxDepth) levels"

    @Test("the issue's crashing locators are invalid selectors naming the limit: deep nesting, huge unions, 100000 NOTs")
    func crashingLocators() {
        let deep = 2000
        // An XPath with 2000 nested parentheses (about 4 KB) took the server down with SIGSEGV.
        refused("xpath", String(repeating: "(", count: deep) + "//*" + String(repeating: ")", count: deep), naming: Self.tooDeep)
        refused(
            "xpath", "//*[" + String(repeating: "not(", count: 3000) + "true()" + String(repeating: ")", count: 3000) + "]",
            naming: Self.tooLong)
        refused(
            "xpath", "//*[" + String(repeating: "not(", count: 100) + "true()" + String(repeating: ")", count: 100) + "]",
            naming: Self.tooDeep)
        refused("xpath", "//*" + String(repeating: "[.//*", count: 3000) + String(repeating: "]", count: 3000), naming: Self.tooLong)
        refused("xpath", "//*" + String(repeating: "[.//*", count: 100) + String(repeating: "]", count: 100), naming: Self.tooDeep)
        refused("xpath", "//*[" + String(repeating: "-", count: 5000) + "1]", naming: Self.tooDeep)
        refused("xpath", Array(repeating: "//a", count: 20000).joined(separator: "|"), naming: Self.tooLong)
        refused("-ios predicate string", String(repeating: "NOT ", count: 100_000) + "visible", naming: Self.tooLong)
        refused("-ios predicate string", String(repeating: "NOT ", count: 100) + "visible", naming: Self.tooDeep)
        refused(
            "-ios predicate string", String(repeating: "(", count: 100_000) + "visible" + String(repeating: ")", count: 100_000),
            naming: Self.tooLong)
        refused(
            "-ios predicate string", String(repeating: "(", count: 1000) + "visible" + String(repeating: ")", count: 1000),
            naming: Self.tooDeep)
        refused("-ios predicate string", Array(repeating: "name == 'a'", count: 20000).joined(separator: " OR "), naming: Self.tooLong)
        refused(
            "-ios class chain",
            "**/XCUIElementTypeCell[`" + String(repeating: "(", count: 100_000) + "visible" + String(repeating: ")", count: 100_000) + "`]",
            naming: Self.tooLong)
        refused(
            "-ios class chain",
            "**/XCUIElementTypeCell[`" + String(repeating: "(", count: 1000) + "visible" + String(repeating: ")", count: 1000) + "`]",
            naming: Self.tooDeep)
        refused("accessibility id", String(repeating: "x", count: LocatorLimits.maxLength + 1), naming: Self.tooLong)
    }

    @Test("long chains within the limits are evaluated flat: a union of 2000 terms, 800 ORs, 64 levels of nesting")
    func longChains() throws {
        let union = Array(repeating: "//XCUIElementTypeButton", count: 400).joined(separator: "|")
        #expect(try Locator(using: "xpath", value: union).select(in: Self.tree, from: Self.tree.root).count == 1)
        let ors = Array(repeating: "name == 'x'", count: 600).joined(separator: " OR ") + " OR name == 'go'"
        #expect(try Locator(using: "-ios predicate string", value: ors).select(in: Self.tree, from: Self.tree.root).count == 1)
        let nested = String(repeating: "(", count: 60) + "//XCUIElementTypeButton" + String(repeating: ")", count: 60)
        #expect(try Locator(using: "xpath", value: nested).select(in: Self.tree, from: Self.tree.root).count == 1)
        let nots = "//XCUIElementTypeButton[" + String(repeating: "not(", count: 60) + "true()" + String(repeating: ")", count: 60) + "]"
        #expect(try Locator(using: "xpath", value: nots).select(in: Self.tree, from: Self.tree.root).count == 1)
    }

    /// A chain of `depth` elements, each inside the one before.
    static func deepTree(_ depth: Int) -> PageTree {
        var element = LocatorTests.element(.other, "leaf")
        for level in 0..<depth { element = LocatorTests.element(.other, "level\(level)", children: [element]) }
        return PageTree(roots: [element], screen: Size(width: 390, height: 844), appName: "app")
    }

    @Test(
        "an xpath that would take too long on the screen (nested predicates over siblings or descendants) ends with invalid selector naming the limit"
    )
    func workBudget() async throws {
        let wide = Self.wideTree(400)
        let deep = Self.deepTree(200)
        let long = Self.wideTree(200, label: String(repeating: "a", count: 60))
        try await Self.ends {
            self.refused(
                "xpath", "//*[following-sibling::*[following-sibling::*[following-sibling::*]]]", naming: "steps to evaluate", in: wide)
            self.refused("xpath", "//*[.//*[.//*[.//*[.//*]]]]", naming: "steps to evaluate", in: deep)
            self.refused(
                "-ios predicate string", "label MATCHES '" + String(repeating: "a?", count: 2000) + "'", naming: "steps to evaluate",
                in: long)
        }
        #expect(try Locator(using: "xpath", value: "//*[.//*[@name='leaf']]").select(in: deep, from: deep.root).count == 201)
    }

    @Test("a number too large for an Int (or infinite) is written as a Double, not converted (1e30 took the server down)")
    func hugeNumbers() throws {
        for xpath in [
            "//*[contains(@name, 1\(String(repeating: "0", count: 30)))]", "//*[string(\(String(repeating: "9", count: 400))) = 'x']",
            "//*[starts-with(@name, -\(String(repeating: "9", count: 400)))]",
        ] {
            #expect(try Locator(using: "xpath", value: xpath).select(in: Self.tree, from: Self.tree.root).isEmpty, "\(xpath.prefix(40))")
        }
    }

    @Test("MATCHES ((((.*)*)*)*)*x and LIKE ************x end at once (they froze the server)")
    func catastrophicPatterns() async throws {
        let tree = Self.wideTree(200, label: String(repeating: "a", count: 60))
        let found = try await Self.ends {
            (
                try Locator(using: "-ios predicate string", value: "label MATCHES '((((.*)*)*)*)*x'").select(in: tree, from: tree.root)
                    .count,
                try Locator(using: "-ios predicate string", value: "label LIKE '************x'").select(in: tree, from: tree.root).count,
                try Locator(using: "-ios predicate string", value: "label MATCHES '(a|aa)*a(a*)*'").select(in: tree, from: tree.root).count
            )
        }
        #expect(found.0 == 0 && found.1 == 0 && found.2 == 200)
    }

    @Test("an invalid or unsupported regular expression is an invalid selector, not zero matches")
    func invalidRegex() {
        refused("-ios predicate string", "label MATCHES '(abc'", naming: "never closed")
        refused("-ios predicate string", "label MATCHES '[abc'", naming: "never closed")
        refused("-ios predicate string", "label MATCHES '*a'", naming: "nothing before it")
        refused("-ios predicate string", "label MATCHES '(a)\\\\1'", naming: "backreference")
        refused("-ios predicate string", "label MATCHES 'a(?=b)'", naming: "lookaround")
        refused("-ios predicate string", "label MATCHES 'a*+'", naming: "possessive")
        refused("-ios predicate string", "label MATCHES '(a{100}){100}x{100}'", naming: "instructions")
    }

    @Test("the linear matcher agrees with Swift's Regex on whole matches")
    func regexAgrees() throws {
        let patterns = [
            "Ch.le", "C.*a", "[A-Z][a-z]+", "[^a-z]*", "\\d+", "\\d{2,3}", "a{2}", "a{2,}", "(ab|cd)*", "(?:x|y)?z", "\\w+\\s\\w+",
            "^abc$", ".*\\.txt", "[a\\-z]+", "colou?r", "(?i)canada", "a+?b", "\\S*", "[\\d.]+", "(a|b)*c(a|b)*",
            "(?<name>ab)+", "x\\.y", "[a-c-]+", "\\D\\W", "", "a|", "(|a)b",
        ]
        let texts = [
            "", "Chile", "Canada", "abc", "ABC", "123", "12", "1234", "aa", "aaa", "ababcd", "z", "xz", "hello world", "notes.txt",
            "a-z", "color", "colour", "aab", "ab", "3.14", "aabcab", "AB", "x.y", "xzy", "]a", "c-b", "!?", "a", "b", "canada",
        ]
        for pattern in patterns {
            let linear = try LinearRegex(pattern)
            let swift = try Regex(pattern)
            for text in texts {
                let budget = LocatorBudget { "test" }
                let expected = (try? swift.wholeMatch(in: text)) != nil
                #expect(try linear.wholeMatch(text, budget: budget) == expected, "'\(pattern)' on '\(text)'")
            }
        }
    }

    @Test("LIKE: * and ? over the whole text, [c] ignoring case")
    func like() throws {
        let cases: [(String, String, Bool)] = [
            ("C*a", "Canada", true), ("C*a", "Chile", false), ("?hile", "Chile", true), ("*", "", true), ("?", "", false),
            ("a*b*c", "aXbYc", true), ("a*b*c", "aXbY", false), ("*x", String(repeating: "a", count: 500) + "x", true),
            ("**a**", "banana", true), ("b?n*", "banana", true), ("b?n", "banana", false),
        ]
        for (pattern, text, expected) in cases {
            #expect(try IOSPredicate.wildcard(pattern, matches: text, budget: LocatorBudget { "test" }) == expected, "\(pattern) \(text)")
        }
        #expect(
            try Locator(using: "-ios predicate string", value: "label LIKE[c] 'c*A'").select(in: Self.tree, from: Self.tree.root).count == 2
        )
        #expect(
            try Locator(using: "-ios predicate string", value: "label MATCHES[c] 'CH\\\\D*'").select(in: Self.tree, from: Self.tree.root)
                .count == 2,
            "[c] leaves \\D a non-digit")
    }
}
