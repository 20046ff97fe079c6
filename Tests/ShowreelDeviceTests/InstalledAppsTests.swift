import Foundation
import ShowcaseApps
import ShowreelDevice
import ShowreelTestSupport
import ShowreelUI
import ShowreelWire
import Testing

/// A device says which apps it installed (the registry, for `device list`), and an app it does
/// not have is refused with the nearest installed one: a package's own apps as the sample apps.
@Suite("Installed apps")
struct InstalledAppsTests {
    static let own = AppDefinition(bundleIdentifier: "com.example.groceries", displayName: "Groceries") { _ in Screen(title: "Groceries") }

    @Test("the registry records the installed apps, sorted")
    func recorded() async throws {
        let home = try Workspace()
        let device = try Device(apps: [Self.own, HelloApp.definition], registry: home.registry)
        #expect(try home.registry.resolve(device.udid).installedApps == ["com.example.groceries", HelloApp.bundleIdentifier])
        await device.shutdown()
    }

    @Test("an unknown app is refused with a 'did you mean' over the installed apps")
    func didYouMean() {
        let error = DeviceError.unknownApp("com.example.grocerie", installed: ["com.example.groceries"])
        #expect(
            error.description
                == "No app with bundle identifier 'com.example.grocerie' is installed; did you mean 'com.example.groceries'? Installed: com.example.groceries."
        )
        #expect(!DeviceError.unknownApp("nope", installed: ["com.example.groceries"]).description.contains("did you mean"))
    }
}
