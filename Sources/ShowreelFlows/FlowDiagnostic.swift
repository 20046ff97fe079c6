import Foundation

/// Where something is in a flow file: `path:line:column`, as compilers print it, so editors
/// and CI logs link straight to it.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it (relative paths stay relative).
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }
}

/// One problem found in a flow file before anything runs.
public struct FlowDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public init(_ location: SourceLocation, _ message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(message)" }
}

/// Every problem found in the flows of a run: nothing runs while there is one.
public struct FlowValidationError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [FlowDiagnostic]

    public init(_ diagnostics: [FlowDiagnostic]) { self.diagnostics = diagnostics }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// The nearest valid spelling of a word, for "did you mean" hints.
enum Spelling {
    /// The candidate closest to `word` by edit distance (case ignored), if it is close enough
    /// to be a plausible typo: at most a third of the word's length, and at least 2 edits.
    static func nearest(to word: String, in candidates: some Sequence<String>) -> String? {
        let target = Array(word.lowercased())
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(target, Array(candidate.lowercased()))
            if distance < (best?.1 ?? .max) { best = (candidate, distance) }
        }
        guard let (candidate, distance) = best, distance <= max(2, target.count / 3) else { return nil }
        return candidate
    }

    /// "; did you mean 'x'?" or nothing.
    static func hint(for word: String, in candidates: some Sequence<String>) -> String {
        nearest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Levenshtein distance: insertions, deletions and substitutions each cost one.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
