import ShowcaseApps
import ShowreelAccessibility
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelUI

/// The sample apps on a phone turned on its side (the notched phone: the safe area keeps the
/// sensor housing's width clear), as golden images: light, dark and Arabic (mirrored).
extension GoldenTests {
    static func landscape(
        _ app: AppDefinition, arguments: [String] = [], dark: Bool = false, profile: DeviceProfile = .phone
    ) throws -> SceneHarness {
        let h = try SceneHarness(profile: profile, app: app, arguments: arguments)
        h.scene.permissions.activeApp = PermissionAlertTests.places
        if dark { h.scene.interfaceStyle = .dark }
        h.scene.setOrientation(.landscapeLeft, animated: false)
        h.settle()
        return h
    }

    @Test("Places on its side following a route, the map beside the status: light, dark, Arabic")
    func landscapePlaces() throws {
        for (name, arguments, dark) in [
            ("places-landscape", [String](), false), ("places-landscape-dark", [], true),
            ("places-landscape-ar", Self.launchArguments("ar", locale: "ar_EG"), false),
        ] {
            let h = try Self.landscape(PlacesApp.definition, arguments: arguments, dark: dark)
            try Self.followRouteHalfway(h)
            try assertGolden(name, h)
        }
    }

    @Test("the permission alert, Countries' list and Sign-up's keyboard on a phone on its side; the list in Arabic and dark")
    func landscapeSystemScreens() throws {
        let alert = try Self.landscape(PlacesApp.definition)
        try alert.tap("shareLocation")
        alert.settle()
        try assertGolden("places-landscape-alert", alert)
        try assertGolden("countries-landscape", try Self.landscape(CountriesApp.definition))
        try assertGolden("countries-landscape-dark", try Self.landscape(CountriesApp.definition, dark: true))
        try assertGolden(
            "countries-landscape-ar", try Self.landscape(CountriesApp.definition, arguments: Self.launchArguments("ar", locale: "ar_EG")))
        let signUp = try Self.landscape(SignUpApp.definition)
        try signUp.typeOnKeyboard("kate@example.com")
        try assertGolden("signup-landscape-keyboard", signUp)
    }

    @Test("a tablet on its side keeps its status bar across the top; Sign-up's keyboard spans the wider screen")
    func landscapeTablet() throws {
        try assertGolden("countries-tablet-landscape", try Self.landscape(CountriesApp.definition, profile: .tablet))
        let signUp = try Self.landscape(SignUpApp.definition, profile: .tablet)
        try signUp.typeOnKeyboard("kate@example.com")
        try assertGolden("signup-tablet-landscape-keyboard", signUp)
    }
}
