/// A notification delivered to an app (a push, in simctl's payload shape), as the banner and
/// the notification list show it.
public struct SystemNotification: Sendable, Equatable, Codable {
    /// Its place in the device's list, from 1.
    public var id: Int
    public var bundleIdentifier: String
    public var appName: String
    public var title: String?
    public var subtitle: String?
    public var body: String?
    public var badge: Int?
    /// Seconds on the device clock when it arrived.
    public var time: Double

    public init(
        id: Int = 0, bundleIdentifier: String, appName: String, title: String?, subtitle: String? = nil, body: String?,
        badge: Int? = nil, time: Double = 0
    ) {
        self.id = id; self.bundleIdentifier = bundleIdentifier; self.appName = appName
        self.title = title; self.subtitle = subtitle; self.body = body; self.badge = badge; self.time = time
    }
}
