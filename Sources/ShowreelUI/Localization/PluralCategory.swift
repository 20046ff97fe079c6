/// CLDR's plural categories: which form of a counted phrase a number takes in a language
/// ("1 Einwohner", "2 Einwohner"; Arabic has six forms).
public enum PluralCategory: String, Sendable, Hashable, CaseIterable {
    case zero, one, two, few, many, other

    /// The category of a whole number `n` in `language` (a code like "de" or "pt-BR"), by
    /// CLDR's rules for the languages the sample apps and most apps ship; other languages
    /// follow English ("one" for 1, else "other").
    public static func of(_ n: Int, language: String) -> PluralCategory {
        let base = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init)?.lowercased() ?? ""
        let n = abs(n)
        switch base {
        case "ja", "zh", "ko", "th", "vi", "id", "ms":
            return .other
        case "fr", "pt":
            return n == 0 || n == 1 ? .one : .other
        case "ar":
            switch n {
            case 0: return .zero
            case 1: return .one
            case 2: return .two
            default:
                let hundreds = n % 100
                if (3...10).contains(hundreds) { return .few }
                if (11...99).contains(hundreds) { return .many }
                return .other
            }
        case "he":
            return n == 1 ? .one : n == 2 ? .two : .other
        case "ru", "uk", "pl":
            let tens = n % 10, hundreds = n % 100
            if tens == 1 && hundreds != 11 { return base == "pl" && n != 1 ? .many : .one }
            if (2...4).contains(tens) && !(12...14).contains(hundreds) { return .few }
            return .many
        default:
            return n == 1 ? .one : .other
        }
    }
}
