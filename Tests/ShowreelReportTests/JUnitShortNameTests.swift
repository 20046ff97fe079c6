import ShowreelReport
import Testing

@Suite("JUnit of entries with short names")
struct JUnitShortNameTests {
    @Test("an entry called by one character (a WebDriver session named `a`) gets its test case")
    func oneCharacterName() {
        let manifest = RunManifest(title: "sessions", entries: [ManifestEntry(id: "a", name: "a", status: .passed, duration: 1)])
        let xml = JUnitReport(manifest: manifest, pathPrefix: "").render()
        #expect(xml.contains("<testcase classname=\"sessions\" name=\"a\""), "\(xml)")
    }
}
