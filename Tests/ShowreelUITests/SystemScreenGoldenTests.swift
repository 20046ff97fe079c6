import ShowcaseApps
import ShowreelAccessibility
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelUI

/// The system screens the device draws over any app (the permission alert, the text field's
/// edit menu), as golden images: light, dark, and over an app in Arabic (right to left).
extension GoldenTests {
    func placesAlert(arguments: [String] = [], dark: Bool = false, deviceLanguage: String? = nil) throws -> SceneHarness {
        let h = try SceneHarness(profile: Self.profile, app: PlacesApp.definition, arguments: arguments)
        h.scene.permissions.activeApp = PermissionAlertTests.places
        // The alert is the system's: it speaks the device's language.
        if let deviceLanguage { h.scene.systemStrings = SystemStrings(deviceLanguages: [deviceLanguage]) }
        if dark { h.scene.interfaceStyle = .dark }
        h.settle()
        try h.tap("shareLocation")
        h.settle()
        return h
    }

    @Test("the location permission alert over Places: light, dark, and on an Arabic device (the alert in Arabic)")
    func permissionAlert() throws {
        try assertGolden("places-permission-alert", try placesAlert())
        try assertGolden("places-permission-alert-dark", try placesAlert(dark: true))
        try assertGolden(
            "places-permission-alert-ar", try placesAlert(arguments: Self.launchArguments("ar", locale: "ar_EG"), deviceLanguage: "ar"))
    }

    @Test("the text field's edit menu over Sign-up")
    func editMenu() throws {
        let h = try SceneHarness(profile: Self.profile, app: SignUpApp.definition)
        h.settle()
        try h.typeOnKeyboard("kate@example.com")
        h.scene.pasteboard.string = "x"
        let field = try #require(h.element("email", type: .textField))
        h.tap(at: field.frame.center, hold: .milliseconds(600))
        h.settle()
        try assertGolden("signup-edit-menu", h)
    }

    /// Places, allowed the location, shares it and follows a route across the city for 9 s.
    static func followRouteHalfway(_ h: SceneHarness) throws {
        h.scene.permissions.set(.granted, for: .location, of: PlacesApp.bundleIdentifier)
        try h.tap("shareLocation")
        h.scene.location.travel(
            LocationRoute(
                waypoints: [LocationSimulatorTests.cityHall, LocationSimulatorTests.tower, LocationSimulatorTests.harbour], speed: 150),
            from: h.scene.now)
        h.advance(by: .seconds(9))
    }

    @Test("Places following a route, halfway: light, dark, Arabic")
    func placesRoute() throws {
        for (name, arguments, dark) in [
            ("places-route", [String](), false), ("places-route-dark", [], true),
            ("places-route-ar", Self.launchArguments("ar", locale: "ar_EG"), false),
        ] {
            let h = try SceneHarness(profile: Self.profile, app: PlacesApp.definition, arguments: arguments)
            h.scene.permissions.activeApp = PermissionAlertTests.places
            if dark { h.scene.interfaceStyle = .dark }
            h.settle()
            try Self.followRouteHalfway(h)
            try assertGolden(name, h)
        }
    }

    @Test("a notification banner over Hello: light, dark, and over an Arabic app")
    func notificationBanner() throws {
        for (name, arguments, dark) in [
            ("notification-banner", [String](), false), ("notification-banner-dark", [], true),
            ("notification-banner-ar", Self.launchArguments("ar", locale: "ar_EG"), false),
        ] {
            let h = try SceneHarness(profile: Self.profile, app: HelloApp.definition, arguments: arguments)
            if dark { h.scene.interfaceStyle = .dark }
            h.settle()
            h.scene.deliver(NotificationBannerTests.lunch)
            h.settle()
            try assertGolden(name, h)
        }
    }

    @Test("Notification Center over Hello: light, dark, and on an Arabic device")
    func notificationCenter() throws {
        for (name, arguments, dark) in [
            ("notification-center", [String](), false), ("notification-center-dark", [], true),
            ("notification-center-ar", Self.launchArguments("ar", locale: "ar_EG"), false),
        ] {
            let h = try SceneHarness(profile: Self.profile, app: HelloApp.definition, arguments: arguments)
            if dark { h.scene.interfaceStyle = .dark }
            if !arguments.isEmpty { h.scene.systemStrings = SystemStrings(deviceLanguages: ["ar"]) }
            h.settle()
            h.scene.deliver(NotificationBannerTests.lunch)
            var second = NotificationBannerTests.lunch
            (second.title, second.subtitle, second.body) = ("Anna Haro", nil, "Release notes are ready for review.")
            h.scene.deliver(second)
            h.advance(by: .seconds(6))
            h.scene.showNotificationCenter()
            h.settle()
            try assertGolden(name, h)
        }
    }

    @Test("airplane mode in the status bar and Places offline: light and dark")
    func airplaneMode() throws {
        for (name, dark) in [("places-airplane-mode", false), ("places-airplane-mode-dark", true)] {
            let h = try SceneHarness(profile: Self.profile, app: PlacesApp.definition)
            h.scene.setAirplaneMode(true)
            if dark { h.scene.interfaceStyle = .dark }
            h.settle()
            try assertGolden(name, h)
        }
    }
}
