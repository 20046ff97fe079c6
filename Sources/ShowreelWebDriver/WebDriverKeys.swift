/// WebDriver's keys as the software keyboard has them: the spec's private-use code points
/// (U+E006 Return, U+E007 Enter, U+E003 Backspace, ...) become the keyboard's keys, text
/// between them is typed as it is.
enum WebDriverKeys {
    enum Piece: Equatable {
        case text(String)
        case key(String)
    }

    /// The software keyboard's key for each special key it has.
    static let keyboardKeys: [Unicode.Scalar: String] = [
        "\u{E003}": "delete", "\u{E017}": "delete", "\u{E006}": "Return", "\u{E007}": "Return",
    ]

    /// Special keys typed as text.
    static let textKeys: [Unicode.Scalar: String] = ["\u{E00D}": " "]

    /// Modifier keys, by the name `keyCommand` takes.
    static let modifiers: [Unicode.Scalar: String] = [
        "\u{E008}": "shift", "\u{E050}": "shift", "\u{E009}": "control", "\u{E051}": "control",
        "\u{E00A}": "option", "\u{E052}": "option", "\u{E03D}": "command", "\u{E053}": "command",
    ]

    static let names: [UInt32: String] = [
        0xE001: "Cancel", 0xE002: "Help", 0xE004: "Tab", 0xE005: "Clear", 0xE00B: "Pause", 0xE00C: "Escape",
        0xE00E: "PageUp", 0xE00F: "PageDown", 0xE010: "End", 0xE011: "Home", 0xE012: "ArrowLeft", 0xE013: "ArrowUp",
        0xE014: "ArrowRight", 0xE015: "ArrowDown", 0xE016: "Insert",
    ]

    /// `text` as text runs and keys; a special key the keyboard does not have is an error naming it.
    static func pieces(_ text: String) throws(WebDriverError) -> [Piece] {
        var pieces: [Piece] = []
        var run = ""
        for scalar in text.unicodeScalars {
            if let key = keyboardKeys[scalar] {
                if !run.isEmpty { pieces.append(.text(run)); run = "" }
                pieces.append(.key(key))
            } else if let typed = textKeys[scalar] {
                run += typed
            } else if scalar == "\u{E000}" || modifiers[scalar] != nil {
                continue  // NULL releases modifiers; a lone modifier types nothing
            } else if (0xE000...0xF8FF).contains(scalar.value) {
                let name =
                    names[scalar.value].map { "\($0) (U+\(String(scalar.value, radix: 16, uppercase: true)))" }
                    ?? "U+\(String(scalar.value, radix: 16, uppercase: true))"
                throw .invalidArgument(
                    "The special key \(name) has no key on the software keyboard; it has Return, Enter, Backspace, Delete and Space.")
            } else {
                run.unicodeScalars.append(scalar)
            }
        }
        if !run.isEmpty { pieces.append(.text(run)) }
        return pieces
    }
}
