/// Escaping for text placed in HTML or XML, in element content and in quoted attributes.
enum Markup {
    static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// Seconds with three decimals, the way JUnit and the report show durations.
    static func seconds(_ value: Double) -> String {
        String(format: "%.3f", value)
    }
}
