import Foundation

/// An app's strings in the language it was launched in (`String(localized:)` for the app
/// core): looked up in its catalog, formatted for the launch's locale.
///
/// The language is the first of the launch's preferred languages the catalog has (an exact
/// match, then the base language: `de-CH` finds `de`), else the source language. A key with no
/// translation in that language shows its source-language text and is recorded in the
/// launch's `MissingTranslationLog`, so a run reports it.
public final class LocalizedStrings: Sendable {
    public let catalog: StringCatalog
    /// The catalog language the strings are read in.
    public let language: String
    /// The locale numbers and dates are formatted for.
    public let locale: Locale
    public let layoutDirection: LayoutDirection
    private let bundleIdentifier: String
    private let log: MissingTranslationLog?

    public init(catalog: StringCatalog, context: LaunchContext, bundleIdentifier: String) {
        self.catalog = catalog
        language = Self.bestLanguage(in: catalog, for: context.preferredLanguages)
        locale = context.locale
        layoutDirection = LaunchContext.isRightToLeft(language) ? .rightToLeft : .leftToRight
        self.bundleIdentifier = bundleIdentifier
        log = context.translationLog
    }

    /// The catalog's language for a list of preferred languages.
    static func bestLanguage(in catalog: StringCatalog, for preferred: [String]) -> String {
        let available = catalog.languages
        for wanted in preferred {
            if available.contains(wanted) { return wanted }
            let base = String(wanted.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "")
            if available.contains(base) { return base }
        }
        return catalog.sourceLanguage
    }

    /// The text for `key`, with `%@`, `%lld` (a number in the locale's digits and grouping)
    /// and positional `%1$@` arguments filled in; a plural entry takes the form for the first
    /// integer argument.
    public func callAsFunction(_ key: String, _ arguments: any Sendable...) -> String {
        let count = arguments.lazy.compactMap { $0 as? Int }.first
        return format(entry(for: key, count: count), arguments)
    }

    /// `n` written for the locale: `36.155.487` in German.
    public func number(_ n: Int) -> String { n.formatted(.number.locale(locale)) }

    /// `x` written for the locale with at most `fractionDigits` decimals.
    public func number(_ x: Double, fractionDigits: Int = 0) -> String {
        x.formatted(.number.precision(.fractionLength(0...fractionDigits)).locale(locale))
    }

    /// A date as the locale writes it (`24. November 2026` in German).
    public func date(_ date: Date, style: DateFormatter.Style = .long) -> String {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.dateStyle = style
        formatter.timeStyle = .none
        return formatter.string(from: date)
    }

    /// A region's name in the app's language (`CA`: Kanada, カナダ, كندا), nil for a code the
    /// locale data does not know.
    public func regionName(_ code: String) -> String? {
        let name = Locale(identifier: language).localizedString(forRegionCode: code)
        return name == code ? nil : name
    }

    // MARK: Lookup

    private func entry(for key: String, count: Int?) -> String {
        let translations = catalog.strings[key]
        if let entry = translations?[language] { return text(of: entry, count: count, language: language) }
        if language != catalog.sourceLanguage || translations == nil {
            log?.record(MissingTranslation(bundleIdentifier: bundleIdentifier, language: language, key: key))
        }
        if let source = translations?[catalog.sourceLanguage] {
            return text(of: source, count: count, language: catalog.sourceLanguage)
        }
        return key
    }

    private func text(of entry: StringCatalog.Entry, count: Int?, language: String) -> String {
        switch entry {
        case .value(let value): return value
        case .plural(let forms):
            let category = PluralCategory.of(count ?? 0, language: language)
            // "zero" is explicit in some catalogs even for languages whose rules never pick it.
            if count == 0, let zero = forms[.zero] { return zero }
            return forms[category] ?? forms[.other] ?? ""
        }
    }

    // MARK: Formatting

    private func format(_ template: String, _ arguments: [any Sendable]) -> String {
        guard template.contains("%") else { return template }
        var result = ""
        var next = 0
        var index = template.startIndex
        while index < template.endIndex {
            let character = template[index]
            index = template.index(after: index)
            guard character == "%", index < template.endIndex else { result.append(character); continue }
            if template[index] == "%" { result.append("%"); index = template.index(after: index); continue }
            // %[n$][l|ll]{@,d,i,u}
            var position: Int?
            var digits = ""
            var scan = index
            while scan < template.endIndex, template[scan].isNumber { digits.append(template[scan]); scan = template.index(after: scan) }
            if !digits.isEmpty, scan < template.endIndex, template[scan] == "$" {
                position = Int(digits).map { $0 - 1 }
                index = template.index(after: scan)
            }
            while index < template.endIndex, template[index] == "l" { index = template.index(after: index) }
            guard index < template.endIndex, "@diu".contains(template[index]) else { result.append("%"); continue }
            index = template.index(after: index)
            let argumentIndex = position ?? next
            if position == nil { next += 1 }
            guard arguments.indices.contains(argumentIndex) else { continue }
            switch arguments[argumentIndex] {
            case let number as Int: result += self.number(number)
            case let number as Double: result += self.number(number, fractionDigits: 2)
            case let value: result += String(describing: value)
            }
        }
        return result
    }
}

extension LocalizedStrings {
    /// The strings of a catalog file the app ships (a resource); a catalog that cannot be read
    /// is the app stopping (`AppFatalError`), as a corrupt bundle is on iOS.
    public static func load(_ url: URL?, context: LaunchContext, bundleIdentifier: String) throws -> LocalizedStrings {
        guard let url else { throw AppFatalError("\(bundleIdentifier) has no string catalog in its resources.") }
        do {
            return LocalizedStrings(catalog: try StringCatalog(contentsOf: url), context: context, bundleIdentifier: bundleIdentifier)
        } catch {
            throw AppFatalError("\(url.lastPathComponent): \(error)")
        }
    }
}
