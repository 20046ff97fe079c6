/// The nearest valid spelling of a word, for "did you mean" hints: in flow files, automation
/// request bodies, and anywhere else a person types a name.
package enum Spelling {
    /// The candidate closest to `word` by edit distance (case ignored), if it is close enough
    /// to be a plausible typo: at most a third of the word's length, and at least 2 edits.
    package static func nearest(to word: String, in candidates: some Sequence<String>) -> String? {
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
    package static func hint(for word: String, in candidates: some Sequence<String>) -> String {
        nearest(to: word, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Levenshtein distance: insertions, deletions and substitutions each cost one.
    package static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
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
