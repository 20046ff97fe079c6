import Synchronization

/// A string an app showed in its source language because the language it runs in has no
/// translation for it (or the catalog has no such key at all).
public struct MissingTranslation: Sendable, Hashable, Codable, CustomStringConvertible {
    public var bundleIdentifier: String
    public var language: String
    public var key: String

    public init(bundleIdentifier: String, language: String, key: String) {
        self.bundleIdentifier = bundleIdentifier; self.language = language; self.key = key
    }

    public var description: String { "\(bundleIdentifier): no \(language) translation for '\(key)', showing the source text" }
}

/// Where a device collects the missing translations of the apps it runs, each once, in the
/// order they were first met (a run reports them; a fallback is never silent).
public final class MissingTranslationLog: Sendable, Equatable {
    private let state = Mutex<(seen: Set<MissingTranslation>, ordered: [MissingTranslation])>(([], []))

    public init() {}

    public func record(_ missing: MissingTranslation) {
        state.withLock { state in
            if state.seen.insert(missing).inserted { state.ordered.append(missing) }
        }
    }

    /// Every missing translation met so far, first met first.
    public var entries: [MissingTranslation] { state.withLock { $0.ordered } }

    public static func == (a: MissingTranslationLog, b: MissingTranslationLog) -> Bool { a === b }
}
