import Foundation
import ShowreelReport
import Testing

@Suite("summary.md")
struct RunSummaryTests {
    static let manifest = RunManifest(
        title: "Nightly | flows",
        entries: [
            ManifestEntry(
                id: "a.yaml", name: "Sign <up> | in", status: .failed, duration: 12.34, video: "shard 1/a.mov",
                screenshot: "shard 1/a-failure.png",
                failures: [ManifestEntry.Failure(message: "assertVisible: no \"Done\"\non screen", location: "a.yaml:4:3")],
                preview: "shard 1/a.webp"),
            ManifestEntry(id: "S/t()", name: "t()", suite: "S", status: .passed, duration: 1, video: "S/t().mov", preview: "S/t().webp"),
        ])

    @Test("a row per entry: status, duration, preview and links; text kept inside its cell")
    func rows() {
        let lines = RunSummary(manifest: Self.manifest).render().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "## Nightly \\| flows")
        #expect(lines[2] == "1 passed, 1 failed · 13.3 s of video · [report](report.html)")
        #expect(lines[4] == "| | Test | Status | Duration | Preview | Files |")
        #expect(
            lines[6] == "| ❌ | Sign &lt;up&gt; \\| in | failed: `a.yaml:4:3` assertVisible: no \"Done\" on screen | 12.3 s "
                + "| <img src=\"shard%201/a.webp\" alt=\"Sign &lt;up&gt; \\| in preview\" width=\"160\"> "
                + "| [video](shard%201/a.mov) · [screenshot](shard%201/a-failure.png) · [report](report.html#entry-0) |")
        #expect(
            lines[7] == "| ✅ | S/t() | passed | 1.0 s | <img src=\"S/t%28%29.webp\" alt=\"S/t() preview\" width=\"160\"> "
                + "| [video](S/t%28%29.mov) · [report](report.html#entry-1) |")
        #expect(lines.count == 9)
    }

    @Test("a control character in a name shows as the report and JUnit show it, never raw")
    func controlCharacters() {
        let manifest = RunManifest(
            title: "t", entries: [ManifestEntry(id: "a", name: "a\u{0}b \u{1B}[31m", status: .passed, duration: 1, preview: "a.webp")])
        let text = RunSummary(manifest: manifest).render()
        #expect(text.contains("| a\\u{0}b \\u{1B}[31m |"), "\(text)")
        #expect(text.contains("alt=\"a\\u{0}b \\u{1B}[31m preview\""), "\(text)")
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test("links can point where the folder is served")
    func linkBase() {
        let text = RunSummary(manifest: Self.manifest, linkBase: "https://example.com/run/7").render()
        #expect(text.contains("<img src=\"https://example.com/run/7/shard%201/a.webp\""))
        #expect(text.contains("[report](https://example.com/run/7/report.html#entry-1)"))
    }
}
