import Foundation
import ShowreelAccessibility
import ShowreelSession
import ShowreelWire

/// A find request's `using` and `value`, parsed once: what elements it selects in a tree.
///
/// `accessibility id`, `id` and `name` match an element's identifier or label (as the Swift
/// API's subscripts do, and XCUITest's driver matches `name`); `class name` its
/// `XCUIElementType`; `xpath`, `-ios predicate string` and `-ios class chain` their subsets; and
/// `css selector` the forms Selenium rewrites `id`, `name` and `class name` into.
enum Locator: Sendable {
    case name(String)
    case type(String)
    case xpath(XPathExpression)
    case predicate(IOSPredicate)
    case classChain(IOSClassChain)

    static let supported = [
        "accessibility id", "id", "name", "class name", "xpath", "-ios predicate string", "-ios class chain", "css selector",
    ]

    init(using strategy: String, value: String) throws(WebDriverError) {
        try LocatorLimits.checkLength(value, kind: "\(strategy) locator")
        switch strategy {
        case "accessibility id", "id", "name":
            self = .name(value)
        case "class name":
            self = .type(try Self.typeName(value, strategy: strategy))
        case "xpath":
            self = .xpath(try XPathExpression(value))
        case "-ios predicate string":
            self = .predicate(try IOSPredicate(value))
        case "-ios class chain":
            self = .classChain(try IOSClassChain(value))
        case "css selector":
            self = try Self.css(value)
        default:
            throw WebDriverError.invalidSelector(
                "The locator strategy '\(strategy)' is not supported on this device. Use one of: \(Self.supported.joined(separator: ", "))."
            )
        }
    }

    private static func typeName(_ value: String, strategy: String) throws(WebDriverError) -> String {
        guard let type = PageTree.elementType(named: value) else {
            let known = ElementTypeNames.all.joined(separator: ", ")
            throw WebDriverError.invalidSelector("'\(value)' is no element type for '\(strategy)'. Element types: \(known).")
        }
        return PageTree.typeName(type)
    }

    /// `#x`, `[id="x"]`, `[name="x"]` and `.x`: what Selenium sends for id, name and class name.
    private static func css(_ value: String) throws(WebDriverError) -> Locator {
        let text = value.trimmingCharacters(in: .whitespaces)
        func unescape(_ s: Substring) -> String {
            var out = "", escaped = false
            for c in s {
                if escaped { out.append(c); escaped = false } else if c == "\\" { escaped = true } else { out.append(c) }
            }
            return out
        }
        if text.hasPrefix("#"), text.count > 1 { return .name(unescape(text.dropFirst())) }
        if text.hasPrefix("."), text.count > 1 { return .type(try typeName(unescape(text.dropFirst()), strategy: "css selector")) }
        if text.hasPrefix("["), text.hasSuffix("]"), let equals = text.firstIndex(of: "=") {
            let attribute = text[text.index(after: text.startIndex)..<equals].trimmingCharacters(in: .whitespaces)
            var quoted = text[text.index(after: equals)..<text.index(before: text.endIndex)].trimmingCharacters(in: .whitespaces)
            if quoted.count >= 2, let first = quoted.first, first == "\"" || first == "'", quoted.last == first {
                quoted = String(quoted.dropFirst().dropLast())
            }
            if attribute == "id" || attribute == "name" { return .name(unescape(Substring(quoted))) }
        }
        throw WebDriverError.invalidSelector(
            "The css selector '\(value)' is not supported: this device takes only #id, [id=\"x\"], [name=\"x\"] and .XCUIElementTypeButton (what Selenium sends for id, name and class name). Use accessibility id, xpath or -ios predicate string for anything else."
        )
    }

    /// The matching elements below `start` (the application or an element), in document order;
    /// `invalid selector` when that takes more work than one find may (`LocatorLimits.maxSteps`).
    func select(in tree: PageTree, from start: Int) throws(WebDriverError) -> [Int] {
        let budget = LocatorBudget { [self] in description }
        switch self {
        case let .name(name):
            return tree.descendants(of: start).filter {
                let element = tree.nodes[$0].snapshot
                return element.identifier == name || element.label == name
            }
        case let .type(type):
            return tree.descendants(of: start).filter { tree.typeName(of: $0) == type }
        case let .predicate(predicate):
            var found: [Int] = []
            for node in tree.descendants(of: start) { if try predicate.matches(node, in: tree, budget: budget) { found.append(node) } }
            return found
        case let .classChain(chain):
            return try chain.select(in: tree, from: start, budget: budget)
        case let .xpath(expression):
            // From an element, a relative xpath starts there and an absolute one at the document, as in a browser.
            return try expression.select(in: tree, from: start, budget: budget)
        }
    }

    /// `select` on a thread of its own: a find's evaluation (up to `LocatorLimits.maxSteps`)
    /// leaves the concurrency pool's few threads to the other sessions and to the server.
    func selectOffPool(in tree: PageTree, from start: Int) async throws(WebDriverError) -> [Int] {
        do { return try await Blocking.run { try select(in: tree, from: start) } } catch let error as WebDriverError { throw error } catch {
            throw WebDriverError(.unknownError, ErrorSentence.describe(error))
        }
    }

    /// How an error names the locator: "The xpath '//x'".
    var description: String {
        switch self {
        case let .name(name): "The name \(LocatorLimits.quoted(name))"
        case let .type(type): "The class name '\(type)'"
        case let .xpath(expression): "The xpath \(LocatorLimits.quoted(expression.source))"
        case let .predicate(predicate): "The predicate \(LocatorLimits.quoted(predicate.source))"
        case let .classChain(chain): "The class chain \(LocatorLimits.quoted(chain.source))"
        }
    }

    /// How the message of a failed find names what was looked for.
    static func describe(using: String, value: String) -> String { "\(using) '\(value)'" }
}

/// Every `XCUIElementType` name an element here can have.
enum ElementTypeNames {
    static var all: [String] {
        ["XCUIElementTypeApplication"] + ElementType.allCases.filter { $0 != .any }.map(PageTree.typeName)
    }
}
