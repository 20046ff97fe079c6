import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelUI

@Suite("Sample apps")
struct AppsTests {
    @Test("the catalog registers every sample app by bundle identifier")
    func catalog() {
        #expect(
            ShowcaseCatalog.apps.map(\.bundleIdentifier) == [
                "dev.showreel.hello", "dev.showreel.countries", "dev.showreel.greeting", "dev.showreel.signup", "dev.showreel.mail",
                "dev.showreel.places", "com.example.example",
            ])
    }

    @Test("Hello keeps its identifiers and texts", arguments: [DeviceProfile.phone, .phoneSmall, .tablet])
    func hello(profile: DeviceProfile) throws {
        let h = try SceneHarness(profile: profile, app: HelloApp.definition)
        #expect(h.element("tapCount")?.label == "Not tapped yet")
        #expect(h.element("title")?.label == "Showreel")
        try h.tap("Tap me", type: .button)
        #expect(h.element("tapCount")?.label == "Tapped 1 time")
        try h.tap("tapButton")
        #expect(h.element("tapCount")?.label == "Tapped 2 times")
    }

    @Test("Countries: Canada's details, with either data source", arguments: [[], ["--countries-datasource", "local-mock"]])
    func canada(arguments: [String]) throws {
        let h = try SceneHarness(app: CountriesApp.definition, arguments: arguments)
        #expect(h.elements.contains { $0.type == .navigationBar && $0.identifier == "Countries" })
        try h.tap("Canada", type: .cell)
        h.settle()
        #expect(h.element("countryName")?.label == "Canada")
        #expect(h.element("countryRegion")?.label == "Northern America, Americas")
        #expect(h.element("countryPopulation")?.label == "36155487 people")
        #expect(h.element("countryArea")?.label == "9984670.0 sq km")
        #expect(h.element("countryName")?.type == .staticText)
    }

    @Test("Countries: the launch argument picks the source; an unknown one is a fatal error")
    func dataSources() throws {
        #expect(try CountriesApp.dataSource(for: LaunchContext()) is RemoteCountriesDataSource)
        #expect(
            try CountriesApp.dataSource(for: LaunchContext(arguments: ["--countries-datasource", "local-mock"]))
                is LocalMockCountriesDataSource)
        let mock = try SceneHarness(app: CountriesApp.definition, arguments: ["--countries-datasource", "local-mock"])
        #expect(mock.element("Atlantis", type: .cell) != nil)
        let remote = try SceneHarness(app: CountriesApp.definition)
        #expect(remote.element("Atlantis", type: .cell) == nil)
        #expect(try RemoteCountriesDataSource().countries().count > 30)
        #expect(throws: AppFatalError.self) {
            _ = try CountriesApp.definition.makeRootScreen(LaunchContext(arguments: ["--countries-datasource", "bogus"]))
        }
        do {
            _ = try CountriesApp.definition.makeRootScreen(LaunchContext(arguments: ["--countries-datasource", "bogus"]))
        } catch let error as AppFatalError {
            #expect(error.message == "Unknown countries datasource requested: bogus")
        }
    }

    @Test("Countries: the file-backed source reads the service's document from a file")
    func fileBacked() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("countries-\(UUID().uuidString).json")
        try RemoteCountriesDataSource.bundledDocument.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let countries = try RemoteCountriesDataSource(fileURL: url).countries()
        let canada = try #require(countries.first { $0.name == "Canada" })
        #expect(canada.regionDescription == "Northern America, Americas")
        #expect(canada.areaDescription == "9984670.0 sq km")
    }

    @Test("Greeting: the button shows the string service's greeting")
    func greeting() throws {
        let h = try SceneHarness(app: GreetingApp.definition)
        #expect(h.element("greeting")?.label == "")
        try h.tap("Generate greeting", type: .button)
        #expect(h.element("greeting")?.label == "Hello World")
        final class Custom: StringService { var greeting: String { "Hello from a test" } }
        let custom = SceneHarness(root: GreetingApp.makeRootScreen(stringService: Custom()))
        try custom.tap("generateGreeting")
        #expect(custom.element("greeting")?.label == "Hello from a test")
    }

    @Test("Sign-up: email validation")
    func emailValidation() {
        #expect(SignUpApp.isValidEmail("UITestExample@example.com"))
        #expect(!SignUpApp.isValidEmail("UITestExample"))
        #expect(!SignUpApp.isValidEmail("a@b"))
        #expect(!SignUpApp.isValidEmail("@example.com"))
    }

    @Test("Sign-up: the share sheet reports the chosen activity")
    func share() throws {
        let h = try SceneHarness(app: SignUpApp.definition)
        h.settle()
        try h.tap("Return", type: .key)  // empty address: an alert
        h.settle()
        try h.tap("OK")
        h.settle()
        try #require(h.scene.firstResponder).resignFirstResponder()
        h.settle()
        try h.tap("share")
        h.settle()
        #expect(h.element("shareSheet") != nil)
        try h.tap("Copy", type: .cell)
        h.settle()
        #expect(h.element("shareSheet") == nil)
        #expect(h.element("result")?.label == "Shared via copy")
    }
}
