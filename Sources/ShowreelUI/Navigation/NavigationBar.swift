import ShowreelAccessibility
import ShowreelRender

/// The bar at the top of a navigation controller: background, hairline, and one item view
/// per screen it shows (two while a push or pop cross-fades them).
public final class NavigationBar: View {
    public static let inlineHeight = 44.0
    public static let largeTitleHeight = 52.0

    /// This bar's own look, which wins over the appearance proxies (`standardAppearance`).
    public var standardAppearance: NavigationBarAppearance? { didSet { applyAppearance() } }
    /// What the appearance proxies said when the bar came on screen.
    var capturedAppearance = NavigationBarAppearance() { didSet { applyAppearance() } }
    weak var controller: NavigationController?
    private var itemViews: [ObjectIdentifier: NavigationItemView] = [:]
    private var largeTitleOnly = false
    private var topTitle = ""

    public var effectiveAppearance: NavigationBarAppearance { standardAppearance ?? capturedAppearance }

    override init(frame: Rect = .zero) {
        super.init(frame: frame)
        elementType = .navigationBar
        isAccessibilityElement = true
    }

    /// Creates or updates the item views for the screens the controller can show.
    func sync(with controller: NavigationController) {
        var wanted: [Screen] = []
        if let top = controller.topScreen { wanted.append(top) }
        if let transition = controller.transition {
            for screen in [transition.from, transition.to] where !wanted.contains(where: { $0 === screen }) { wanted.append(screen) }
        }
        for screen in wanted {
            let id = ObjectIdentifier(screen)
            let item = itemViews[id] ?? NavigationItemView(bar: self)
            if itemViews[id] == nil { itemViews[id] = item; addSubview(item) }
            item.configure(
                screen: screen, backTitle: controller.backTitle(for: screen), appearance: effectiveAppearance,
                controller: controller)
        }
        // Items of screens no longer shown go.
        for (id, item) in itemViews where !wanted.contains(where: { ObjectIdentifier($0) == id }) {
            item.removeFromSuperview()
            itemViews[id] = nil
        }
        topTitle = controller.topScreen?.title ?? ""
        setNeedsDisplay()
    }

    private func applyAppearance() {
        if let controller { sync(with: controller) }
        setNeedsDisplay()
    }

    /// Lays the items out below `top`, `sides` in from both edges (the width a phone on its side
    /// keeps clear for its sensor housing).
    func layoutItems(top: Double, sides: Double = 0, from: Screen?, to: Screen, progress: Double, isPush: Bool) {
        guard let controller else { return }
        let width = bounds.width - 2 * sides
        let edge = controller.showsLargeTitle(to) && (from == nil || controller.showsLargeTitle(from!))
        if edge != largeTitleOnly { largeTitleOnly = edge; setNeedsDisplay() }
        for (id, item) in itemViews {
            let isTo = id == ObjectIdentifier(to)
            let isFrom = from.map { id == ObjectIdentifier($0) } ?? false
            guard isTo || isFrom else { item.alpha = 0; continue }
            let screen = isTo ? to : from!
            let large = controller.showsLargeTitle(screen)
            item.setShowsLarge(large)  // the screen turned: a phone on its side has inline titles
            let height = NavigationBar.inlineHeight + (large ? NavigationBar.largeTitleHeight : 0)
            // Titles slide a little in the push direction while they cross-fade (from the left in
            // a right-to-left interface).
            let shift = (isPush ? 1.0 : -1.0) * (isRightToLeft ? -1.0 : 1.0)
            let offset = isTo ? width * 0.25 * shift * (1 - progress) : -width * 0.25 * shift * progress
            item.alpha = isTo ? progress : 1 - progress
            item.frame = Rect(x: sides + (from == nil ? 0 : offset), y: top, width: width, height: height)
        }
    }

    public override func draw(in canvas: Canvas) {
        let look = effectiveAppearance
        // The default bar is see-through above a large title (scroll-edge look), opaque otherwise.
        let transparentEdge = look.barTintColor == nil && look.barStyle == .default && largeTitleOnly
        if !transparentEdge {
            canvas.fill(bounds, color: look.resolvedBarColor)
            if let shadow = look.resolvedShadowColor {
                canvas.fill(Rect(x: 0, y: bounds.height - 0.5, width: bounds.width, height: 0.5), color: shadow)
            }
        }
    }

    public override var effectiveAccessibilityLabel: String { accessibilityLabel ?? "" }

