import Foundation
import ShowreelWire

/// A run as a Markdown table, for a CI job's summary page (`$GITHUB_STEP_SUMMARY`) or a pull
/// request's comment: each flow or test with its status, duration, animated preview and links
/// to its video and the report.
package struct RunSummary: Sendable {
    package var manifest: RunManifest
    /// Put before each file path, so links resolve where the Markdown is shown (an artifact
    /// server's URL, say); empty keeps them relative to the manifest's folder.
    package var linkBase: String

    package static let fileName = "summary.md"
    /// How wide previews show in the table, in pixels (a phone's preview is 390 wide).
    static let previewWidth = 160

    package init(manifest: RunManifest, linkBase: String = "") {
        self.manifest = manifest
        self.linkBase = linkBase.isEmpty || linkBase.hasSuffix("/") ? linkBase : linkBase + "/"
    }

    package func render() -> String {
        let kind = manifest.entries.contains { $0.suite != nil } ? "Test" : "Flow"
        var lines = [
            "## \(Self.cell(manifest.title))",
            "",
            "\(manifest.outcome) · \(Self.duration(manifest.duration)) of video · [report](\(link(HTMLReport.fileName)))",
            "",
            "| | \(kind) | Status | Duration | Preview | Files |",
            "| --- | --- | --- | ---: | --- | --- |",
        ]
        for (index, entry) in manifest.entries.enumerated() {
            let name = entry.suite.map { "\($0)/\(entry.name)" } ?? entry.nameInCell
            let preview =
                entry.preview.map {
                    "<img src=\"\(link($0))\" alt=\"\(Self.attribute(name)) preview\" width=\"\(Self.previewWidth)\">"
                } ?? ""
            var files: [String] = []
            if let video = entry.video { files.append("[video](\(link(video)))") }
            if let screenshot = entry.screenshot { files.append("[screenshot](\(link(screenshot)))") }
            files.append("[report](\(link(HTMLReport.fileName))#entry-\(index))")
            var status = entry.status.rawValue
            if let failure = entry.failures.first {
                status += ": " + (failure.location.map { "`\($0)` " } ?? "") + failure.message
            }
            lines.append(
                "| \(Self.mark(entry.status)) | \(Self.cell(name)) | \(Self.cell(status)) | \(Self.duration(entry.duration)) "
                    + "| \(preview) | \(files.joined(separator: " · ")) |")
        }
        return (lines + [""]).joined(separator: "\n")
    }

    package func write(to url: URL) throws {
        try Data(render().utf8).writeReplacing(url)
    }

    /// A file's link; parentheses encoded too (a test's file is `name().mov`), so no Markdown
    /// reader ends the link early.
    private func link(_ path: String) -> String {
        let href = HTMLReport.href(path).replacingOccurrences(of: "(", with: "%28").replacingOccurrences(of: ")", with: "%29")
        return path.hasPrefix("/") ? href : linkBase + href
    }

    static func mark(_ status: ManifestEntry.Status) -> String {
        switch status {
        case .passed: "✅"
        case .failed: "❌"
        case .interrupted: "⏹️"
        case .skipped: "⏭️"
        }
    }

    /// Text that stays in its table cell: pipes escaped (a table splits on them even inside
    /// HTML), line breaks as spaces, HTML inert, control characters (a NUL) shown as the
    /// report and JUnit show them (`\u{0}`).
    static func cell(_ text: String) -> String {
        let inert = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "|", with: "\\|")
            .replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
        return inert.unicodeScalars.map(Markup.shown).joined()
    }

    /// Text for an HTML attribute inside a table cell.
    static func attribute(_ text: String) -> String { cell(text).replacingOccurrences(of: "\"", with: "&quot;") }

    static func duration(_ seconds: Double) -> String { String(format: "%.1f s", seconds) }
}
