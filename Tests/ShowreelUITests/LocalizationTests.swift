import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelUI

/// String catalogs, the launch arguments that choose a language, locale formatting, and the
/// sample apps in German, Japanese and Arabic.
@Suite("Localization")
struct LocalizationTests {
    static let catalogJSON = """
        {"sourceLanguage": "en", "version": "1.0", "strings": {
          "Hello": {"localizations": {"de": {"stringUnit": {"state": "translated", "value": "Hallo"}}}},
          "Only English": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "Only in English"}}}},
          "%lld files": {"localizations": {
            "en": {"variations": {"plural": {"one": {"stringUnit": {"state": "translated", "value": "%lld file"}},
                                             "other": {"stringUnit": {"state": "translated", "value": "%lld files"}}}}},
            "ar": {"variations": {"plural": {"zero": {"stringUnit": {"state": "translated", "value": "لا ملفات"}},
                                             "two": {"stringUnit": {"state": "translated", "value": "ملفان"}},
                                             "few": {"stringUnit": {"state": "translated", "value": "%lld ملفات"}},
                                             "other": {"stringUnit": {"state": "translated", "value": "%lld ملف"}}}}}}}
        }}
        """

    static func strings(_ arguments: [String], log: MissingTranslationLog? = nil) throws -> LocalizedStrings {
        let catalog = try StringCatalog(data: Data(catalogJSON.utf8))
        return LocalizedStrings(
            catalog: catalog, context: LaunchContext(arguments: arguments, translationLog: log),
            bundleIdentifier: "dev.test")
    }

    @Test("a catalog is parsed with its languages and plural forms")
    func catalogParsed() throws {
        let catalog = try StringCatalog(data: Data(Self.catalogJSON.utf8))
        #expect(catalog.sourceLanguage == "en")
        #expect(catalog.languages == ["en", "de", "ar"])
        #expect(catalog.strings["Hello"]?["de"] == .value("Hallo"))
        guard case .plural(let forms)? = catalog.strings["%lld files"]?["ar"] else { Issue.record("no Arabic plural"); return }
        #expect(forms[.two] == "ملفان" && forms[.other] == "%lld ملف")
        #expect(throws: StringCatalogError.self) { try StringCatalog(data: Data("{\"strings\": {}}".utf8)) }
        let noOther =
            #"{"sourceLanguage":"en","strings":{"k":{"localizations":{"en":{"variations":{"plural":{"one":{"stringUnit":{"value":"x"}}}}}}}}}"#
        #expect(throws: StringCatalogError.missingOtherForm(key: "k", language: "en")) { try StringCatalog(data: Data(noOther.utf8)) }
    }

    @Test("plural forms follow each language's CLDR rules")
    func plurals() throws {
        let english = try Self.strings([])
        #expect(english("%lld files", 1) == "1 file" && english("%lld files", 1234) == "1,234 files")
        let arabic = try Self.strings(["-AppleLanguages", "(ar)", "-AppleLocale", "ar"])
        #expect(arabic("%lld files", 0) == "لا ملفات" && arabic("%lld files", 2) == "ملفان")
        #expect(arabic("%lld files", 5) == "5 ملفات" && arabic("%lld files", 100) == "100 ملف")
        #expect(PluralCategory.of(11, language: "ar") == .many && PluralCategory.of(1, language: "ja") == .other)
        #expect(PluralCategory.of(1, language: "de-CH") == .one && PluralCategory.of(0, language: "fr") == .one)
    }

    @Test("-AppleLanguages in both list forms, -AppleLocale, and the device's languages")
    func launchArguments() {
        #expect(LaunchContext(arguments: ["-AppleLanguages", "(de)"]).preferredLanguages == ["de"])
        #expect(LaunchContext(arguments: ["-AppleLanguages", "(de, en)"]).preferredLanguages == ["de", "en"])
        #expect(LaunchContext(arguments: ["-AppleLanguages", "(ja,", "en)", "--other"]).preferredLanguages == ["ja", "en"])
        #expect(LaunchContext(arguments: ["-AppleLanguages", "(\"pt-BR\", en)"]).preferredLanguages == ["pt-BR", "en"])
        #expect(LaunchContext(arguments: [], deviceLanguages: ["ar"]).preferredLanguages == ["ar"])
        #expect(LaunchContext(arguments: ["-AppleLanguages", "(de)"], deviceLanguages: ["ar"]).layoutDirection == .leftToRight)
        #expect(LaunchContext(deviceLanguages: ["ar"]).layoutDirection == .rightToLeft)
        #expect(LaunchContext(arguments: ["-AppleLanguages", "(de)", "-AppleLocale", "de_CH"]).locale.identifier == "de_CH")
        #expect(LaunchContext(arguments: ["-AppleLanguages", "(ja)"]).locale.identifier == "ja")
        #expect(LaunchContext().preferredLanguages.isEmpty)
    }

