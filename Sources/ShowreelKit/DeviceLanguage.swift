import Testing

/// The language a test's device boots in: a code (`"de"`, `"pt-BR"`), or, for a test
/// parameterised over languages, each case's argument, so one test gives one video per language
/// (`greeting(language:) de.mov`):
///
///     @Test(.device(language: .argument, appearance: .dark), arguments: ["en", "de", "ja"])
///     func greeting(language: String) async throws { ... }
public enum DeviceLanguage: Sendable, Equatable, ExpressibleByStringLiteral {
    case code(String)
    /// The test case's argument (its first, when there are several).
    case argument

    public init(stringLiteral value: String) { self = .code(value) }

    /// The code for `testCase`, normalised (`pt_BR` -> `pt-BR`); a sentence when it is not a
    /// language code or there is no argument to take it from.
    func resolved(for testCase: Test.Case?) throws -> String {
        let code: String
        switch self {
        case let .code(value): code = value
        case .argument:
            guard let testCase, let first = TestIdentity.argumentValues(of: testCase).first else {
                throw ShowreelKitError(
                    ".device(language: .argument) needs a parameterised test: add arguments: [\"en\", \"de\"] to its @Test.")
            }
            code = first
        }
        guard let normalised = LanguageCode.normalised(code) else {
            throw ShowreelKitError("'\(code)' is not a language code: use the form xx or xx-YY (en, de, ja, ar, pt-BR).")
        }
        return normalised
    }
}
