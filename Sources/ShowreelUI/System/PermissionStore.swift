import ShowreelGraphics

/// The device's record of what each app may use (iOS's TCC database): per app and service,
/// granted, denied or not yet asked. Apps ask through `Screen.requestPermission`; the device
/// grants, revokes and resets from outside (`simctl privacy`).
public final class PermissionStore {
    /// The app in the foreground: the one whose requests the permission alert names.
    public struct ActiveApp: Sendable, Equatable {
        public var bundleIdentifier: String
        public var displayName: String
        public init(bundleIdentifier: String, displayName: String) {
            self.bundleIdentifier = bundleIdentifier
            self.displayName = displayName
        }
    }

    private var answers: [String: [PrivacyService: PermissionStatus]] = [:]
    /// Set by the device as apps come to the foreground.
    public var activeApp: ActiveApp?

    public init() {}

    public func status(of service: PrivacyService, for bundleIdentifier: String) -> PermissionStatus {
        answers[bundleIdentifier]?[service] ?? .notDetermined
    }

    /// Every service the app was answered for (not-yet-asked ones are left out).
    public func statuses(for bundleIdentifier: String) -> [PrivacyService: PermissionStatus] {
        answers[bundleIdentifier] ?? [:]
    }

    /// Records an answer; `.notDetermined` forgets it, so the app asks again.
    public func set(_ status: PermissionStatus, for service: PrivacyService, of bundleIdentifier: String) {
        answers[bundleIdentifier, default: [:]][service] = status == .notDetermined ? nil : status
    }

    /// Forgets the answers for `service` (every service when nil) of `bundleIdentifier` (every
    /// app when nil), as `simctl privacy reset`.
    public func reset(_ service: PrivacyService?, of bundleIdentifier: String?) {
        for bundle in bundleIdentifier.map({ [$0] }) ?? Array(answers.keys) {
            if let service { answers[bundle]?[service] = nil } else { answers[bundle] = nil }
        }
    }
}
