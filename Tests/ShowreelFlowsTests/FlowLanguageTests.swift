import Foundation
import ShowcaseApps
import ShowreelDevice
import ShowreelRecorder
import ShowreelRender
import ShowreelReport
import ShowreelUI
import Testing

@testable import ShowreelFlows

/// A flow's device language and appearance, the `setAppearance` step, and missing translations
/// in the manifest entry.
@Suite("Flows: languages and appearance")
struct FlowLanguageTests {
    /// An app whose catalog lacks a German translation for one of its two strings.
    static let partial = AppDefinition(bundleIdentifier: "dev.test.partial", displayName: "Partial") { context in
        let json = """
            {"sourceLanguage": "en", "strings": {
              "Greeting": {"localizations": {"de": {"stringUnit": {"state": "translated", "value": "Grüß Gott"}}}},
              "Only English": {}}}
            """
        let strings = LocalizedStrings(
            catalog: try StringCatalog(data: Data(json.utf8)), context: context,
            bundleIdentifier: "dev.test.partial")
        let screen = Screen(title: strings("Greeting"))
        let label = Label(strings("Only English"))
        label.accessibilityIdentifier = "untranslated"
        label.frame = Rect(x: 20, y: 200, width: 300, height: 40)
        screen.view.addSubview(label)
        return screen
    }

    @Test("a German, dark device: the fallback shows and is listed in the entry; setAppearance runs")
    func missingTranslationInEntry() async throws {
        let folder = try FlowFolder()
        let file = try folder.write(
            "partial.yaml",
            """
            appId: dev.test.partial
            device: {appearance: dark, languages: [de]}
            ---
            - launchApp
            - assertVisible: {id: untranslated, text: "Only English"}
            - screenshot: dark
            - setAppearance: light
            - screenshot: light
            """)
        let apps = ShowcaseCatalog.apps + [Self.partial]
        let flow = try FlowParser(knownApps: apps.map(\.bundleIdentifier)).parse(fileAt: file, id: "partial.yaml")
        #expect(flow.device.appearance == .dark && flow.device.languages == ["de"])
        let runner = FlowRunner(
            options: FlowRunOptions(
                output: folder.url.appendingPathComponent("out"), apps: apps,
                recording: RecordingOptions(scale: 0.25), traces: false, previews: false))
        let entry = await runner.run(flow, videoName: "partial")
        #expect(entry.status == .passed, "\(entry.failures)")
        #expect(entry.steps.map(\.title).contains("setAppearance: light"))
        // The screen's background: black while dark, white once switched.
        for (name, dark) in [("dark", true), ("light", false)] {
            let png = try Data(contentsOf: folder.url.appendingPathComponent("out/partial-\(name).png"))
            let pixel = try PixelBuffer(pngData: [UInt8](png)).pixel(x: 10, y: 400)
            #expect((pixel.red < 16) == dark && (pixel.red > 240) == !dark, "\(name): \(pixel)")
        }
        #expect(
            entry.missingTranslations == [ManifestEntry.MissingTranslation(app: "dev.test.partial", language: "de", key: "Only English")])
    }

    @Test("an unknown appearance is an error with the nearest spelling, in the header and in the step")
    func badAppearance() throws {
        let folder = try FlowFolder()
        let file = try folder.write(
            "bad.yaml",
            """
            appId: dev.showreel.hello
            device: {appearance: drak}
            ---
            - setAppearance: ligth
            """)
        let parser = FlowParser(knownApps: ShowcaseCatalog.apps.map(\.bundleIdentifier))
        #expect(throws: (any Error).self) { try parser.parse(fileAt: file, id: "bad.yaml") }
        do {
            _ = try parser.parse(fileAt: file, id: "bad.yaml")
        } catch {
            let messages = error.diagnostics.map(\.description)
            #expect(messages.contains { $0.contains("bad.yaml:2:22") && $0.contains("did you mean 'dark'?") }, "\(messages)")
            #expect(messages.contains { $0.contains("bad.yaml:4:18") && $0.contains("did you mean 'light'?") }, "\(messages)")
        }
    }
}
