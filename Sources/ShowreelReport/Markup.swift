import Foundation

/// Escaping for text placed in HTML or XML, in element content and in quoted attributes.
package enum Markup {
    /// `text` safe in element content and quoted attributes. Characters XML 1.0 forbids even as
    /// references (C0 controls but tab, newline and return; U+FFFE, U+FFFF) would make the whole
    /// document unreadable, so they are shown as `\u{1B}` instead: a flow name or a failure message
    /// with an escape sequence in it still gives valid JUnit. Tab, newline and return become
    /// references, so an attribute keeps them.
    package static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\t", "\n", "\r": result += "&#\(scalar.value);"
            // Most characters: appended as they are, no string made for each.
            default: if isShownAsIs(scalar) { result.unicodeScalars.append(scalar) } else { result += shown(scalar) }
            }
        }
        return result
    }

    /// `scalar` as text, or as `\u{1B}` when it is one that XML 1.0 forbids even as a reference
    /// (C0 controls but tab, newline and return; U+FFFE, U+FFFF): what the report, JUnit and
    /// summary.md show for a NUL or an escape sequence in a name or a message.
    static func shown(_ scalar: Unicode.Scalar) -> String {
        guard !isShownAsIs(scalar) else { return String(scalar) }
        return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    }

    /// Whether XML 1.0 allows `scalar` as it is (see `escape`).
    private static func isShownAsIs(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: true
        case 0..<0x20, 0xFFFE, 0xFFFF: false
        default: true
        }
    }

    /// Seconds with three decimals, the way JUnit and the report show durations.
    static func seconds(_ value: Double) -> String {
        String(format: "%.3f", value)
    }
}