    public override func accessibilityNodes(in scene: WindowScene) -> [ElementSnapshot] {
        guard var node = super.accessibilityNodes(in: scene).first else { return [] }
        if accessibilityIdentifier == nil { node.identifier = topTitle }
        return [node]
    }
}

/// One screen's navigation item in the bar: back button, inline title, large title, bar buttons.
final class NavigationItemView: View {
    private(set) weak var bar: NavigationBar?
    let titleLabel = Label("", font: .headline, alignment: .center)
    let largeTitleLabel = Label("", font: .largeTitle)
    var backButton: Button?
    var leftButtons: [Button] = []
    var rightButtons: [Button] = []
    private var showsLarge = false

    init(bar: NavigationBar) {
        self.bar = bar
        super.init()
        addSubview(titleLabel)
        addSubview(largeTitleLabel)
    }

    func configure(screen: Screen, backTitle: String?, appearance: NavigationBarAppearance, controller: NavigationController) {
        titleLabel.text = screen.title
        titleLabel.font = appearance.resolvedTitleFont
        titleLabel.textColor = appearance.resolvedTitleColor
        largeTitleLabel.text = screen.title
        largeTitleLabel.font = appearance.resolvedLargeTitleFont
        largeTitleLabel.textColor = appearance.resolvedLargeTitleColor
        setShowsLarge(controller.showsLargeTitle(screen))
        let tint = appearance.resolvedTint

        backButton?.removeFromSuperview()
        backButton = nil
        if let backTitle, screen.leftBarButtonItems.isEmpty {
            let button = Button(backTitle, style: .plain) { [weak controller] in controller?.pop(animated: true) }
            button.symbol = bar?.isRightToLeft == true ? .chevronRight : .chevronLeft
            button.font = .system(17)
            button.tintColor = tint
            button.titleAlignment = .leading
            button.accessibilityIdentifier = "BackButton"
            backButton = button
            addSubview(button)
        }
        for button in leftButtons + rightButtons { button.removeFromSuperview() }
        leftButtons = screen.leftBarButtonItems.map { makeButton($0, tint: tint) }
        rightButtons = screen.rightBarButtonItems.map { makeButton($0, tint: tint) }
        for button in leftButtons + rightButtons { addSubview(button) }
        setNeedsLayout()
    }

    /// Shows the large title below the bar, or the inline title in it.
    func setShowsLarge(_ large: Bool) {
        guard large != showsLarge || titleLabel.isHidden == largeTitleLabel.isHidden else { return }
        showsLarge = large
        titleLabel.isHidden = large
        largeTitleLabel.isHidden = !large
        setNeedsLayout()
    }

    private func makeButton(_ item: BarButtonItem, tint: Color) -> Button {
        let button = Button(item.symbol == nil ? item.title : "", style: .plain) { [weak item] in item?.action?() }
        button.symbol = item.symbol
        button.font = .system(17, weight: item.style == .done ? .bold : .regular)
        button.tintColor = tint
        button.isEnabled = item.isEnabled
        button.accessibilityIdentifier = item.identifier ?? item.title
        button.accessibilityLabel = item.title
        return button
    }

    // Laid out left to right; mirrored for Arabic and Hebrew (back button on the right).
    override var mirrorsLayoutInRightToLeft: Bool { true }

    override func layoutSubviews() {
        let width = bounds.width
        let rowHeight = NavigationBar.inlineHeight
        var leftEdge = 8.0
        if let backButton {
            let fit = TextMetrics.size(of: backButton.title, font: backButton.font).width + 19 + 6
            backButton.frame = Rect(x: 8, y: 0, width: min(fit, width / 3), height: rowHeight)
            leftEdge = backButton.frame.maxX + 8
        }
        for button in leftButtons {
            let fit = button.sizeThatFits(Size(width: width / 3, height: rowHeight))
            button.frame = Rect(x: leftEdge + 8, y: 0, width: max(fit.width, 30), height: rowHeight)
            leftEdge = button.frame.maxX + 8
        }
        var rightEdge = width - 16
        for button in rightButtons.reversed() {
            let fit = button.sizeThatFits(Size(width: width / 3, height: rowHeight))
            let w = max(fit.width, 30)
            button.frame = Rect(x: rightEdge - w, y: 0, width: w, height: rowHeight)
            rightEdge = button.frame.minX - 8
        }
        let side = max(width - rightEdge, leftEdge)
        titleLabel.frame = Rect(x: side, y: 0, width: max(0, width - 2 * side), height: rowHeight)
        largeTitleLabel.frame = Rect(x: 16, y: rowHeight, width: width - 32, height: NavigationBar.largeTitleHeight - 8)
    }
}
