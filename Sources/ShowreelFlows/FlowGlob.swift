import Foundation

/// A `flows:` pattern of a workspace's config.yaml, read as Java's `glob:` syntax, which is what
/// Maestro matches it with: `*` and `?` stay within one folder, `**` crosses folders, `[a-z]`
/// and `[!a]` are classes, `{a,b}` alternatives and `\` escapes. Matched against a file's path
/// relative to the workspace folder (`smoke/login.yaml`).
package struct FlowGlob: Sendable {
    package let pattern: String
    private let regex: NSRegularExpression

    /// Throws why when the pattern is not a glob (an unclosed `[` or `{`).
    package init(_ pattern: String) throws(FlowGlobError) {
        self.pattern = pattern
        var expression = "^"
        var characters = pattern[...]
        var inGroup = false
        while let character = characters.popFirst() {
            switch character {
            case "\\":
                guard let next = characters.popFirst() else { throw .trailingEscape }
                expression += NSRegularExpression.escapedPattern(for: String(next))
            case "*":
                if characters.first == "*" {
                    characters.removeFirst()
                    expression += ".*"
                } else {
                    expression += "[^/]*"
                }
            case "?": expression += "[^/]"
            case "[":
                guard let end = characters.firstIndex(of: "]") else { throw .unclosedClass }
                var members = characters[..<end]
                characters = characters[characters.index(after: end)...]
                let negated = members.first == "!"
                if negated { members.removeFirst() }
                guard !members.isEmpty else { throw .emptyClass }
                let escaped = members.map { $0 == "\\" || $0 == "[" || $0 == "^" ? "\\\($0)" : String($0) }.joined()
                expression += "[" + (negated ? "^" : "") + escaped + "]"
            case "{":
                guard !inGroup else { throw .nestedGroup }
                inGroup = true
                expression += "(?:"
            case "," where inGroup: expression += "|"
            case "}" where inGroup:
                inGroup = false
                expression += ")"
            default: expression += NSRegularExpression.escapedPattern(for: String(character))
            }
        }
        guard !inGroup else { throw .unclosedGroup }
        do { regex = try NSRegularExpression(pattern: expression + "$") } catch { throw .unclosedClass }
    }

    /// Whether `path` (relative to the workspace folder, `/` between folders) matches whole.
    package func matches(_ path: String) -> Bool {
        regex.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil
    }

    /// The folders the pattern names before its first wildcard (`smoke/login/*` -> `smoke/login`):
    /// they must exist for the pattern to match anything.
    package var literalFolder: String? {
        let wildcards: Set<Character> = ["*", "?", "[", "{", "\\"]
        let parts = pattern.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        let literal = parts.prefix { !$0.contains(where: wildcards.contains) && !$0.isEmpty }
        return literal.isEmpty ? nil : literal.joined(separator: "/")
    }
}

/// Why a `flows:` pattern is not a glob.
package enum FlowGlobError: Error, CustomStringConvertible {
    case trailingEscape, unclosedClass, emptyClass, nestedGroup, unclosedGroup

    package var description: String {
        switch self {
        case .trailingEscape: "it ends in a lone '\\'"
        case .unclosedClass: "a '[' has no ']'"
        case .emptyClass: "'[]' names no character"
        case .nestedGroup: "a '{' is inside another '{...}'"
        case .unclosedGroup: "a '{' has no '}'"
        }
    }
}
