import Foundation

/// An Xcode String Catalog (`.xcstrings`): the app's strings by key, each with its value in
/// every language it is translated into, and plural forms by CLDR category.
///
/// Read from the JSON Xcode writes: `sourceLanguage`, then
/// `strings.<key>.localizations.<language>.stringUnit.value`, or for plurals
/// `...localizations.<language>.variations.plural.<zero|one|two|few|many|other>.stringUnit.value`.
/// A key with no entry in the source language reads as itself (Xcode's "the key is the
/// English text" convention).
public struct StringCatalog: Sendable, Equatable {
    /// What one key says in one language: a single value, or a value per plural category.
    public enum Entry: Sendable, Equatable {
        case value(String)
        case plural([PluralCategory: String])
    }

    public let sourceLanguage: String
    /// Key, then language, then what it says there.
    public let strings: [String: [String: Entry]]

    public init(sourceLanguage: String, strings: [String: [String: Entry]]) {
        self.sourceLanguage = sourceLanguage
        self.strings = strings
    }

    /// Parses a catalog's JSON; throws `StringCatalogError` naming what is wrong.
    public init(data: Data) throws {
        let file: CatalogFile
        do {
            file = try JSONDecoder().decode(CatalogFile.self, from: data)
        } catch {
            throw StringCatalogError.unreadable(String(describing: error))
        }
        var strings: [String: [String: Entry]] = [:]
        for (key, string) in file.strings {
            var languages: [String: Entry] = [:]
            for (language, localization) in string.localizations ?? [:] {
                if let plural = localization.variations?.plural {
                    var forms: [PluralCategory: String] = [:]
                    for (name, variation) in plural {
                        guard let category = PluralCategory(rawValue: name) else {
                            throw StringCatalogError.unknownPluralCategory(key: key, language: language, category: name)
                        }
                        forms[category] = variation.stringUnit.value
                    }
                    guard forms[.other] != nil else { throw StringCatalogError.missingOtherForm(key: key, language: language) }
                    languages[language] = .plural(forms)
                } else if let unit = localization.stringUnit {
                    languages[language] = .value(unit.value)
                }
            }
            strings[key] = languages
        }
        self.init(sourceLanguage: file.sourceLanguage, strings: strings)
    }

    /// Reads a `.xcstrings` file.
    public init(contentsOf url: URL) throws {
        try self.init(data: Data(contentsOf: url))
    }

    /// Every language some key is translated into, with the source language.
    public var languages: Set<String> {
        strings.values.reduce(into: [sourceLanguage]) { $0.formUnion($1.keys) }
    }

    // The file's shape, as Xcode writes it.
    private struct CatalogFile: Decodable {
        var sourceLanguage: String
        var strings: [String: CatalogString]
    }
    private struct CatalogString: Decodable {
        var localizations: [String: Localization]?
    }
    private struct Localization: Decodable {
        var stringUnit: StringUnit?
        var variations: Variations?
    }
    private struct Variations: Decodable {
        var plural: [String: Variation]?
    }
    private struct Variation: Decodable {
        var stringUnit: StringUnit
    }
    private struct StringUnit: Decodable {
        var value: String
    }
}

/// Why a string catalog could not be read.
public enum StringCatalogError: Error, Equatable, CustomStringConvertible {
    case unreadable(String)
    case unknownPluralCategory(key: String, language: String, category: String)
    case missingOtherForm(key: String, language: String)

    public var description: String {
        switch self {
        case .unreadable(let reason): "The string catalog is not valid .xcstrings JSON: \(reason)"
        case .unknownPluralCategory(let key, let language, let category):
            "'\(key)' (\(language)) has a plural form '\(category)'; use zero, one, two, few, many or other."
        case .missingOtherForm(let key, let language): "'\(key)' (\(language)) has plural forms but no 'other' form."
        }
    }
}
