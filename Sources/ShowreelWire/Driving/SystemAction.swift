import ShowreelGraphics

/// What `simctl` does to a device from outside, rather than a finger on its screen: the
/// pasteboard (`pbcopy`), opening a URL (`openurl`). One case of `DeviceAction` carries them
/// (`.system`), so every front end reaches them the way it reaches a tap, and each new one is
/// added here without touching the finger's vocabulary.
public enum SystemAction: Sendable, Equatable {
    /// Puts text on the device's pasteboard, shared by its apps (`simctl pbcopy`); empty
    /// text empties it.
    case setPasteboard(String)
    /// Opens a URL in the app that declares its scheme, launching or activating it (`simctl
    /// openurl`); the answer is that app's state.
    case openURL(String)
    /// Grants, revokes or resets an app's permission for a service (`simctl privacy`).
    case setPermission(PermissionChange)
    /// Sets the simulated location (`simctl location set`); nil clears it (`simctl location clear`).
    case setLocation(Coordinate?)
    /// Moves the location along a route at a speed on the device clock (`simctl location start`).
    case travel(LocationRoute)
    /// Delivers a notification to an app: its banner slides down over the screen (`simctl push`).
    case push(bundle: String, PushPayload)
    /// Turns airplane mode on or off: no network for apps, an airplane in the status bar.
    case setAirplaneMode(Bool)
    /// Holds the device portrait or on its side; the app on screen turns when it supports it.
    case setOrientation(DeviceOrientation)
    /// Adds a picture or a video to the device's photo library (`simctl addmedia`).
    case addMedia(MediaFile)
}

extension DeviceAction {
    /// `simctl pbcopy`: text onto the device's pasteboard.
    package static func setPasteboard(_ text: String) -> DeviceAction { .system(.setPasteboard(text)) }
    /// `simctl openurl`: the app owning the URL's scheme opens it.
    package static func openURL(_ url: String) -> DeviceAction { .system(.openURL(url)) }
}

extension AutomationLimits {
    /// Characters put on the pasteboard in one request.
    package static let maxPasteboardLength = 100_000
    /// Characters of a URL to open.
    package static let maxURLLength = 8192
}

extension SystemAction {
    /// Checks the action against the limits; the error names the field as the automation API spells it.
    func validate() throws(AutomationInputError) {
        switch self {
        case let .setPasteboard(text):
            guard text.count <= AutomationLimits.maxPasteboardLength else {
                throw .outOfRange(
                    field: "text", message: "must be at most \(AutomationLimits.maxPasteboardLength) characters, got \(text.count)")
            }
        case let .openURL(url):
            guard url.count <= AutomationLimits.maxURLLength else {
                throw .outOfRange(field: "url", message: "must be at most \(AutomationLimits.maxURLLength) characters, got \(url.count)")
            }
            guard URLScheme.of(url) != nil else {
                throw .outOfRange(field: "url", message: "must be a URL with a scheme, such as countries://country/CA, got '\(url)'")
            }
        case let .setPermission(change):
            try change.validate()
        case let .setLocation(coordinate):
            try AutomationLimits.check(coordinate, "location")
        case let .travel(route):
            try AutomationLimits.check(route)
        case let .push(_, payload):
            try payload.validate()
        case .setAirplaneMode, .setOrientation:
            break
        case let .addMedia(file):
            try file.validate()
        }
    }
}

/// The scheme of a URL as a device matches it to an app: the letters before the first ':'
/// (RFC 3986: a letter, then letters, digits, '+', '-', '.'), lowercased.
package enum URLScheme {
    package static func of(_ url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return scheme.lowercased()
    }
}
