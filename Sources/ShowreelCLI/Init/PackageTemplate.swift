import Foundation

/// The package `showreel init` writes: its files, with the app's name, the executable's name,
/// the bundle identifier and the Showreel dependency filled in (`{{KEY}}` placeholders).
struct PackageTemplate {
    /// Where Showreel is fetched from when `--showreel` is not given, and the branch or version.
    static let defaultRepository = "https://github.com/showreel-dev/showreel.git"
    static let defaultReference = "main"

    /// How the new package depends on Showreel.
    enum Dependency: Equatable {
        case path(String)
        /// A Git URL, with `#branch` or `#1.2.3` after it, or neither (the default branch).
        case url(String)

        static let defaultURL = Dependency.url("\(PackageTemplate.defaultRepository)#\(PackageTemplate.defaultReference)")

        /// The `.package(...)` clause.
        var clause: String {
            switch self {
            case let .path(path): return ".package(path: \(Self.quoted(path)))"
            case let .url(value):
                let (url, reference) = Self.split(value)
                let ref = reference ?? PackageTemplate.defaultReference
                let isVersion = ref.split(separator: ".").count == 3 && ref.split(separator: ".").allSatisfy { Int($0) != nil }
                return ".package(url: \(Self.quoted(url)), \(isVersion ? "from" : "branch"): \(Self.quoted(ref)))"
            }
        }

        /// SwiftPM's identity of the dependency: the last path component, lower-cased, without `.git`.
        var identity: String {
            let location: String
            switch self {
            case let .path(path): location = path
            case let .url(value): location = Self.split(value).url
            }
            var last = location.split(separator: "/").last.map(String.init) ?? location
            if last.hasSuffix(".git") { last.removeLast(4) }
            if let colon = last.lastIndex(of: ":") { last = String(last[last.index(after: colon)...]) }
            return last.lowercased()
        }

        private static func split(_ value: String) -> (url: String, reference: String?) {
            guard let hash = value.lastIndex(of: "#") else { return (value, nil) }
            let reference = String(value[value.index(after: hash)...])
            return (String(value[..<hash]), reference.isEmpty ? nil : reference)
        }

        private static func quoted(_ text: String) -> String {
            "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
    }

    let name: String
    let dependency: Dependency

    /// `GroceriesApp`: the app's module.
    var appModule: String { name + "App" }
    /// `groceries`: the executable (its own name: one package graph holds one `showreel`).
    var executable: String { name.lowercased() }
    /// `com.example.groceries`.
    var bundleIdentifier: String { "com.example.\(name.lowercased())" }

    /// Checks `name`: a Swift identifier, and not one that would clash with Showreel's own names.
    init(name: String, dependency: Dependency) throws {
        guard Self.isIdentifier(name) else {
            throw CLIFailure(
                message:
                    "'\(name)' is not a valid Swift identifier: use letters, digits and underscores, starting with a letter (e.g. Groceries).",
                exitCode: CLIFailure.Code.usage)
        }
        guard name.lowercased() != "showreel" else {
            throw CLIFailure(
                message: "'\(name)' would name the executable `showreel`, which Showreel's own is; choose another name (e.g. Groceries).",
                exitCode: CLIFailure.Code.usage)
        }
        self.name = name
        self.dependency = dependency
    }

    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else { return false }
        let allowed = name.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "_"
        }
        return allowed && name != "_" && !keywords.contains(name)
    }

    private static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout", "internal", "let",
        "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var", "break",
        "case", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "switch",
        "where", "while", "as", "Any", "catch", "false", "is", "nil", "super", "self", "Self", "throw", "throws", "true", "try",
        "await", "async", "package", "Type", "Protocol",
    ]

    /// Every file, path relative to the package, placeholders filled.
    var files: [(path: String, contents: String)] {
        let values = [
            "NAME": name, "APP": appModule, "EXEC": executable, "BUNDLE": bundleIdentifier,
            "DEPENDENCY": dependency.clause, "IDENTITY": dependency.identity,
        ]
        return (Self.app + Self.executableFiles + Self.tests + Self.flows + Self.support).map { file in
            (fill(file.path, values), fill(file.contents, values))
        }
    }

    private func fill(_ text: String, _ values: [String: String]) -> String {
        values.reduce(text) { $0.replacingOccurrences(of: "{{\($1.key)}}", with: $1.value) }
    }
}
