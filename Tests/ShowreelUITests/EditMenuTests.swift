import ShowcaseApps
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelTestSupport
import ShowreelUI
import Testing

/// The device's pasteboard as apps use it: the text field's Copy and Paste menu after a long
/// press, and Cmd+C / Cmd+V from a hardware keyboard.
@Suite("Pasteboard and the edit menu")
struct EditMenuTests {
    /// Sign Up's email field, filled with `text`.
    func signUp(email text: String) throws -> SceneHarness {
        let harness = try SceneHarness(app: SignUpApp.definition)
        harness.settle()
        let field = try #require(harness.element("email", type: .textField))
        harness.tap(at: field.frame.center)
        harness.settle()
        harness.scene.firstResponder?.insertText(text)
        return harness
    }

    func longPress(_ harness: SceneHarness, _ identifier: String) throws {
        let field = try #require(harness.element(identifier, type: .textField))
        harness.tap(at: field.frame.center, hold: .milliseconds(600))
        harness.settle()
    }

    @Test(
        "a long press on a field with text offers Copy (not Paste on an empty pasteboard); Copy puts the text on the pasteboard and closes the menu"
    )
    func copyFromMenu() throws {
        let harness = try signUp(email: "ada@example.com")
        try longPress(harness, "email")
        #expect(harness.scene.isEditMenuVisible)
        #expect(harness.element("Copy", type: .button)?.isHittable == true)
        #expect(harness.element("Paste", type: .button) == nil)
        try harness.tap("Copy", type: .button)
        harness.settle()
        #expect(harness.scene.pasteboard.string == "ada@example.com")
        #expect(!harness.scene.isEditMenuVisible)
    }

    @Test("Paste inserts the pasteboard's text into the field; a tap outside the menu only closes it")
    func pasteFromMenu() throws {
        let harness = try signUp(email: "ada")
        harness.scene.pasteboard.string = "@example.com"
        try longPress(harness, "email")
        try harness.tap("Paste", type: .button)
        harness.settle()
        #expect(harness.element("email", type: .textField)?.value == "ada@example.com")

        try longPress(harness, "email")
        #expect(harness.scene.isEditMenuVisible)
        harness.tap(at: Point(x: 20, y: harness.scene.bounds.height / 2))
        harness.settle()
        #expect(!harness.scene.isEditMenuVisible)
        #expect(harness.element("email", type: .textField)?.value == "ada@example.com")
    }

    @Test("a short tap on a field shows no menu; an empty field with an empty pasteboard shows none after a long press either")
    func noMenu() throws {
        let harness = try signUp(email: "")
        try longPress(harness, "email")
        #expect(!harness.scene.isEditMenuVisible)
        let field = try #require(harness.element("email", type: .textField))
        harness.scene.pasteboard.string = "x"
        harness.tap(at: field.frame.center)
        harness.settle()
        #expect(!harness.scene.isEditMenuVisible)
    }

    @Test("Cmd+C copies the focused field's text, Cmd+V pastes at its end")
    func keyboardCopyPaste() throws {
        let harness = try signUp(email: "grace")
        #expect(harness.scene.keyCommand("cmd+c"))
        #expect(harness.scene.pasteboard.string == "grace")
        #expect(harness.scene.keyCommand("cmd+v"))
        #expect(harness.element("email", type: .textField)?.value == "gracegrace")
    }
}
