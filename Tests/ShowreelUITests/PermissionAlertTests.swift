import ShowcaseApps
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelTestSupport
import ShowreelUI
import Testing

/// The system's permission alert: an app's first request shows it, the answer is kept, and
/// later requests get the answer without asking.
@Suite("Permission alert")
struct PermissionAlertTests {
    static let places = PermissionStore.ActiveApp(bundleIdentifier: PlacesApp.bundleIdentifier, displayName: "Places")

    static func harness(profile: DeviceProfile = .phone, arguments: [String] = []) throws -> SceneHarness {
        let h = try SceneHarness(profile: profile, app: PlacesApp.definition, arguments: arguments)
        h.scene.permissions.activeApp = places
        h.settle()
        return h
    }

    @Test("Places asks once: the alert names the app and the reason; Allow grants, and the next request is answered at once")
    func allow() throws {
        let h = try Self.harness()
        try h.tap("shareLocation")
        h.settle()
        let alert = try #require(h.elements.first { $0.type == .alert })
        #expect(alert.label == "Allow “Places” to use your location?")
        #expect(h.elements.contains { $0.label == "Places shows where you are and the way you go." })
        try h.tap("Allow While Using App", type: .button)
        h.settle()
        #expect(h.element("locationStatus")?.label == "Location shared")
        #expect(h.scene.permissions.status(of: .location, for: PlacesApp.bundleIdentifier) == .granted)
        try h.tap("shareLocation")
        h.settle()
        #expect(!h.elements.contains { $0.type == .alert })
    }

    @Test("Don’t Allow denies; a denial set from outside is answered without an alert; a reset asks again")
    func deny() throws {
        let h = try Self.harness()
        try h.tap("shareLocation")
        h.settle()
        try h.tap(PermissionAlert.denyTitle, type: .button)
        h.settle()
        #expect(h.element("locationStatus")?.label == "Location not allowed: allow it in Settings.")
        #expect(h.scene.permissions.status(of: .location, for: PlacesApp.bundleIdentifier) == .denied)
        h.scene.permissions.reset(nil, of: nil)
        try h.tap("shareLocation")
        h.settle()
        #expect(h.elements.contains { $0.type == .alert })
    }

    @Test("the store: set, statuses, reset of one service or one app or all")
    func store() {
        let store = PermissionStore()
        store.set(.granted, for: .photos, of: "a")
        store.set(.denied, for: .camera, of: "a")
        store.set(.granted, for: .photos, of: "b")
        #expect(store.statuses(for: "a") == [.photos: .granted, .camera: .denied])
        store.reset(.photos, of: "a")
        #expect(store.statuses(for: "a") == [.camera: .denied])
        store.reset(nil, of: nil)
        #expect(store.statuses(for: "a").isEmpty && store.status(of: .photos, for: "b") == .notDetermined)
        #expect(PermissionAlert.title(.photos, appName: "X") == "“X” Would Like to Access Your Photos")
    }
}
