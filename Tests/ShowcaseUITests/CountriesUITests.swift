import ShowreelKit
import Testing

/// The seed example: the Countries app with its mock data source, Canada's details.
@Suite(.device(), .recorded(.retainOnFailure))
struct CountriesUITests {
    @Test func canadaDetails() async throws {
        let app = Application("dev.showreel.countries", launchArguments: ["--countries-datasource", "local-mock"])
        try await app.launch()
        try await attachScreenshot(of: app, named: "Countries", lifetime: .keepAlways)

        try await app.cells["Canada"].tap()
        // The tap returned once the push finished: the details are on screen, not sliding in.
        #expect(try await app.staticTexts["countryName"].waitForHittable(timeout: .seconds(0)))
        #expect(try await app.staticTexts["countryName"].label == "Canada")
        #expect(try await app.staticTexts["countryRegion"].label == "Northern America, Americas")
        #expect(try await app.staticTexts["countryPopulation"].label == "36155487 people")
        #expect(try await app.staticTexts["countryArea"].label == "9984670.0 sq km")
        try await attachScreenshot(of: app, named: "CountryDetails", lifetime: .keepAlways)
    }
}
