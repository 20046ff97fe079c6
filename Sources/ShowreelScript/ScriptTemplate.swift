import Foundation

/// Maestro's `${...}` in a value: each expression runs as JavaScript and its text takes its
/// place; `\${` stays literal. As Maestro's pattern does, an expression ends at the last `}`
/// before the next `$` (so `${a} and ${b}` is two, and `${ {a: 1}.a }` is one).
package enum ScriptTemplate {
    /// A piece of a value: text as written, or an expression to run.
    package enum Part: Equatable, Sendable {
        case text(String)
        case expression(String)
    }

    /// Whether `value` has an expression to run.
    package static func hasExpressions(_ value: String) -> Bool {
        parts(of: value).contains { if case .expression = $0 { true } else { false } }
    }

    package static func parts(of value: String) -> [Part] {
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(value)
        while let start = rest.range(of: "${") {
            if rest[..<start.lowerBound].hasSuffix("\\") {
                literal += rest[..<rest.index(before: start.lowerBound)] + "${"
                rest = rest[start.upperBound...]
                continue
            }
            let body = rest[start.upperBound...]
            let run = body.prefix { $0 != "$" }
            guard let close = run.lastIndex(of: "}") else {
                literal += rest[..<start.upperBound]
                rest = body
                continue
            }
            literal += rest[..<start.lowerBound]
            if !literal.isEmpty { parts.append(.text(literal)) }
            literal = ""
            parts.append(.expression(String(body[..<close])))
            rest = body[body.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { parts.append(.text(literal)) }
        return parts
    }
}

extension ScriptEngine {
    /// `value` with each `${...}` replaced by its result's text (a blank expression by nothing).
    package func interpolate(_ value: String, file: String, line: Int) throws(ScriptError) -> String {
        var result = ""
        for part in ScriptTemplate.parts(of: value) {
            switch part {
            case let .text(text): result += text
            case let .expression(script):
                if !script.allSatisfy(\.isWhitespace) { result += try evaluate(script, file: file, line: line) }
            }
        }
        return result
    }
}
