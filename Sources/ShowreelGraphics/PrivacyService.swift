/// A service an app needs the person's permission for, by `simctl privacy`'s names (and the
/// camera and notifications, which simctl leaves to the app's prompt).
public enum PrivacyService: String, CaseIterable, Codable, Sendable {
    case calendar, contacts, location
    case locationAlways = "location-always"
    case photos
    case photosAdd = "photos-add"
    case mediaLibrary = "media-library"
    case microphone, motion, reminders, siri, camera, notifications

    /// What the system's permission alert asks for: "“Places” Would Like to Access Your …".
    public var accessedThing: String {
        switch self {
        case .calendar: "Your Calendar"
        case .contacts: "Your Contacts"
        case .location, .locationAlways: "Your Location"
        case .photos: "Your Photos"
        case .photosAdd: "Add to Your Photos"
        case .mediaLibrary: "Apple Music"
        case .microphone: "the Microphone"
        case .motion: "Your Motion & Fitness Activity"
        case .reminders: "Your Reminders"
        case .siri: "Siri"
        case .camera: "the Camera"
        case .notifications: "Send You Notifications"
        }
    }

    /// The names a command line or a flow may use: every service, and `all`.
    public static let namesWithAll = ["all"] + allCases.map(\.rawValue)
}

/// What a person answered an app's request for a service.
public enum PermissionStatus: String, Codable, Sendable, CaseIterable {
    /// Never asked (or reset): the app's next request shows the system's alert.
    case notDetermined
    case granted, denied
}
