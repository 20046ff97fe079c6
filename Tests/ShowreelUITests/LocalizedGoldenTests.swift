import ShowcaseApps
import ShowreelAccessibility
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelUI

/// The sample apps in German, Japanese and Arabic (mirrored), and in dark appearance, as
/// golden images beside the English ones (same size, same comparison, same recording switch).
extension GoldenTests {
    static func launchArguments(_ language: String, locale: String) -> [String] {
        ["-AppleLanguages", "(\(language))", "-AppleLocale", locale]
    }

    @Test(
        "Hello, Countries and Sign-up in German, Japanese and Arabic",
        arguments: [("de", "de_DE"), ("ja", "ja_JP"), ("ar", "ar_EG")])
    func localized(language: String, locale: String) throws {
        let arguments = Self.launchArguments(language, locale: locale)
        let hello = try SceneHarness(profile: Self.profile, app: HelloApp.definition, arguments: arguments)
        try hello.tap("tapButton")
        try hello.tap("tapButton")
        try assertGolden("hello-\(language)", hello)

        let countries = try SceneHarness(profile: Self.profile, app: CountriesApp.definition, arguments: arguments)
        try assertGolden("countries-list-\(language)", countries)
        try countries.tap("Canada", type: .cell)
        countries.settle()
        try assertGolden("countries-canada-\(language)", countries)

        let signUp = try SceneHarness(profile: Self.profile, app: SignUpApp.definition, arguments: arguments)
        signUp.settle()
        try signUp.typeOnKeyboard("kate@example.com")
        try assertGolden("signup-typed-\(language)", signUp)
    }

    @Test("Hello, Countries and Sign-up in dark appearance")
    func dark() throws {
        let hello = try SceneHarness(profile: Self.profile, app: HelloApp.definition)
        hello.scene.interfaceStyle = .dark
        try hello.tap("tapButton")
        try assertGolden("hello-dark", hello)

        let countries = try SceneHarness(profile: Self.profile, app: CountriesApp.definition)
        countries.scene.interfaceStyle = .dark
        try assertGolden("countries-list-dark", countries)
        try countries.tap("Canada", type: .cell)
        countries.settle()
        try assertGolden("countries-canada-dark", countries)

        let signUp = try SceneHarness(profile: Self.profile, app: SignUpApp.definition)
        signUp.scene.interfaceStyle = .dark
        signUp.settle()
        try signUp.typeOnKeyboard("kate@")
        try assertGolden("signup-typed-dark", signUp)
        try signUp.tap("Return", type: .key)
        signUp.settle()
        try assertGolden("signup-alert-dark", signUp)
        try signUp.tap("OK", type: .button)
        signUp.settle()
        try #require(signUp.scene.firstResponder).resignFirstResponder()
        signUp.settle()
        try signUp.tap("showContactCard")
        signUp.settle()
        try assertGolden("contact-card-dark", signUp)
        try signUp.tap("Done")
        signUp.settle()
        try signUp.tap("share")
        signUp.settle()
        try assertGolden("share-sheet-dark", signUp)
    }
}
