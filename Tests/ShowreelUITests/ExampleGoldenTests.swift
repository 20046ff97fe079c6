import ShowcaseApps
import ShowreelAccessibility
import ShowreelTestSupport
import Testing

@testable import ShowreelUI

/// Maestro's demo app as golden images: its home screen after two taps on the add button, the
/// form as `fill_form.yaml` leaves it, the nesting screen, and the swipe screen all green.
extension GoldenTests {
    @Test("Maestro's demo app: home, form, nesting and swipe screens")
    func exampleApp() throws {
        let home = try SceneHarness(profile: Self.profile, app: ExampleApp.definition)
        try home.tap("fabAddIcon")
        try home.tap("fabAddIcon")
        try assertGolden("example-home", home)

        let form = try SceneHarness(profile: Self.profile, app: ExampleApp.definition)
        try form.tap("Form Test", type: .button)
        form.settle()
        try form.tap("Email", type: .textField)
        form.settle()
        try form.typeOnKeyboard("correct@mobile.dev")
        try form.tap("Password", type: .secureTextField)
        form.settle()
        try form.typeOnKeyboard("maestro")
        try form.tap("Login", type: .button)
        form.settle()
        try assertGolden("example-form", form)

        let nesting = try SceneHarness(profile: Self.profile, app: ExampleApp.definition)
        try nesting.tap("Nesting Test", type: .button)
        nesting.settle()
        try assertGolden("example-nesting", nesting)

        let swipe = try SceneHarness(profile: Self.profile, app: ExampleApp.definition)
        try swipe.tap("Swipe Test", type: .button)
        swipe.settle()
        for target in ["Container 0", "Container 1", "Container 2", "End here!"] { try swipe.tap(target) }
        swipe.settle()
        try assertGolden("example-swipe", swipe)
    }

    @Test("Maestro's demo app's home in German and Arabic (mirrored)", arguments: [("de", "de_DE"), ("ar", "ar_EG")])
    func exampleAppLocalized(language: String, locale: String) throws {
        let home = try SceneHarness(
            profile: Self.profile, app: ExampleApp.definition, arguments: Self.launchArguments(language, locale: locale))
        try home.tap("fabAddIcon")
        try assertGolden("example-home-\(language)", home)
    }
}
