import Foundation

/// The `-ios class chain` subset: segments of `XCUIElementTypeX` or `*` joined by `/` (a child)
/// or `/**/` (any depth, also leading `**/`), each with `[n]` (1-based; negative counts from
/// the end) and `` [`predicate`] `` filters in any order. `[$predicate$]` (descendant filters)
/// is refused by name.
struct IOSClassChain: Sendable {
    struct Segment: Sendable {
        enum Filter: Sendable {
            case index(Int)
            case predicate(IOSPredicate)
        }
        var anyDepth: Bool
        var type: String?
        var filters: [Filter]
    }

    let segments: [Segment]
    let source: String

    init(_ source: String) throws(WebDriverError) {
        try LocatorLimits.checkLength(source, kind: "class chain")
        var segments: [Segment] = []
        var anyDepth = false
        for part in try Self.split(source) {
            if part == "**" { anyDepth = true; continue }
            segments.append(try Self.segment(part, anyDepth: anyDepth, source: source))
            anyDepth = false
        }
        guard !segments.isEmpty else {
            throw WebDriverError.invalidSelector("The class chain '\(source)' names no element type; write e.g. **/XCUIElementTypeButton.")
        }
        self.segments = segments
        self.source = source
    }

    /// The matching elements below `start` (the application, or an element), in document order,
    /// within `budget`'s work.
    func select(in tree: PageTree, from start: Int, budget: LocatorBudget) throws(WebDriverError) -> [Int] {
        var current = [start]
        for segment in segments {
            var next: [Int] = []
            for node in current {
                let along = segment.anyDepth ? tree.descendants(of: node) : tree.nodes[node].children
                try budget.spend(along.count + 1)
                var candidates = along.filter { segment.type == nil || tree.typeName(of: $0) == segment.type }
                for filter in segment.filters {
                    switch filter {
                    case let .predicate(predicate):
                        var kept: [Int] = []
                        for candidate in candidates {
                            if try predicate.matches(candidate, in: tree, budget: budget) { kept.append(candidate) }
                        }
                        candidates = kept
                    case let .index(index):
                        let at = index > 0 ? index - 1 : candidates.count + index
                        candidates = candidates.indices.contains(at) ? [candidates[at]] : []
                    }
                }
                next.append(contentsOf: candidates)
            }
            current = Array(Set(next)).sorted()
        }
        return current
    }

    /// Splits on `/` outside backticks and brackets.
    private static func split(_ source: String) throws(WebDriverError) -> [String] {
        var parts: [String] = [], current = "", inBackticks = false, depth = 0
        for c in source {
            if c == "`" { inBackticks.toggle() }
            if !inBackticks { if c == "[" { depth += 1 } else if c == "]" { depth -= 1 } }
            if c == "/", !inBackticks, depth == 0 { parts.append(current); current = ""; continue }
            current.append(c)
        }
        parts.append(current)
        guard !inBackticks, depth == 0 else { throw WebDriverError.invalidSelector("The class chain '\(source)' has an unclosed ` or [.") }
        return parts.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private static func segment(_ text: String, anyDepth: Bool, source: String) throws(WebDriverError) -> Segment {
        let typeEnd = text.firstIndex(of: "[") ?? text.endIndex
        let name = String(text[..<typeEnd])
        var type: String?
        if name != "*" {
            guard let known = PageTree.elementType(named: name) else {
                throw WebDriverError.invalidSelector(
                    "The class chain '\(source)' names '\(name)', which is no element type here; use XCUIElementType names such as XCUIElementTypeButton, or *."
                )
            }
            type = PageTree.typeName(known)
        }
        var filters: [Segment.Filter] = []
        var rest = Substring(text[typeEnd...])
        while !rest.isEmpty {
            guard rest.hasPrefix("[") else {
                throw WebDriverError.invalidSelector(
                    "The class chain '\(source)' has '\(rest)' after \(name); expected [n] or [`predicate`].")
            }
            if rest.hasPrefix("[`") {
                guard let close = rest.dropFirst(2).firstIndex(of: "`"), rest[rest.index(after: close)...].hasPrefix("]") else {
                    throw WebDriverError.invalidSelector("The class chain '\(source)' has a [` that is not closed by `].")
                }
                filters.append(.predicate(try IOSPredicate(String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close]))))
                rest = rest[rest.index(close, offsetBy: 2)...]
            } else if rest.hasPrefix("[$") {
                throw WebDriverError.invalidSelector(
                    "The class chain '\(source)' uses a [$descendant predicate$], which is not supported; use **/ with a [`predicate`] instead."
                )
            } else {
                guard let close = rest.firstIndex(of: "]"), let index = Int(rest[rest.index(after: rest.startIndex)..<close]), index != 0
                else {
                    throw WebDriverError.invalidSelector(
                        "The class chain '\(source)' has '\(rest)': an index is [1], [2], ... or [-1] for the last.")
                }
                filters.append(.index(index))
                rest = rest[rest.index(after: close)...]
            }
        }
        return Segment(anyDepth: anyDepth, type: type, filters: filters)
    }
}
