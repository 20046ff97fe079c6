import ShowreelAccessibility
import ShowreelRender

extension WindowLevel {
    /// Notification Center: over the app and its keyboard, under the status bar, as on iOS.
    public static let notificationCenter = WindowLevel(WindowLevel.statusBar.rawValue - 1)
}

/// Notification Center: pulled down from the top edge, every notification the device delivered,
/// newest first, each opening its app when tapped; a swipe up from the bottom edge (or the home
/// button) puts it away.
final class NotificationCenterScreen: Screen {
    private let list = ScrollView()
    private let heading = Label("", font: .system(28, weight: .bold))
    private let empty = Label("", font: .system(15), color: .secondaryLabel, alignment: .center)
    private var cards: [NotificationBannerView] = []
    private let topInset: Double

    init(notifications: [SystemNotification], strings: SystemStrings, topInset: Double, open: @escaping (SystemNotification) -> Void) {
        self.topInset = topInset
        super.init(
            title: strings.notificationCenter,
            background: Color(light: Color(hex: 0xE5E5EA, alpha: 0.98), dark: Color(hex: 0x1C1C1E, alpha: 0.98)))
        heading.text = strings.notificationCenter
        empty.text = strings.noNotifications
        cards = notifications.reversed().map { notification in
            let card = NotificationBannerView(notification, strings: strings)
            card.accessibilityIdentifier = "Notification"
            card.onTap = { open(notification) }
            return card
        }
    }

    override func viewDidLoad() {
        view.accessibilityIdentifier = "NotificationCenter"
        view.addSubview(list)
        list.addSubview(heading)
        if cards.isEmpty { list.addSubview(empty) }
        for card in cards { list.addSubview(card) }
    }

    override func layout(safeArea: Rect) {
        list.frame = Rect(x: 0, y: topInset, width: view.bounds.width, height: view.bounds.height - topInset)
        let width = min(view.bounds.width - 16, 500)
        let x = (view.bounds.width - width) / 2
        heading.frame = view.leading(Rect(x: x + 4, y: 8, width: width - 8, height: 44))
        empty.frame = Rect(x: x, y: 72, width: width, height: 24)
        var y = 64.0
        for card in cards {
            card.frame = Rect(x: x, y: y, width: width, height: NotificationBannerView.height)
            y += NotificationBannerView.height + 8
        }
        list.contentSize = Size(width: view.bounds.width, height: y + 40)
    }
}

extension WindowScene {
    /// Notification Center is on screen.
    public var isShowingNotificationCenter: Bool { notificationCenterWindow != nil }

    private var notificationCenterWindow: Window? { windows.first { $0.level == .notificationCenter } }

    /// Pulls Notification Center down over the screen (what a swipe down from the top edge does).
    public func showNotificationCenter() {
        guard !isShowingNotificationCenter else { return }
        hideEditMenu()
        let window = Window(level: .notificationCenter, frame: bounds)
        window.backgroundColor = .clear
        let screen = NotificationCenterScreen(
            notifications: notifications.delivered, strings: systemStrings, topInset: profile.statusBarHeight
        ) { [weak self] notification in
            self?.removeNotificationCenter()
            self?.notifications.requestOpen(notification.bundleIdentifier)
        }
        window.setRootScreen(screen)
        addWindow(window)
        let height = bounds.height
        window.frame.y = -height
        animate(
            duration: AnimationDurations.present, curve: .decelerate, key: AnimationKey(owner: window, name: "notificationCenter"),
            { [weak window] p in window?.frame.y = -height * (1 - p) })
    }

    /// Puts Notification Center away, sliding up.
    public func hideNotificationCenter() {
        guard let window = notificationCenterWindow else { return }
        let start = window.frame.y, height = bounds.height
        animate(
            duration: AnimationDurations.dismiss, curve: .easeIn, key: AnimationKey(owner: window, name: "notificationCenter"),
            { [weak window] p in window?.frame.y = start - (start + height) * p },
            completion: { [weak self, weak window] finished in
                guard finished, let window else { return }
                self?.removeWindow(window)
            })
    }

    /// Gone at once: a tapped notification opens its app.
    private func removeNotificationCenter() {
        guard let window = notificationCenterWindow else { return }
        cancelAnimation(key: AnimationKey(owner: window, name: "notificationCenter"))
        removeWindow(window)
    }
}
