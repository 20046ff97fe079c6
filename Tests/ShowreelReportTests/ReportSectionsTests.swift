import Foundation
import ShowreelReport
import Testing

/// A report written again and again as entries are added (a WebDriver server's) renders only
/// the sections that are new or changed, and reads the same as one written from scratch.
@Suite("Report sections kept between writes")
struct ReportSectionsTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("srs-\(UUID().uuidString.prefix(8))")

    /// Entry `name`, its video's trace written beside it with one step titled `step`.
    private func entry(_ name: String, step: String) throws -> ManifestEntry {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let trace = RunTrace(
            screen: RunTrace.Size(width: 390, height: 844),
            steps: [RunTrace.Step(title: step, start: 0, end: 1, status: .passed, query: "</script><b>", before: 0, after: 0)],
            pictures: ["\(name).png"])
        try trace.write(to: folder.appendingPathComponent(RunTrace.path(forVideo: "\(name).mov")))
        return ManifestEntry(id: name, name: name, status: .passed, duration: 1, video: "\(name).mov")
    }

    private func page(_ entries: [ManifestEntry], sections: ReportSections?) throws -> String {
        try RunManifest(title: "sessions", entries: entries).writeReport(to: folder, pathPrefix: "", sections: sections)
        return try String(contentsOf: folder.appendingPathComponent(HTMLReport.fileName), encoding: .utf8)
    }

    @Test("each write renders only the new entry's section; the page is the one written from scratch")
    func onlyNewSections() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let sections = ReportSections()
        var entries: [ManifestEntry] = []
        for name in ["a", "b", "c"] {
            entries.append(try entry(name, step: "tap \(name)"))
            let kept = try page(entries, sections: sections)
            #expect(kept == (try page(entries, sections: nil)))
        }
        #expect(sections.rendered == 3)
        #expect(try page(entries, sections: sections).contains("\\u003c/script>\\u003cb>"))
    }

    @Test("a section is rendered again when its entry, its place or its trace file changed")
    func changesRenderAgain() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let sections = ReportSections()
        let a = try entry("a", step: "tap a")
        let b = try entry("b", step: "tap b")
        _ = try page([a, b], sections: sections)
        #expect(sections.rendered == 2)

        // The trace rewritten (a session run again under the same name).
        _ = try entry("a", step: "swipe a")
        let rewritten = try page([a, b], sections: sections)
        #expect(rewritten.contains("swipe a") && !rewritten.contains("tap a"))
        #expect(sections.rendered == 3)

        // The entry changed, then the order.
        var failed = b
        failed.status = .failed
        #expect(try page([a, failed], sections: sections).contains("entry failed"))
        #expect(sections.rendered == 4)
        #expect(try page([failed, a], sections: sections) == (try page([failed, a], sections: nil)))
        #expect(sections.rendered == 6)
    }
}
