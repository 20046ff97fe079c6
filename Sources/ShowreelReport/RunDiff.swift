import Foundation
import ShowreelWire

/// What `showreel diff` found between two runs of the same flows or tests: per entry, whether
/// its video is identical frame for frame, and if not, where it first differs. Written beside
/// the current run as `diff/diff.json`; the report shows it as a section.
package struct RunDiff: Codable, Sendable, Equatable {
    /// The two run folders, as given.
    package var baseline: String
    package var current: String
    /// The largest channel difference (0-255) that still counts as the same pixel.
    package var threshold: Int
    package var entries: [Entry]

    package static let folderName = "diff"
    package static let fileName = "diff.json"

    package init(baseline: String, current: String, threshold: Int, entries: [Entry]) {
        self.baseline = baseline
        self.current = current
        self.threshold = threshold
        self.entries = entries
    }

    /// One flow or test, matched by id.
    package struct Entry: Codable, Sendable, Equatable {
        package enum Outcome: String, Codable, Sendable {
            case identical
            case changed
            case onlyInBaseline = "only-in-baseline"
            case onlyInCurrent = "only-in-current"
            /// One side has no video to compare (a passing test whose video was not kept).
            case notCompared = "not-compared"
        }

        package var id: String
        package var name: String
        package var outcome: Outcome
        /// Seconds into the video where the frames first differ.
        package var time: Double?
        /// The step running then, on each side: its position among the entry's steps and title.
        package var stepIndex: Int?
        package var step: String?
        package var baselineStep: String?
        /// Where the first differing frames differ, in video pixels.
        package var area: Area?
        package var differingPixels: Int?
        /// Baseline, current and their difference side by side (PNG, relative to the current run).
        package var image: String?
        /// Anything else that differs, in words (durations, sizes, a missing file).
        package var note: String?

        package init(
            id: String, name: String, outcome: Outcome, time: Double? = nil, stepIndex: Int? = nil, step: String? = nil,
            baselineStep: String? = nil, area: Area? = nil, differingPixels: Int? = nil, image: String? = nil,
            note: String? = nil
        ) {
            self.id = id
            self.name = name
            self.outcome = outcome
            self.time = time
            self.stepIndex = stepIndex
            self.step = step
            self.baselineStep = baselineStep
            self.area = area
            self.differingPixels = differingPixels
            self.image = image
            self.note = note
        }
    }

    package struct Area: Codable, Sendable, Equatable {
        package var x: Int, y: Int, width: Int, height: Int
        package init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }
    }

    /// Whether anything changed, appeared or went away (what `showreel diff` exits 1 for).
    package var hasChanges: Bool {
        entries.contains { $0.outcome == .changed || $0.outcome == .onlyInBaseline || $0.outcome == .onlyInCurrent }
    }

    package func count(_ outcome: Entry.Outcome) -> Int { entries.filter { $0.outcome == outcome }.count }

    /// Reads a diff; the error names the file and what was wrong with it.
    package static func load(from url: URL) throws -> RunDiff {
        try RunManifest.load(RunDiff.self, from: url, as: "a run diff")
    }

    /// Writes the diff atomically, in the manifest's JSON style.
    package func write(to url: URL) throws {
        try RunManifest.encoder.encode(self).writeReplacing(url)
    }
}
