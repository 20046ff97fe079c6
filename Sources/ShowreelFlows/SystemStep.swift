import Foundation
import ShowreelGraphics
import ShowreelWire

/// One line of a flow's `permissions` map: a service (nil for `all`) allowed, denied or unset.
package struct FlowPermission: Sendable, Equatable, CustomStringConvertible {
    package var service: PrivacyService?
    package var status: PermissionStatus

    /// Maestro's words for the statuses.
    static let words: [(String, PermissionStatus)] = [("allow", .granted), ("deny", .denied), ("unset", .notDetermined)]

    package var description: String {
        "\(service?.rawValue ?? "all") \(Self.words.first { $0.1 == status }?.0 ?? status.rawValue)"
    }

    /// The device's change for `bundle`.
    func change(for bundle: String) -> PermissionChange {
        let action: PermissionChange.Action = status == .granted ? .grant : status == .denied ? .revoke : .reset
        return PermissionChange(action, service, bundleIdentifier: bundle)
    }
}

/// The flow steps for what simctl does to a device from outside, by Maestro's names:
/// `setClipboard`, `pasteText`, `copyTextFrom`, `openLink`.
package enum SystemStep: Sendable {
    /// `setClipboard: "text"`: the device's pasteboard holds the text.
    case setClipboard(String)
    /// `pasteText`: the pasteboard's text into the focused field (Cmd+V).
    case pasteText
    /// `copyTextFrom: {id: countryName}`: the element's text (its value, else its label) onto the pasteboard.
    case copyTextFrom(FlowStep.Target)
    /// `openLink: countries://country/CA`: the app owning the scheme opens the URL.
    case openLink(String)
    /// `setPermissions: {appId, permissions: {location: allow, all: deny}}` (`simctl privacy`).
    case setPermissions(appId: String?, [FlowPermission])
    /// `setLocation: {latitude, longitude}` (or "lat,lon"): the simulated location.
    case setLocation(Coordinate)
    /// `travel: {points: ["lat,lon", ...], speed: m/s}`: moves along the route and waits until it ends.
    case travel(LocationRoute)
    /// `setAirplaneMode: enabled|disabled`; `toggleAirplaneMode` (nil) switches it.
    case setAirplaneMode(Bool?)
    /// `setOrientation: PORTRAIT|LANDSCAPE_LEFT|LANDSCAPE_RIGHT`: how the device is held.
    case setOrientation(DeviceOrientation)
    /// `addMedia: [cat.png, clip.mp4]` (paths relative to the flow): into the photo library.
    case addMedia([URL])

    /// The steps' names, as a flow writes them.
    static let names = [
        "setClipboard", "pasteText", "copyTextFrom", "openLink", "setPermissions", "setLocation", "travel", "setAirplaneMode",
        "toggleAirplaneMode", "setOrientation", "addMedia",
    ]
    /// Those that take no value.
    static let bareNames: Set = ["pasteText", "toggleAirplaneMode"]

    var summary: String {
        switch self {
        case let .setClipboard(text): "Copy “\(text)”"
        case .pasteText: "Paste"
        case let .copyTextFrom(target): "Copy the text of \(FlowStep.quoted(target))"
        case let .openLink(url): "Open \(url)"
        case let .setAirplaneMode(on): on.map { $0 ? "Turn airplane mode on" : "Turn airplane mode off" } ?? "Toggle airplane mode"
        case let .setLocation(place): "Go to \(place)"
        case let .travel(route): "Travel \(Int(route.length.rounded())) m at \(route.speed.formatted()) m/s"
        case let .setPermissions(_, permissions): "Set permissions: " + permissions.map(\.description).joined(separator: ", ")
        case let .setOrientation(orientation): "Turn the device \(SystemStep.orientationName(orientation))"
        case let .addMedia(files): "Add \(files.map(\.lastPathComponent).joined(separator: ", ")) to the photo library"
        }
    }

    static func example(_ name: String) -> String? {
        switch name {
        case "setClipboard": "setClipboard: \"hello@example.com\""
        case "copyTextFrom": "copyTextFrom: {id: countryName}"
        case "openLink": "openLink: countries://country/CA"
        case "setPermissions": "setPermissions: {permissions: {location: allow}}"
        case "setAirplaneMode": "setAirplaneMode: enabled"
        case "setOrientation": "setOrientation: LANDSCAPE_LEFT"
        case "addMedia": "addMedia: [media/harbour.png]"
        case "setLocation": "setLocation: {latitude: 43.6532, longitude: -79.3832}"
        case "travel": "travel: {points: [\"43.6532,-79.3832\", \"43.6426,-79.3871\"], speed: 20}"
        default: nil
        }
    }
}

extension SystemStep {
    /// Maestro's names for the orientations a device shows apps in.
    static let orientationNames = ["PORTRAIT", "LANDSCAPE_LEFT", "LANDSCAPE_RIGHT"]

    /// Maestro's name for `orientation` (LANDSCAPE_LEFT).
    static func orientationName(_ orientation: DeviceOrientation) -> String {
        orientationNames[DeviceOrientation.allCases.firstIndex(of: orientation)!]
    }
}
