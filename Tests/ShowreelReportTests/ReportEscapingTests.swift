import Foundation
import ShowreelReport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Names and messages with control characters in them (a terminal colour code in a failure,
/// a NUL in a flow name) still give JUnit that an XML parser reads, with their text kept.
@Suite("Report escaping")
struct ReportEscapingTests {
    static let manifest = RunManifest(
        title: "Run \u{7}",
        entries: [
            ManifestEntry(
                id: "flows/a.yaml", name: "Bell \u{7} and NUL \u{0} and ESC \u{1B}[31m", status: .failed, duration: 1,
                failures: [
                    ManifestEntry.Failure(
                        message: "expected \u{1B}[1mred\u{1B}[0m\u{B}\u{C}\nnext line\t<&>\"'",
                        location: "flows/a.yaml:3:3")
                ]),
            ManifestEntry(
                id: "flows/b.yaml", name: "Stopped", status: .interrupted, duration: 1,
                failures: [ManifestEntry.Failure(message: "Interrupted during wait: 5 (Ctrl-C or SIGTERM)")]),
        ])

    /// Parses `xml` with Foundation's XML parser: whether it is well-formed, and the error if not.
    static func parse(_ xml: String) -> (Bool, String) {
        let parser = XMLParser(data: Data(xml.utf8))
        let ok = parser.parse()
        return (ok, parser.parserError.map { "\($0)" } ?? "")
    }

    @Test("JUnit with control characters in names and messages is well-formed XML and keeps them readable")
    func junitParses() {
        let xml = JUnitReport(manifest: Self.manifest).render()
        let (ok, error) = Self.parse(xml)
        #expect(ok, "\(error)\n\(xml)")
        #expect(xml.contains("ESC \\u{1B}[31m"))
        #expect(xml.contains("NUL \\u{0}"))
        #expect(xml.contains("next line"))
    }

    @Test("an interrupted entry is a JUnit error of type interrupted, counted in errors, not a failure")
    func interruptedInJUnit() {
        let xml = JUnitReport(manifest: Self.manifest).render()
        #expect(xml.contains("failures=\"1\" errors=\"1\""))
        #expect(xml.contains("<error message=\"Interrupted during wait: 5 (Ctrl-C or SIGTERM)\" type=\"interrupted\">"))
        #expect(Self.manifest.outcome == "0 passed, 1 failed, 1 interrupted")
        #expect(HTMLReport(manifest: Self.manifest).render().contains("1 interrupted"))
    }
}
