import Foundation

extension PackageTemplate {
    /// The UI test target: Swift Testing with `.device()` and `.recorded()`, two languages, one XCTest case.
    static let tests: [(path: String, contents: String)] = [
        (
            "Tests/{{NAME}}UITests/{{NAME}}UITests.swift",
            #"""
            import ShowreelKit
            import Testing
            import {{APP}}

            /// A device per test with {{NAME}} installed, each test recorded into
            /// Recordings/{{NAME}}UITests/<test>.mov (with its steps as chapters, a trace and a preview).
            @Suite(.device(apps: [{{APP}}.definition]), .recorded(.on))
            struct {{NAME}}UITests {
                static let mock = [{{APP}}.sourceArgument, "mock"]

                @Test func itemDetails() async throws {
                    let app = Application({{APP}}.bundleIdentifier, launchArguments: Self.mock)
                    try await app.launch()
                    try await app.cells["apples"].tap()
                    #expect(try await app.staticTexts["itemName"].label == "Apples")
                    #expect(try await app.staticTexts["itemNote"].label == "Crisp and sweet.")
                    try await attachScreenshot(of: app, named: "Apples", lifetime: .keepAlways)
                }

                @Test func addAnItemOnTheKeyboard() async throws {
                    let app = Application({{APP}}.bundleIdentifier, launchArguments: Self.mock)
                    try await app.launch()
                    try await app.textFields["newItem"].typeText("Milk")
                    try await app.keys["Return"].tap()
                    try await app.cells["Milk"].tap()
                    #expect(try await app.staticTexts["itemNote"].label == "Added on this device.")
                }

                @Test func sampleItemsWithoutTheMock() async throws {
                    let app = Application({{APP}}.bundleIdentifier)
                    try await app.launch()
                    #expect(try await app.cells["tea"].exists)
                    #expect(try await !app.cells["apples"].exists)
                }
            }
            """#
        ),
        (
            "Tests/{{NAME}}UITests/LanguageTests.swift",
            #"""
            import ShowreelKit
            import Testing
            import {{APP}}

            /// One test in each language: a device per language, a video per language
            /// (`itemNameInEachLanguage(language:) fr.mov`).
            @Suite(.device(language: .argument, apps: [{{APP}}.definition]), .recorded(.on))
            struct LanguageTests {
                static let names = ["en": "Apples", "fr": "Pommes"]

                @Test(arguments: ["en", "fr"])
                func itemNameInEachLanguage(language: String) async throws {
                    let app = Application({{APP}}.bundleIdentifier, launchArguments: [{{APP}}.sourceArgument, "mock"])
                    try await app.launch()
                    try await app.cells["apples"].tap()
                    #expect(try await app.staticTexts["itemName"].label == Self.names[language])
                }
            }
            """#
        ),
        (
            "Tests/{{NAME}}UITests/{{NAME}}XCTests.swift",
            #"""
            import ShowreelKit
            import XCTest
            import {{APP}}

            /// The same kind of test as an XCTest case: subclass ShowreelTestCase, say which apps the
            /// device installs and how to record.
            final class {{NAME}}XCTests: ShowreelTestCase {
                override var deviceConfiguration: DeviceConfiguration { DeviceConfiguration(apps: [{{APP}}.definition]) }
                override var recordingConfiguration: RecordingConfiguration { RecordingConfiguration(.on) }

                func testBreadDetails() async throws {
                    let app = Application({{APP}}.bundleIdentifier, launchArguments: [{{APP}}.sourceArgument, "mock"])
                    try await app.launch()
                    try await app.cells["bread"].tap()
                    let name = try await app.staticTexts["itemName"].label
                    XCTAssertEqual(name, "Bread")
                }
            }
            """#
        ),
    ]

}
