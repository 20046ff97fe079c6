import ShowreelKit
import XCTest

/// The same seed examples as XCTest cases: one device and one video per test.
final class CountriesXCTests: ShowreelTestCase {
    func testCanadaDetails() async throws {
        let app = Application("dev.showreel.countries", launchArguments: ["--countries-datasource", "local-mock"])
        try await app.launch()
        try await attachScreenshot(named: "Countries", lifetime: .keepAlways)
        try await app.cells["Canada"].tap()
        let name = try await app.staticTexts["countryName"].label
        XCTAssertEqual(name, "Canada")
        let region = try await app.staticTexts["countryRegion"].label
        XCTAssertEqual(region, "Northern America, Americas")
        let population = try await app.staticTexts["countryPopulation"].label
        XCTAssertEqual(population, "36155487 people")
        let area = try await app.staticTexts["countryArea"].label
        XCTAssertEqual(area, "9984670.0 sq km")
        try await attachScreenshot(named: "CountryDetails", lifetime: .keepAlways)
    }
}

final class SignUpXCTests: ShowreelTestCase {
    func testTypingAnEmailKeyByKey() async throws {
        let app = Application("dev.showreel.signup")
        try await app.launch()
        try await app.textFields["email"].tap()
        var random = SeededGenerator(seed: 7)
        try await typeKeyByKey(SignUpUITests.email, on: app, using: &random)
        try await app.keys["Return"].tap()
        let result = try await app.staticTexts["result"].label
        XCTAssertTrue(result.contains(SignUpUITests.email), result)
    }
}
