import Foundation

/// Which way an interface reads: leading edges on the left, or on the right (Arabic, Hebrew).
public enum LayoutDirection: String, Sendable, Hashable {
    case leftToRight, rightToLeft
}

/// The languages and locale an app is launched with, chosen as on iOS: `-AppleLanguages (de)`
/// or `-AppleLanguages "(de, en)"` and `-AppleLocale de_DE` (what fastlane snapshot passes),
/// else the device's languages, else the app's source language.
extension LaunchContext {
    /// The languages the app should use, most preferred first: those of `-AppleLanguages`,
    /// else the device's (`deviceLanguages`); empty means the app's source language.
    public var preferredLanguages: [String] {
        if let listed = Self.argumentValue("-AppleLanguages", in: arguments) {
            let names = Self.languageList(listed)
            if !names.isEmpty { return names }
        }
        return deviceLanguages
    }

    /// The locale numbers, dates and region names are formatted for: `-AppleLocale`, else the
    /// first preferred language's, else en_US.
    public var locale: Locale {
        if let identifier = Self.argumentValue("-AppleLocale", in: arguments), !identifier.isEmpty {
            return Locale(identifier: identifier)
        }
        return Locale(identifier: preferredLanguages.first ?? "en_US")
    }

    /// Right to left when the first preferred language is written so.
    public var layoutDirection: LayoutDirection {
        guard let language = preferredLanguages.first else { return .leftToRight }
        return Self.isRightToLeft(language) ? .rightToLeft : .leftToRight
    }

    static func isRightToLeft(_ language: String) -> Bool {
        Locale.Language(identifier: language).characterDirection == .rightToLeft
    }

    /// The value after `name` (`-AppleLanguages (de)`), also when a shell split `(de, en)` into
    /// `(de,` and `en)`: tokens are joined up to the one closing the parenthesis.
    static func argumentValue(_ name: String, in arguments: [String]) -> String? {
        guard let index = arguments.lastIndex(of: name), index + 1 < arguments.endIndex else { return nil }
        var value = arguments[index + 1]
        var next = index + 2
        while value.hasPrefix("("), !value.contains(")"), next < arguments.endIndex {
            value += " " + arguments[next]
            next += 1
        }
        return value
    }

    /// `(de, en)`, `(de)`, `de`, `("de-CH", en)` as a list of language codes.
    static func languageList(_ value: String) -> [String] {
        value.trimmingCharacters(in: CharacterSet(charactersIn: "() "))
            .split(separator: ",")
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"'")) }
            .filter { !$0.isEmpty }
    }
}
