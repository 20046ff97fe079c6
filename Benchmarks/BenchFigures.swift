import Foundation
import Synchronization

/// Every figure a run measured, under a dotted key (`recorder.limit_fraction_780x1688`), for
/// `--json`: each section records its figures as it prints them, so the file holds what ran.
final class BenchFigures: Sendable {
    static let shared = BenchFigures()

    private let values = Mutex<[String: Double]>([:])

    /// Records `value` under `key` (a figure that could not be measured, not finite, is left out).
    func record(_ key: String, _ value: Double) {
        guard value.isFinite else { return }
        values.withLock { $0[key] = value }
    }

    var all: [String: Double] { values.withLock { $0 } }

    /// Writes the figures as one JSON object of flat dotted keys, each a number, sorted.
    func write(to path: String) throws {
        let data = try JSONSerialization.data(withJSONObject: all, options: [.prettyPrinted, .sortedKeys])
        try (data + Data("\n".utf8)).write(to: URL(fileURLWithPath: path))
    }
}

/// One target line: PASS or FAIL, what was asked and what was measured.
func targetLine(_ pass: Bool, _ text: String) -> String { "  \(pass ? "PASS" : "FAIL")  \(text)" }