    @Test("a key missing in the launch's language falls back to the source text and is reported once")
    func missingTranslationReported() throws {
        let log = MissingTranslationLog()
        let german = try Self.strings(["-AppleLanguages", "(de-AT, en)"], log: log)
        #expect(german.language == "de")
        #expect(german("Hello") == "Hallo")
        #expect(german("Only English") == "Only in English")
        #expect(german("Only English") == "Only in English")
        #expect(german("Not in the catalog") == "Not in the catalog")
        #expect(
            log.entries == [
                MissingTranslation(bundleIdentifier: "dev.test", language: "de", key: "Only English"),
                MissingTranslation(bundleIdentifier: "dev.test", language: "de", key: "Not in the catalog"),
            ])
        // The source language has nothing to miss; a language the catalog lacks reads the source.
        let sourceLog = MissingTranslationLog()
        let french = try Self.strings(["-AppleLanguages", "(fr)"], log: sourceLog)
        #expect(french.language == "en" && french("Only English") == "Only in English")
        #expect(sourceLog.entries.isEmpty)
    }

    @Test("Countries in German, Japanese and Arabic: localized names and numbers, the same identifiers")
    func countriesLocalized() throws {
        let expected = [
            ("de", "de_DE", "Kanada", "36.155.487 Einwohner", "Nordamerika, Amerika"),
            ("ja", "ja_JP", "カナダ", "36,155,487人", "北アメリカ、南北アメリカ"),
            ("ar", "ar", "كندا", "36,155,487 نسمة", "أمريكا الشمالية، الأمريكتان"),
        ]
        for (language, locale, name, population, region) in expected {
            let arguments = ["-AppleLanguages", "(\(language))", "-AppleLocale", locale]
            let h = try SceneHarness(profile: .phoneSmall, app: CountriesApp.definition, arguments: arguments)
            #expect(h.element("Canada", type: .cell)?.label == name, "\(language)")
            try h.tap("Canada", type: .cell)
            h.settle()
            #expect(h.element("countryName")?.label == name)
            #expect(h.element("countryPopulation")?.label == population)
            #expect(h.element("countryRegion")?.label == region)
            #expect(h.scene.isRightToLeft == (language == "ar"))
        }
    }

    @Test("right to left: a cell's badge, text and chevron mirror; the back button is on the right")
    func rightToLeftMirrors() throws {
        let arabic = ["-AppleLanguages", "(ar)"]
        let h = try SceneHarness(profile: .phoneSmall, app: CountriesApp.definition, arguments: arabic)
        let cell = try #require(h.element("Canada", type: .cell))
        let english = try SceneHarness(profile: .phoneSmall, app: CountriesApp.definition)
        let englishCell = try #require(english.element("Canada", type: .cell))
        #expect(cell.frame == englishCell.frame)
        try h.tap("Canada", type: .cell)
        h.settle()
        let back = try #require(h.element("BackButton"))
        #expect(back.frame.minX > h.scene.bounds.midX)
        // The back swipe starts at the right edge.
        h.drag(from: Point(x: h.scene.bounds.maxX - 5, y: 400), to: Point(x: 150, y: 400))
        h.settle()
        #expect(h.element("countryName") == nil)
    }

    @Test("dark appearance draws semantic colours' dark variants and switches at run time")
    func appearanceSwitches() throws {
        let h = try SceneHarness(profile: .phoneSmall, app: HelloApp.definition)
        let light = h.render().pixel(x: 20, y: 400)
        #expect(light.red > 240 && light.green > 240 && light.blue > 240)
        h.scene.interfaceStyle = .dark
        #expect(h.scene.needsRender)
        let dark = h.render().pixel(x: 20, y: 400)
        #expect(dark.red < 16 && dark.green < 16 && dark.blue < 16)
        #expect(Color.label.resolved(for: .dark) == .white && Color.label.resolved(for: .light) == .black)
        #expect(Color.systemBlue.withAlpha(0.5).resolved(for: .dark).alpha == 0.5)
    }
}
