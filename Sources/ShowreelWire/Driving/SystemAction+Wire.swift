import Foundation

extension AutomationAPI.Routes {
    /// `simctl pbcopy` and `pbpaste`: the device's pasteboard.
    package static let setPasteboard = Route(.put, "/v1/pasteboard")
    package static let pasteboard = Route(.get, "/v1/pasteboard")
    /// `simctl openurl`.
    package static let openURL = Route(.post, "/v1/open-url")

    /// The routes of `SystemAction`s and the reads beside them.
    package static let system: [Route] = [setPasteboard, pasteboard, openURL]
}

extension AutomationAPI {
    /// The pasteboard's text: what `PUT /v1/pasteboard` sets and `GET /v1/pasteboard` answers
    /// (empty when nothing was copied).
    package struct PasteboardText: AutomationBody, Equatable, Sendable {
        public var text: String
        public init(text: String) { self.text = text }
    }

    /// A URL for the app that owns its scheme.
    package struct OpenURL: AutomationBody, Equatable, Sendable {
        public var url: String
        public init(url: String) { self.url = url }
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
        }
    }
}
