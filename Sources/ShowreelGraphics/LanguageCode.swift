/// Language codes as a matrix run takes them (`de`, `pt-BR`, `pt_BR`), and the launch
/// arguments iOS test tools (fastlane snapshot) give an app to run in one.
public enum LanguageCode {
    /// `code` as `xx` or `xx-YY` (an underscore becomes a hyphen), or nil when it is not of
    /// that shape.
    public static func normalised(_ code: String) -> String? {
        let parts = code.split(separator: code.contains("_") ? "_" : "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts[0].count == 2, parts[0].allSatisfy({ $0.isASCII && $0.isLowercase }) else { return nil }
        guard parts.count == 2 else { return String(parts[0]) }
        guard parts[1].count == 2, parts[1].allSatisfy({ $0.isASCII && $0.isUppercase }) else { return nil }
        return "\(parts[0])-\(parts[1])"
    }

    /// The locale (`de_DE`) for a language: its own region when it names one, else the region
    /// most of its speakers' devices default to, else the language's code in capitals.
    public static func locale(for language: String) -> String {
        let parts = language.split(separator: "-")
        if parts.count == 2 { return "\(parts[0])_\(parts[1])" }
        let code = String(parts[0])
        return "\(code)_\(defaultRegions[code] ?? code.uppercased())"
    }

    /// `-AppleLanguages (de) -AppleLocale de_DE`: what every launch in a cell gets.
    public static func launchArguments(for language: String) -> [String] {
        ["-AppleLanguages", "(\(language))", "-AppleLocale", locale(for: language)]
    }

    static let defaultRegions: [String: String] = [
        "en": "US", "ar": "SA", "ja": "JP", "zh": "CN", "ko": "KR", "he": "IL", "hi": "IN", "da": "DK", "sv": "SE",
        "nb": "NO", "el": "GR", "cs": "CZ", "uk": "UA", "vi": "VN", "ms": "MY", "ca": "ES", "pt": "BR", "fa": "IR",
        "ur": "PK", "bn": "BD", "sl": "SI", "et": "EE", "sr": "RS", "kk": "KZ", "ga": "IE", "sq": "AL", "ta": "IN",
    ]
}
