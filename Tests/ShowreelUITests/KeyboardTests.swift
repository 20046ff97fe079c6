import ShowcaseApps
import ShowreelAccessibility
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelUI

@Suite("Software keyboard")
struct KeyboardTests {
    @Test("planning: shift for capitals (one letter only), more for digits and @, symbols for _")
    func planning() throws {
        #expect(try SoftwareKeyboard.keyTaps(toType: "Ab") == ["shift", "A", "b"])
        #expect(try SoftwareKeyboard.keyTaps(toType: "AB") == ["shift", "A", "shift", "B"])
        #expect(try SoftwareKeyboard.keyTaps(toType: "a@b.c") == ["a", "more", "@", "more", "b", "more", ".", "more", "c"])
        #expect(try SoftwareKeyboard.keyTaps(toType: "x_1") == ["x", "more", "symbols", "_", "symbols", "1"])
        #expect(try SoftwareKeyboard.keyTaps(toType: "1 a\n") == ["more", "1", "space", "a", "Return"])
        #expect(try SoftwareKeyboard.keyTaps(toType: "-", from: KeyboardState(plane: .numbers)) == ["-"])
        #expect(try SoftwareKeyboard.keyTaps(toType: "a", from: KeyboardState(plane: .letters, isShifted: true)) == ["shift", "a"])
        #expect(throws: SoftwareKeyboard.UnsupportedCharacter.self) { try SoftwareKeyboard.keyTaps(toType: "é") }
        let demo = try SoftwareKeyboard.keyTaps(toType: "UITestExample@example.com")
        #expect(demo.prefix(5) == ["shift", "U", "shift", "I", "shift"])
        // Replaying the plan through the keyboard's own rules types the text.
        var state = KeyboardState()
        var typed = ""
        for key in demo {
            let (next, edit) = try #require(SoftwareKeyboard.press(key, in: state))
            if case .insert(let text) = edit { typed += text }
            state = next
        }
        #expect(typed == "UITestExample@example.com")
    }

    @Test("the keyboard's keys are elements with identifiers; shift shows capitals")
    func keysAsElements() throws {
        let h = try SceneHarness(app: SignUpApp.definition)
        h.settle()
        #expect(h.scene.isKeyboardVisible)
        let keyboard = try #require(h.elements.first { $0.type == .keyboard })
        let keys = keyboard.children.filter { $0.type == .key }.map(\.identifier)
        for key in ["q", "a", "z", "shift", "more", "space", "delete", "Return"] { #expect(keys.contains(key)) }
        #expect(keyboard.children.allSatisfy { $0.isHittable })
        try h.tap("shift", type: .key)
        #expect(h.scene.keyboardState == KeyboardState(plane: .letters, isShifted: true))
        #expect(h.element("Q", type: .key) != nil && h.element("q", type: .key) == nil)
        try h.tap("more", type: .key)
        #expect(h.scene.keyboardState.plane == .numbers)
        #expect(h.element("@", type: .key) != nil && h.element("7", type: .key) != nil)
        try h.tap("symbols", type: .key)
        #expect(h.element("_", type: .key) != nil)
        try h.tap("more", type: .key)
        #expect(h.scene.keyboardState == KeyboardState())
    }

    @Test("a focused field brings the keyboard in; key taps type UITestExample@example.com; Return submits")
    func typingTheDemo() throws {
        let h = try SceneHarness(app: SignUpApp.definition)
        // The sign-up screen focuses its email field as it appears: the keyboard slides in.
        let field = try #require(h.scene.firstResponder)
        #expect(field.accessibilityIdentifier == "email")
        #expect(h.scene.isKeyboardVisible)
        let height = h.scene.keyboardHeight
        h.scene.advanceTime(to: h.scene.now + .milliseconds(125))
        h.scene.layoutIfNeeded()
        let expectedY = h.scene.bounds.height - height * AnimationCurve.easeOut.value(at: 0.5)
        #expect(abs((h.scene.keyboardFrame?.minY ?? 0) - expectedY) < 0.001)
        h.settle()
        #expect(h.scene.keyboardFrame?.minY == h.scene.bounds.height - height)

        let email = try #require(h.element("email", type: .textField))
        #expect(email.placeholder == "Email")
        #expect(email.value == "")
        try h.typeOnKeyboard("UITestExample@example.com")
        #expect(h.element("email", type: .textField)?.value == "UITestExample@example.com")
        try h.tap("Return", type: .key)
        #expect(h.element("result")?.label == "Signed up as UITestExample@example.com")
        #expect(h.scene.firstResponder == nil)
        h.settle()
        #expect(!h.scene.isKeyboardVisible)
        #expect(h.elements.first { $0.type == .keyboard } == nil)
    }

    @Test("delete removes the last character; an invalid address shows an alert")
    func deleteAndInvalid() throws {
        let h = try SceneHarness(app: SignUpApp.definition)
        h.settle()
        try h.typeOnKeyboard("abc")
        try h.tap("delete", type: .key)
        #expect(h.element("email")?.value == "ab")
        try h.tap("Return", type: .key)
        h.settle()
        #expect(h.elements.first { $0.type == .alert }?.identifier == "Invalid Email")
        try h.tap("OK", type: .button)
        h.settle()
        #expect(h.elements.first { $0.type == .alert } == nil)
        #expect(h.scene.firstResponder != nil)
    }

    @Test("secure entry shows dots; hardware keys type into the focused field")
    func secureAndHardwareKeys() throws {
        let root = Screen(title: "Login")
        let field = TextField(placeholder: "Password")
        field.isSecureTextEntry = true
        field.accessibilityIdentifier = "password"
        root.contentView = field
        let h = SceneHarness(root: root)
        #expect(field.becomeFirstResponder())
        #expect(h.scene.keyCommand(KeyInput("s")))
        #expect(h.scene.keyCommand(KeyInput("x", modifiers: .shift)))
        let node = try #require(h.element("password"))
        #expect(node.type == .secureTextField)
        #expect(node.value == "••")
        #expect(field.text == "sX")
        #expect(h.scene.keyCommand("return"))
        #expect(h.scene.firstResponder == nil)
    }
}
