import Foundation

/// A value an app keeps in its defaults.
public enum DefaultsValue: Codable, Hashable, Sendable {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
}

/// An app's defaults store (`UserDefaults.standard`): values the app sets persist in its data
/// container (`$HOME/Library/Preferences/<suite>.json`, kept across launches, wiped with the
/// device's data); registered values are what a key reads before the app sets it.
///
/// Volatile defaults (Touchstone's pattern, for debug settings): keys registered through
/// `registerDefaults(_:volatileDefaults:isVolatile:)` with `isVolatile: true` can be set and
/// read like any other, but each registration (the next launch) puts them back to their
/// registered values; with `isVolatile: false` they persist like normal defaults.
/// Without a `HOME` (an app built outside a device) nothing is written: the store lives in memory.
public final class AppDefaults {
    public let fileURL: URL?
    private var registered: [String: DefaultsValue] = [:]
    private var stored: [String: DefaultsValue] = [:]

    /// The store of the app `suite` (its bundle identifier) in the data container the launch
    /// context's `HOME` names. A file that cannot be read starts the store empty, as a
    /// corrupt preferences file does on iOS.
    public init(suite: String, context: LaunchContext) {
        if let home = context.environment["HOME"], !home.isEmpty {
            fileURL = URL(fileURLWithPath: home).appendingPathComponent("Library/Preferences/\(suite).json")
        } else {
            fileURL = nil
        }
        if let fileURL, let data = try? Data(contentsOf: fileURL),
            let values = try? JSONDecoder().decode([String: DefaultsValue].self, from: data)
        {
            stored = values
        }
    }

    /// Registers fallback values, and `volatileDefaults` that, when `isVolatile`, lose what
    /// was set for them since the last registration.
    public func registerDefaults(
        _ defaults: [String: DefaultsValue], volatileDefaults: [String: DefaultsValue] = [:],
        isVolatile: Bool
    ) {
        registered.merge(defaults) { _, new in new }
        registered.merge(volatileDefaults) { _, new in new }
        guard isVolatile else { return }
        let reverted = volatileDefaults.keys.filter { stored[$0] != nil }
        guard !reverted.isEmpty else { return }
        for key in reverted { stored[key] = nil }
        save()
    }

    public func value(forKey key: String) -> DefaultsValue? { stored[key] ?? registered[key] }

    public func bool(forKey key: String) -> Bool {
        switch value(forKey: key) {
        case .bool(let value): value
        case .int(let value): value != 0
        case .string(let value): ["yes", "true", "1"].contains(value.lowercased())
        default: false
        }
    }

    public func string(forKey key: String) -> String? {
        switch value(forKey: key) {
        case .string(let value): value
        case .bool(let value): value ? "YES" : "NO"
        case .int(let value): String(value)
        case .double(let value): String(value)
        case nil: nil
        }
    }

    public func set(_ value: DefaultsValue?, forKey key: String) {
        guard stored[key] != value else { return }
        stored[key] = value
        save()
    }

    public func set(_ value: Bool, forKey key: String) { set(.bool(value), forKey: key) }
    public func set(_ value: String, forKey key: String) { set(.string(value), forKey: key) }
    public func removeObject(forKey key: String) { set(nil, forKey: key) }

    /// Written at once, atomically: an app stopped right after a change keeps it. A write
    /// that fails leaves the value in memory for this launch only (the container is gone).
    private func save() {
        guard let fileURL else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        guard let data = try? encoder.encode(stored) else { return }
        try? FileManager.default.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: fileURL, options: .atomic)
    }
}
