import ShowreelAccessibility
import ShowreelRender

/// A button of an alert.
public struct AlertAction {
    public enum Style: Sendable { case `default`, cancel, destructive }
    public var title: String
    public var style: Style
    public var handler: (() -> Void)?

    public init(title: String, style: Style = .default, handler: (() -> Void)? = nil) {
        self.title = title; self.style = style; self.handler = handler
    }
}

/// An alert: title, message and actions, in a window of its own above everything (the
/// screen behind dims). It fades in; tapping an action fades it out and runs the handler.
/// Present it with `screen.present(alert)`.
open class AlertController: Screen {
    public let message: String?
    public private(set) var actions: [AlertAction] = []
    let box = View()
    let titleLabel: Label
    let messageLabel: Label
    private var buttons: [Button] = []
    /// 0...1: how far the fade in (or out) has gone.
    var visibility: Double = 0 { didSet { if visibility != oldValue { view.setNeedsLayout() } } }

    public init(title: String, message: String? = nil) {
        self.message = message
        titleLabel = Label(title, font: .system(17, weight: .bold), alignment: .center, lines: 0)
        messageLabel = Label(message ?? "", font: .system(13), alignment: .center, lines: 0)
        super.init(title: title, background: .clear)
        modalPresentationStyle = .fullScreen
    }

    public func addAction(_ action: AlertAction) {
        actions.append(action)
        if isLoaded { rebuildButtons() }
    }

    open override func viewDidLoad() {
        box.backgroundColor = Color(light: Color(hex: 0xF2F2F2, alpha: 0.97), dark: Color(hex: 0x252525, alpha: 0.97))
        box.cornerRadius = 14
        box.clipsToBounds = true
        box.elementType = .alert
        box.isAccessibilityElement = true
        box.accessibilityIdentifier = title
        box.accessibilityLabel = title
        view.addSubview(box)
        box.addSubview(titleLabel)
        if message != nil { box.addSubview(messageLabel) }
        rebuildButtons()
    }

    private func rebuildButtons() {
        for button in buttons { button.removeFromSuperview() }
        buttons = actions.enumerated().map { index, action in
            let button = AlertButton(action.title, style: .plain) { [weak self] in self?.actionTapped(index) }
            button.font = .system(17, weight: action.style == .cancel ? .bold : .regular)
            button.tintColor = action.style == .destructive ? .systemRed : .systemBlue
            button.cornerRadius = 0
            button.accessibilityIdentifier = action.title
            return button
        }
        for button in buttons { box.addSubview(button) }
        view.setNeedsLayout()
    }

    private func actionTapped(_ index: Int) {
        let action = actions[index]
        dismiss(animated: true)
        action.handler?()
    }

    open override func layout(safeArea: Rect) {
        let width = 270.0
        let textWidth = width - 32
        let titleHeight = titleLabel.sizeThatFits(Size(width: textWidth, height: 1000)).height
        var y = 19.0
        titleLabel.frame = Rect(x: 16, y: y, width: textWidth, height: titleHeight)
        y += titleHeight
        if message != nil {
            let messageHeight = messageLabel.sizeThatFits(Size(width: textWidth, height: 1000)).height
            messageLabel.frame = Rect(x: 16, y: y + 2, width: textWidth, height: messageHeight)
            y += messageHeight + 2
        }
        y += 19
        let sideBySide =
            buttons.count == 2
            && actions.allSatisfy { TextMetrics.size(of: $0.title, font: .system(17)).width < width / 2 - 20 }
        if sideBySide {
            buttons[0].frame = Rect(x: 0, y: y, width: width / 2, height: 44)
            buttons[1].frame = Rect(x: width / 2, y: y, width: width / 2, height: 44)
            y += 44
        } else {
            for button in buttons {
                button.frame = Rect(x: 0, y: y, width: width, height: 44)
                y += 44
            }
        }
        for (index, button) in buttons.enumerated() {
            (button as? AlertButton)?.drawsLeftSeparator = sideBySide && index == 1
        }
        box.frame = Rect(x: view.bounds.midX - width / 2, y: view.bounds.midY - y / 2, width: width, height: y)
        box.alpha = visibility
        box.scale = 1 + 0.15 * (1 - visibility)
    }
}

/// An alert's button: full width, with hairlines above (and between side-by-side buttons).
final class AlertButton: Button {
    var drawsLeftSeparator = false
    static let separator = Color(light: Color(hex: 0x3C3C43, alpha: 0.29), dark: Color(hex: 0x545458, alpha: 0.6))

    override func draw(in canvas: Canvas) {
        if isHighlighted { canvas.fill(bounds, color: .systemGray4) }
        canvas.fill(Rect(x: 0, y: 0, width: bounds.width, height: 0.5), color: Self.separator)
        if drawsLeftSeparator {
            canvas.fill(Rect(x: 0, y: 0, width: 0.5, height: bounds.height), color: Self.separator)
        }
        canvas.draw(title, in: bounds, font: font, color: tintColor, alignment: .center)
    }
}

extension WindowScene {
    /// Shows an alert in a window of its own, fading in.
    func showAlert(_ alert: AlertController, animated: Bool, completion: (() -> Void)?) {
        let window = Window(level: .alert, frame: bounds)
        window.backgroundColor = Color.black.withAlpha(0)
        window.setRootScreen(alert)
        alertWindows.append((alert, window))
        addWindow(window)
        let apply: (Double) -> Void = { [weak alert, weak window] p in
            alert?.visibility = p
            window?.backgroundColor = Color.black.withAlpha(0.2 * p)
        }
        if animated {
            animate(
                duration: AnimationDurations.alertIn, curve: .easeOut, key: AnimationKey(owner: alert, name: "alert"), apply,
                completion: { _ in completion?() })
        } else {
            apply(1)
            completion?()
        }
    }

    /// Fades an alert out and removes its window.
    func hideAlert(_ alert: AlertController, animated: Bool, completion: @escaping () -> Void) {
        guard let entry = alertWindows.first(where: { $0.alert === alert }) else { completion(); return }
        let window = entry.window
        let start = alert.visibility
        let finish: (Bool) -> Void = { [weak self, weak alert] _ in
            guard let self else { return }
            self.alertWindows.removeAll { $0.window === window }
            self.removeWindow(window)
            if let alert, alert.presentingScreen?.presentedScreen === alert { alert.presentingScreen?.presentedScreen = nil }
            alert?.presentingScreen = nil
            completion()
        }
        window.isUserInteractionEnabled = false
        if animated {
            animate(
                duration: AnimationDurations.alertOut, curve: .easeIn, key: AnimationKey(owner: alert, name: "alert"),
                { [weak alert, weak window] p in
                    alert?.visibility = start * (1 - p)
                    window?.backgroundColor = Color.black.withAlpha(0.2 * start * (1 - p))
                }, completion: finish)
        } else {
            finish(true)
        }
    }

    /// The alerts on screen, bottom to top.
    public var visibleAlerts: [AlertController] { alertWindows.map(\.alert) }
}
