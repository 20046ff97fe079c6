import Foundation
import Synchronization

/// Entries' report sections as rendered last time, for a process that writes one run's report
/// over and over as entries are added (the WebDriver server, after every recorded session):
/// an entry rendered before, at the same place and from the same trace file, is not rendered
/// again, nor its trace read and encoded again. Those took most of each report written, and
/// every report holds every entry. What one write did not use is let go.
package final class ReportSections: Sendable {
    /// A trace file as it was when its section was rendered: its size and modification time.
    struct TraceStamp: Equatable {
        let size: Int
        let modified: Date

        /// The stamp of the file at `url`; nil when there is none.
        init?(of url: URL) {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
                let size = attributes[.size] as? Int, let modified = attributes[.modificationDate] as? Date
            else { return nil }
            (self.size, self.modified) = (size, modified)
        }
    }

    private struct Key: Hashable {
        let index: Int
        let id: String
    }

    private struct Kept {
        let entry: ManifestEntry
        let trace: TraceStamp?
        let html: String

        /// Whether this section is still `entry`'s, rendered from the trace stamped `trace`.
        func holds(_ entry: ManifestEntry, trace: TraceStamp?) -> Bool { self.entry == entry && self.trace == trace }
    }

    private struct State {
        var kept: [Key: Kept] = [:]
        var used: Set<Key> = []
        var rendered = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// Sections rendered so far (kept ones are not counted again).
    package var rendered: Int { state.withLock { $0.rendered } }

    /// Whether `entry`'s section at `index`, from the trace file stamped `trace`, is kept.
    func has(_ entry: ManifestEntry, index: Int, trace: TraceStamp?) -> Bool {
        state.withLock { state in
            state.kept[Key(index: index, id: entry.id)]?.holds(entry, trace: trace) ?? false
        }
    }

    /// The section kept for `entry` at `index` from the trace stamped `trace`, or `render()`'s, kept.
    func section(for entry: ManifestEntry, index: Int, trace: TraceStamp?, render: () -> String) -> String {
        let key = Key(index: index, id: entry.id)
        if let html = state.withLock({ state -> String? in
            state.used.insert(key)
            guard let kept = state.kept[key], kept.holds(entry, trace: trace) else { return nil }
            return kept.html
        }) {
            return html
        }
        let html = render()
        state.withLock { state in
            state.kept[key] = Kept(entry: entry, trace: trace, html: html)
            state.rendered += 1
        }
        return html
    }

    /// Lets go of the sections the report just written did not hold.
    func keepOnlyUsed() {
        state.withLock { state in
            state.kept = state.kept.filter { state.used.contains($0.key) }
            state.used = []
        }
    }
}
