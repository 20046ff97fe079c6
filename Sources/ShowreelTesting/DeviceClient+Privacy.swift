import ShowreelGraphics
import ShowreelWire

/// `simctl privacy` for Swift tests: an app's permissions set before it asks.
extension DeviceClient {
    /// Grants, revokes or resets an app's permission for `service` (nil: every service); reset
    /// without an app resets every app.
    /// - Throws: `DeviceClient.Failure` for an app that is not installed, or grant and revoke without one.
    public func privacy(_ action: PermissionChange.Action, _ service: PrivacyService?, bundleIdentifier: String?) async throws {
        _ = try await perform(.setPermission(PermissionChange(action, service, bundleIdentifier: bundleIdentifier)))
    }
}
