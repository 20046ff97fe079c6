import Foundation
import ShowcaseApps
import ShowreelDevice
import ShowreelRender
import ShowreelTestSupport
import ShowreelTesting
import ShowreelUI
import ShowreelWire
import Testing

/// A device's appearance (at boot, at run time, over HTTP) and its default language.
@Suite("Device appearance and languages")
struct AppearanceAndLanguageTests {
    static func isDark(_ pixels: PixelBuffer) -> Bool {
        let background = pixels.pixel(x: 40, y: pixels.height / 2)
        return background.red < 16 && background.green < 16 && background.blue < 16
    }

    @Test("booted dark, Hello draws on black; switched to light at run time, on white")
    func appearanceAtBootAndRunTime() async throws {
        let home = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: home.registry, interfaceStyle: .dark)
        try await device.launch(HelloApp.bundleIdentifier)
        #expect(Self.isDark(await device.screenshot()))
        await device.setInterfaceStyle(.light)
        #expect(await device.interfaceStyle == .light)
        #expect(!Self.isDark(await device.screenshot()))
        await device.shutdown()
    }

    @Test("POST /v1/appearance switches the device; an unknown appearance is a 400 with a sentence")
    func appearanceOverHTTP() async throws {
        try await AutomationAPITests.Harness.with { h in
            try await h.device.launch(HelloApp.bundleIdentifier)
            _ = try await h.client.perform(.setInterfaceStyle(.dark))
            #expect(await h.device.interfaceStyle == .dark)
            #expect(Self.isDark(await h.device.screenshot()))
            let (status, body) = try await AutomationRequestTests.post(h.client.baseURL!, "/v1/appearance", #"{"appearance":"sepia"}"#)
            #expect(status == 400, "\(body)")
            #expect(await h.device.interfaceStyle == .dark)
        }
    }

    @Test("a device booted in German launches apps in German; -AppleLanguages overrides it")
    func deviceLanguage() async throws {
        let home = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: home.registry, languages: ["de"])
        try await device.launch(HelloApp.bundleIdentifier)
        #expect(try await device.element(.button("tapButton")).label == "Tipp mich an")
        try await device.launch(HelloApp.bundleIdentifier, context: LaunchContext(arguments: ["-AppleLanguages", "(ja, en)"]))
        #expect(try await device.element(.button("tapButton")).label == "タップしてね")
        #expect(device.missingTranslations.entries.isEmpty)
        await device.shutdown()
    }

    @Test("a link Countries cannot open is answered in the device's language (its strings are in the catalog)")
    func linkNotFoundInGerman() async throws {
        let home = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: home.registry, languages: ["de"])
        _ = try await device.open(url: "countries://country/ZZ")
        let labels = await device.tree().flatMap(Self.labels)
        #expect(labels.contains("Link nicht gefunden") && labels.contains("Kein Land hat den Code ZZ."), "\(labels)")
        #expect(device.missingTranslations.entries.isEmpty, "\(device.missingTranslations.entries)")
        await device.shutdown()
    }

    @Test("the system speaks the device's language: the permission alert in German, the edit menu in Japanese")
    func systemStringsInTheDeviceLanguage() async throws {
        let home = try Workspace()
        let german = try Device(apps: ShowcaseCatalog.apps, registry: home.registry, languages: ["de-CH"])
        try await german.launch(PlacesApp.bundleIdentifier)
        try await german.tap(.button("shareLocation"))
        let alert = await german.tree().flatMap(Self.labels)
        #expect(
            alert.contains("„Places“ erlauben, deinen Standort zu verwenden?") && alert.contains("Nicht erlauben")
                && alert.contains("Beim Verwenden der App erlauben"), "\(alert)")
        await german.shutdown()
        #expect(SystemStrings(deviceLanguages: ["ja-JP", "en"]).paste == "ペースト")
        #expect(SystemStrings(deviceLanguages: ["fr", "ar"]).permissionTitle(.camera, appName: "X") == "يرغب \"X\" في الوصول إلى الكاميرا")
        #expect(SystemStrings(deviceLanguages: ["fr"]).allowTitle(.photos) == "Allow", "a language the system does not speak reads English")
    }

    static func labels(_ element: ElementSnapshot) -> [String] { [element.label] + element.children.flatMap(labels) }
}
