import Foundation

/// Scalars as the studio writes them into flows: every text double-quoted with JSON's escapes
/// (a subset of YAML's), so a label such as `yes`, `1.0` or `a: b` stays text.
package enum YAMLText {
    package static func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        guard let data = try? encoder.encode(text), let json = String(data: data, encoding: .utf8) else { return "\"\"" }
        return json
    }

    /// A number without a needless fraction: 120, 120.5.
    package static func number(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
