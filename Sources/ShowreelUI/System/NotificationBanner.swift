import ShowreelAccessibility
import ShowreelRender

extension WindowLevel {
    /// Notification banners: above alerts, as on iOS.
    public static let notificationBanner = WindowLevel(2500)
}

/// The banner a notification shows: the app's name and icon, "now", the title and the body, in
/// a rounded card that slides down over whatever is on screen. A tap opens its app; it slides
/// away by itself after `NotificationList.bannerTime`.
final class NotificationBannerView: View {
    let notification: SystemNotification
    var onTap: (() -> Void)?
    private let appLabel: Label
    private let timeLabel: Label
    private let titleLabel: Label
    private let bodyLabel: Label

    init(_ notification: SystemNotification, strings: SystemStrings) {
        self.notification = notification
        appLabel = Label(notification.appName.uppercased(), font: .system(13), color: .secondaryLabel)
        timeLabel = Label(strings.now, font: .system(13), color: .secondaryLabel, alignment: .trailing)
        titleLabel = Label(
            [notification.title, notification.subtitle].compactMap { $0 }.joined(separator: " · "), font: .system(15, weight: .bold))
        bodyLabel = Label(notification.body ?? "", font: .system(15), lines: 2)
        super.init(frame: .zero)
        elementType = .other
        isAccessibilityElement = true
        accessibilityIdentifier = "NotificationBanner"
        accessibilityLabel = [notification.appName, notification.title, notification.subtitle, notification.body]
            .compactMap { $0 }.joined(separator: ", ")
        for label in [appLabel, timeLabel, titleLabel, bodyLabel] {
            label.isAccessibilityElement = false
            addSubview(label)
        }
    }

    static let height = 86.0

    /// Icon and app name lead, the time trails: on the right and left in a right-to-left interface.
    override var mirrorsLayoutInRightToLeft: Bool { true }

    override func layoutSubviews() {
        let inset = 14.0, icon = 20.0
        appLabel.frame = Rect(x: inset + icon + 8, y: 10, width: bounds.width - 2 * inset - icon - 60, height: 20)
        timeLabel.frame = Rect(x: bounds.width - inset - 50, y: 10, width: 50, height: 20)
        titleLabel.frame = Rect(x: inset, y: 34, width: bounds.width - 2 * inset, height: 20)
        bodyLabel.frame = Rect(x: inset, y: 54, width: bounds.width - 2 * inset, height: 24)
    }

    override func draw(in canvas: Canvas) {
        canvas.fillShadow(bounds, color: Color.black.withAlpha(0.18), radius: 12, cornerRadius: 18)
        canvas.fill(
            bounds, color: Color(light: Color(hex: 0xF7F7F7, alpha: 0.97), dark: Color(hex: 0x2C2C2E, alpha: 0.97)), cornerRadius: 18)
        let icon = leading(Rect(x: 14, y: 10, width: 20, height: 20))
        canvas.fill(icon, color: .systemBlue, cornerRadius: 5)
        canvas.draw(String(notification.appName.prefix(1)), in: icon, font: .system(13, weight: .bold), color: .white, alignment: .center)
    }

    override func handleTap() -> Bool {
        onTap?()
        return true
    }
}

extension WindowScene {
    /// Delivers a notification: it joins the list, and its banner slides down over the screen
    /// (replacing one already showing).
    @discardableResult
    public func deliver(_ notification: SystemNotification) -> SystemNotification {
        let delivered = notifications.append(notification)
        removeBanner()
        let window = Window(level: .notificationBanner, frame: bounds)
        window.backgroundColor = .clear
        let host = Screen(title: "Notification", background: .clear)
        window.setRootScreen(host)
        let banner = NotificationBannerView(delivered, strings: systemStrings)
        let width = min(bounds.width - 16, 500)
        let restingY = profile.statusBarHeight + 4
        banner.frame = Rect(
            x: (bounds.width - width) / 2, y: -NotificationBannerView.height - 20, width: width, height: NotificationBannerView.height)
        banner.onTap = { [weak self] in self?.openBanner() }
        host.view.addSubview(banner)
        addWindow(window)
        notifications.banner = (delivered, window, banner, nil)
        animate(
            duration: AnimationDurations.present, curve: .decelerate, key: AnimationKey(owner: banner, name: "banner"),
            { [weak banner] p in banner?.frame.y = -NotificationBannerView.height - 20 + (restingY + NotificationBannerView.height + 20) * p
            },
            completion: { [weak self, weak banner] finished in
                guard finished, let self, let banner, self.notifications.banner?.view === banner else { return }
                self.notifications.banner?.shownAt = self.now
            })
        return delivered
    }

    /// A tapped banner: it goes at once, and the device is asked to open its app.
    private func openBanner() {
        guard let notification = notifications.banner?.notification else { return }
        removeBanner()
        notifications.requestOpen(notification.bundleIdentifier)
    }

    private func removeBanner() {
        guard let banner = notifications.banner else { return }
        notifications.banner = nil
        cancelAnimation(key: AnimationKey(owner: banner.view, name: "banner"))
        removeWindow(banner.window)
    }

    /// Slides the banner away once it has shown for `bannerTime` (called as time passes).
    func advanceNotifications(to time: Duration) {
        guard let banner = notifications.banner, let shownAt = banner.shownAt, time >= shownAt + NotificationList.bannerTime else { return }
        notifications.banner?.shownAt = nil
        let view = banner.view
        let start = view.frame.y
        animate(
            duration: AnimationDurations.dismiss, curve: .easeIn, key: AnimationKey(owner: view, name: "banner"),
            { [weak view] p in view?.frame.y = start - (start + NotificationBannerView.height + 20) * p },
            completion: { [weak self, weak view] finished in
                guard finished, let self, let view, self.notifications.banner?.view === view else { return }
                self.removeBanner()
            })
    }

    /// When something the scene keeps time for without animating happens next after `time`:
    /// a route's next location report, a banner's time to leave. The device lets time pass no
    /// further in one step, so the video shows it when it happens.
    public func nextScheduledUpdate(after time: Duration) -> Duration? {
        var next = location.nextUpdate(after: time)
        if let shownAt = notifications.banner?.shownAt {
            let leave = shownAt + NotificationList.bannerTime
            if leave > time { next = min(next ?? leave, leave) }
        }
        return next
    }
}
