import ShowreelGraphics

/// `simctl privacy <device> grant|revoke|reset <service> [<bundle id>]`: an app's permission
/// for a service (or for every service: `all`) granted, revoked, or reset so the app asks again.
public struct PermissionChange: Sendable, Equatable, Codable {
    public enum Action: String, Sendable, Codable, CaseIterable { case grant, revoke, reset }

    public var action: Action
    /// One service, or nil for every service (`all`).
    public var service: PrivacyService?
    /// The app; nil only for `reset`, which then resets every app.
    public var bundleIdentifier: String?

    public init(_ action: Action, _ service: PrivacyService?, bundleIdentifier: String?) {
        self.action = action
        self.service = service
        self.bundleIdentifier = bundleIdentifier
    }

    /// The status the change leaves.
    package var status: PermissionStatus {
        switch action {
        case .grant: .granted
        case .revoke: .denied
        case .reset: .notDetermined
        }
    }

    /// A change from the words a person writes (`grant location dev.showreel.places`); the
    /// error says which word is wrong and what it may be.
    package init(action: String, service: String, bundleIdentifier: String?) throws(AutomationInputError) {
        guard let verb = Action(rawValue: action) else {
            throw .outOfRange(
                field: "action",
                message: "must be grant, revoke or reset, got '\(action)'\(Spelling.hint(for: action, in: Action.allCases.map(\.rawValue)))"
            )
        }
        let named: PrivacyService?
        if service == "all" {
            named = nil
        } else if let known = PrivacyService(rawValue: service) {
            named = known
        } else {
            throw .outOfRange(
                field: "service",
                message: "must be one of \(PrivacyService.namesWithAll.joined(separator: ", ")), got '\(service)'"
                    + Spelling.hint(for: service, in: PrivacyService.namesWithAll))
        }
        self.init(verb, named, bundleIdentifier: bundleIdentifier)
        try validate()
    }

    /// Grant and revoke name an app; reset may leave it out (every app).
    func validate() throws(AutomationInputError) {
        if action != .reset, bundleIdentifier?.isEmpty != false {
            throw .outOfRange(field: "bundleIdentifier", message: "is needed to \(action.rawValue) a permission: name the app")
        }
    }
}

extension DeviceAction {
    /// `simctl privacy`: grant, revoke or reset an app's permission for a service.
    package static func setPermission(_ change: PermissionChange) -> DeviceAction { .system(.setPermission(change)) }
}
