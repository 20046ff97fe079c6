import ShowreelKit
import Testing

/// The seed example: typing an email key by key on the software keyboard, shift for capitals
/// and "more" for "@" and ".", with small random pauses from a seeded generator.
@Suite(.device(), .recorded(.retainOnFailure))
struct SignUpUITests {
    static let email = "UITestExample@example.com"

    @Test func typingAnEmailKeyByKey() async throws {
        let app = Application("dev.showreel.signup")
        try await app.launch()
        try await app.textFields["email"].tap()
        var random = SeededGenerator(seed: 7)
        try await typeKeyByKey(Self.email, on: app, using: &random)
        try await app.keys["Return"].tap()
        #expect(try await app.staticTexts["result"].label.contains(Self.email))
    }
}

/// The classic XCUITest loop, shared by the Swift Testing and XCTest forms of the test.
func typeKeyByKey(_ text: String, on app: Application, using random: inout SeededGenerator) async throws {
    for character in text {
        let needsSymbols = "@.".contains(character)
        if character.isUppercase { try await app.keys["shift"].tap() }
        if needsSymbols { try await app.keys["more"].tap() }
        try await app.keys[String(character)].tap()
        if needsSymbols { try await app.keys["more"].tap() }
        _ = try await app.device.perform(.wait(.milliseconds(Int64.random(in: 0...150, using: &random))))
    }
}
