import ShowreelGraphics

/// The device's notifications: every one delivered (the list), the banner showing the latest,
/// and the app a tapped banner asks the device to open.
public final class NotificationList {
    public private(set) var delivered: [SystemNotification] = []
    /// The banner on screen, its window, and the scene time it finished sliding in (nil while sliding).
    var banner: (notification: SystemNotification, window: Window, view: NotificationBannerView, shownAt: Duration?)?
    /// A tapped banner's app, for the device to bring to the foreground.
    private var openRequest: String?

    /// How long a banner stays before it slides away by itself.
    public static let bannerTime: Duration = .seconds(5)

    public init() {}

    func append(_ notification: SystemNotification) -> SystemNotification {
        var numbered = notification
        numbered.id = delivered.count + 1
        delivered.append(numbered)
        return numbered
    }

    func requestOpen(_ bundleIdentifier: String) { openRequest = bundleIdentifier }

    /// The app a tapped banner opens, once (the device asks after every touch).
    public func takeOpenRequest() -> String? {
        defer { openRequest = nil }
        return openRequest
    }

    /// The notification the banner shows, if one does.
    public var bannerNotification: SystemNotification? { banner?.notification }
}
