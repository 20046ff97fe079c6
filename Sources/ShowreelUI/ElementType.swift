/// What an element is, in XCUITest's vocabulary, so queries read like `app.buttons["Tap"]`.
public enum ElementType: String, Codable, Sendable, CaseIterable {
    case other, window, statusBar, navigationBar, staticText, button, textField, secureTextField,
         `switch`, table, cell, image, alert, key, keyboard, scrollView
}
