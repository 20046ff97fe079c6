import Foundation
import ShowreelGraphics

extension AutomationAPI.Routes {
    /// `simctl pbcopy` and `pbpaste`: the device's pasteboard.
    package static let setPasteboard = Route(.put, "/v1/pasteboard")
    package static let pasteboard = Route(.get, "/v1/pasteboard")
    /// `simctl openurl`.
    package static let openURL = Route(.post, "/v1/open-url")

    /// `simctl privacy`, and what an app was answered.
    package static let privacy = Route(.post, "/v1/privacy")
    package static let permissions = Route(.get, "/v1/apps/:bundle/permissions")

    /// The routes of `SystemAction`s and the reads beside them.
    package static let system: [Route] = [
        setPasteboard, pasteboard, openURL, privacy, permissions, setLocation, clearLocation, location, travel, push, notifications,
        setNetwork, network, setOrientation, orientation, addMedia,
    ]
}

extension AutomationAPI {
    /// The pasteboard's text: what `PUT /v1/pasteboard` sets and `GET /v1/pasteboard` answers
    /// (empty when nothing was copied).
    package struct PasteboardText: AutomationBody, Equatable, Sendable {
        package var text: String
        package init(text: String) { self.text = text }
    }

    /// `POST /v1/privacy`: as `simctl privacy` words it (`service` may be `all`; `bundleIdentifier`
    /// may be left out for `reset`).
    package struct Privacy: AutomationBody, Equatable, Sendable {
        package var action: String
        package var service: String
        package var bundleIdentifier: String?
        package init(action: String, service: String, bundleIdentifier: String?) {
            self.action = action; self.service = service; self.bundleIdentifier = bundleIdentifier
        }
        package init(_ change: PermissionChange) {
            self.init(action: change.action.rawValue, service: change.service?.rawValue ?? "all", bundleIdentifier: change.bundleIdentifier)
        }
        package func change() throws(AutomationInputError) -> PermissionChange {
            try PermissionChange(action: action, service: service, bundleIdentifier: bundleIdentifier)
        }
    }

    /// `GET /v1/apps/{bundle}/permissions`: the services the app was answered for.
    package struct Permissions: Codable, Equatable, Sendable {
        package var permissions: [String: PermissionStatus]
        package init(_ statuses: [PrivacyService: PermissionStatus]) {
            permissions = Dictionary(uniqueKeysWithValues: statuses.map { ($0.key.rawValue, $0.value) })
        }
        /// The statuses by service (names this side does not know are left out).
        package var statuses: [PrivacyService: PermissionStatus] {
            Dictionary(uniqueKeysWithValues: permissions.compactMap { key, value in PrivacyService(rawValue: key).map { ($0, value) } })
        }
    }

    /// A URL for the app that owns its scheme.
    package struct OpenURL: AutomationBody, Equatable, Sendable {
        package var url: String
        package init(url: String) { self.url = url }
    }
}

extension SystemAction {
    /// How the action travels over the automation API (see `ActionRequest`).
    var request: ActionRequest {
        typealias Routes = AutomationAPI.Routes
        switch self {
        case let .setPasteboard(text):
            return ActionRequest(route: Routes.setPasteboard, body: AutomationAPI.PasteboardText(text: text), answer: .ok)
        case let .openURL(url):
            return ActionRequest(route: Routes.openURL, body: AutomationAPI.OpenURL(url: url), answer: .app)
        case let .setPermission(change):
            return ActionRequest(route: Routes.privacy, body: AutomationAPI.Privacy(change), answer: .ok)
        case let .setLocation(coordinate?):
            return ActionRequest(route: Routes.setLocation, body: coordinate, answer: .ok)
        case .setLocation(nil):
            return ActionRequest(route: Routes.clearLocation, body: nil, answer: .ok)
        case let .travel(route):
            return ActionRequest(route: Routes.travel, body: route, answer: .ok)
        case let .push(bundle, payload):
            return ActionRequest(route: Routes.push, bundle: bundle, body: payload, answer: .ok)
        case let .setAirplaneMode(on):
            return ActionRequest(route: Routes.setNetwork, body: AutomationAPI.Network(airplaneMode: on), answer: .ok)
        case let .addMedia(file):
            return ActionRequest(route: Routes.addMedia, body: file, answer: .ok)
        case let .setOrientation(orientation):
            return ActionRequest(route: Routes.setOrientation, body: AutomationAPI.SetOrientation(orientation), answer: .ok)
        }
    }
}
