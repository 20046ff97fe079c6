/// What an element is, in XCUITest's vocabulary, so queries read like `app.buttons["Tap"]`.
/// The toolkit stamps its elements with it, the wire carries its raw value, and tests ask by it.
public enum ElementType: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
    /// In a query: an element of any type (XCUITest's `.any`).
    case any
    case other, window, statusBar, navigationBar, staticText, button, textField, secureTextField,
        `switch`, table, cell, image, alert, key, keyboard, scrollView

    public var description: String { rawValue }

    /// The element types that structure a screen rather than say something on it: left out of
    /// "the screen shows ..." in error messages.
    public var isChrome: Bool { [.window, .statusBar, .keyboard, .key, .other].contains(self) }
}
