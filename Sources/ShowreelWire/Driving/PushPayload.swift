import Foundation
import ShowreelGraphics

/// A push notification's payload in simctl's (and APNs') shape:
///
///     {"aps": {"alert": {"title": "Kate", "subtitle": "Lunch", "body": "At noon?"}, "badge": 1, "sound": "default"},
///      "Simulator Target Bundle": "dev.showreel.mail"}
///
/// `alert` may be a string (the body). An app's own keys beside `aps` are allowed and ignored.
public struct PushPayload: Sendable, Equatable, Codable, CustomReflectable {
    public var title: String?
    public var subtitle: String?
    public var body: String?
    public var badge: Int?
    public var sound: String?
    /// `Simulator Target Bundle`: the app, when the command does not name it.
    public var targetBundle: String?

    public init(title: String? = nil, subtitle: String? = nil, body: String? = nil, badge: Int? = nil, targetBundle: String? = nil) {
        self.title = title; self.subtitle = subtitle; self.body = body; self.badge = badge; self.targetBundle = targetBundle
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let root = try decoder.container(keyedBy: Key.self)
        targetBundle = try root.decodeIfPresent(String.self, forKey: Key("Simulator Target Bundle"))
        let aps = try root.nestedContainer(keyedBy: Key.self, forKey: Key("aps"))
        badge = try aps.decodeIfPresent(Int.self, forKey: Key("badge"))
        sound = try? aps.decodeIfPresent(String.self, forKey: Key("sound"))
        if let text = try? aps.decodeIfPresent(String.self, forKey: Key("alert")) {
            body = text
        } else if aps.contains(Key("alert")) {
            let alert = try aps.nestedContainer(keyedBy: Key.self, forKey: Key("alert"))
            title = try alert.decodeIfPresent(String.self, forKey: Key("title"))
            subtitle = try alert.decodeIfPresent(String.self, forKey: Key("subtitle"))
            body = try alert.decodeIfPresent(String.self, forKey: Key("body"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var root = encoder.container(keyedBy: Key.self)
        try root.encodeIfPresent(targetBundle, forKey: Key("Simulator Target Bundle"))
        var aps = root.nestedContainer(keyedBy: Key.self, forKey: Key("aps"))
        var alert = aps.nestedContainer(keyedBy: Key.self, forKey: Key("alert"))
        try alert.encodeIfPresent(title, forKey: Key("title"))
        try alert.encodeIfPresent(subtitle, forKey: Key("subtitle"))
        try alert.encodeIfPresent(body, forKey: Key("body"))
        try aps.encodeIfPresent(badge, forKey: Key("badge"))
        try aps.encodeIfPresent(sound, forKey: Key("sound"))
    }

    /// A payload carries the app's own keys: the automation API's strict decoding leaves it alone.
    public var customMirror: Mirror { Mirror(self, children: [:], displayStyle: .dictionary) }

    /// The most text one alert field may have (an APNs payload is at most 4 KB).
    package static let maxTextLength = 4096

    func validate() throws(AutomationInputError) {
        guard title?.isEmpty == false || body?.isEmpty == false else {
            throw .outOfRange(field: "aps.alert", message: "needs a title or a body: a notification without text shows nothing")
        }
        for (name, text) in [("title", title), ("subtitle", subtitle), ("body", body)] {
            if let text, text.count > Self.maxTextLength {
                throw .outOfRange(
                    field: "aps.alert.\(name)", message: "must be at most \(Self.maxTextLength) characters, got \(text.count)")
            }
        }
    }
}

extension PushPayload: AutomationBody {}

extension DeviceAction {
    /// `simctl push`: delivers a notification to an app.
    package static func push(_ payload: PushPayload, to bundleIdentifier: String) -> DeviceAction {
        .system(.push(bundle: bundleIdentifier, payload))
    }
}

extension AutomationAPI.Routes {
    /// `simctl push`, and the notifications delivered so far.
    package static let push = Route(.post, "/v1/apps/:bundle/push")
    package static let notifications = Route(.get, "/v1/notifications")
}

extension AutomationAPI {
    /// `GET /v1/notifications`: every notification delivered, oldest first.
    package struct Notifications: Codable, Equatable, Sendable {
        package var notifications: [SystemNotification]
        package init(_ notifications: [SystemNotification]) { self.notifications = notifications }
    }
}
