import ShowreelGraphics

/// The system's permission alert, as an app's first request for a service shows it: drawn and
/// driven like any alert (its buttons are `Don't Allow` and `Allow`, or for the location
/// `Allow While Using App`, in the device's language); the answer is kept for the app.
extension Screen {
    /// What the person answered for `service`, for the app in the foreground.
    public func permissionStatus(_ service: PrivacyService) -> PermissionStatus {
        guard let scene, let app = scene.permissions.activeApp else { return .notDetermined }
        return scene.permissions.status(of: service, for: app.bundleIdentifier)
    }

    /// Asks for `service` as iOS's request APIs do: an app that was answered before gets that
    /// answer at once; otherwise the system's alert asks, with `reason` (the app's usage
    /// description) as its message, and `completion` gets the answer. Off screen, or on a
    /// device that runs no app, the answer is no.
    public func requestPermission(_ service: PrivacyService, reason: String? = nil, completion: @escaping (Bool) -> Void) {
        guard let scene, let app = scene.permissions.activeApp else { return completion(false) }
        let store = scene.permissions
        switch store.status(of: service, for: app.bundleIdentifier) {
        case .granted: return completion(true)
        case .denied: return completion(false)
        case .notDetermined: break
        }
        let alert = PermissionAlert.make(service, appName: app.displayName, reason: reason, strings: scene.systemStrings) { granted in
            store.set(granted ? .granted : .denied, for: service, of: app.bundleIdentifier)
            completion(granted)
        }
        // Over whatever the app shows: the alert belongs to the system, not to one screen.
        var top: Screen = rootScreen
        while let presented = top.presentedScreen { top = presented }
        top.present(alert)
    }
}

/// The system's permission alert, in the device's language (`SystemStrings`).
public enum PermissionAlert {
    /// The English title: "Allow “Places” to use your location?" for the location, "“Places”
    /// Would Like to Access Your Photos" and the like for the rest.
    public static func title(_ service: PrivacyService, appName: String) -> String {
        SystemStrings(deviceLanguages: []).permissionTitle(service, appName: appName)
    }

    /// The English button that grants: "Allow While Using App" for the location, "Allow" otherwise.
    public static func allowTitle(_ service: PrivacyService) -> String { SystemStrings(deviceLanguages: []).allowTitle(service) }

    public static let denyTitle = SystemStrings(deviceLanguages: []).denyTitle

    static func make(
        _ service: PrivacyService, appName: String, reason: String?, strings: SystemStrings, answer: @escaping (Bool) -> Void
    ) -> AlertController {
        let alert = AlertController(title: strings.permissionTitle(service, appName: appName), message: reason)
        alert.addAction(AlertAction(title: strings.denyTitle, style: .default) { answer(false) })
        alert.addAction(AlertAction(title: strings.allowTitle(service), style: .default) { answer(true) })
        return alert
    }
}
