import ShowreelRender

/// A stack of screens under a navigation bar: push slides a screen in from the right,
/// pop slides it back out; the bar shows the top screen's title (large or inline), a back
/// button with the previous screen's title, and the top screen's bar buttons.
open class NavigationController: Screen {
    public private(set) var screens: [Screen] = []
    public let navigationBar = NavigationBar()
    /// Root screens (and those that inherit) show a large title under the bar.
    public var prefersLargeTitles = false { didSet { view.setNeedsLayout(); refreshBar() } }
    public var isNavigationBarHidden = false { didSet { navigationBar.isHidden = isNavigationBarHidden; view.setNeedsLayout() } }

    struct Transition {
        let from: Screen
        let to: Screen
        let isPush: Bool
        var progress: Double
    }

    private(set) var transition: Transition? { didSet { view.setNeedsLayout() } }
    private var transitionAnimation: AnimationHandle?
    private let shadeView = View()

    public init(rootScreen: Screen) {
        super.init(title: "", background: .systemBackground)
        shadeView.backgroundColor = .black
        shadeView.alpha = 0
        shadeView.isUserInteractionEnabled = false
        navigationBar.controller = self
        screens = [rootScreen]
        rootScreen.parentScreen = self
    }

    public var topScreen: Screen? { screens.last }
    public var rootScreenOfStack: Screen? { screens.first }
    open override var children: [Screen] { screens }

    open override func viewDidLoad() {
        super.viewDidLoad()
        for screen in screens { screen.loadIfNeeded() }
        if let top = topScreen { view.addSubview(top.view) }
        view.addSubview(shadeView)
        view.addSubview(navigationBar)
        // Like UIAppearance: the bar takes the proxies' values as it comes on screen.
        navigationBar.capturedAppearance = appearance.navigationBar
        refreshBar()
    }

    open override var preferredStatusBarStyle: StatusBarStyle {
        isNavigationBarHidden ? (topScreen?.preferredStatusBarStyle ?? .darkContent) : navigationBar.effectiveAppearance.statusBarStyle
    }

    // MARK: Push and pop

    /// Pushes `screen` on the stack (sliding in from the right when animated).
    public func push(_ screen: Screen, animated: Bool = true) {
        finishRunningTransition()
        guard let from = topScreen else { return }
        screen.parentScreen = self
        screens.append(screen)
        guard isLoaded else { return }
        screen.loadIfNeeded()
        arrange(lower: from.view, upper: screen.view)
        refreshBar()
        begin(Transition(from: from, to: screen, isPush: true, progress: 0), animated: animated)
    }

    /// Pops the top screen (it slides out to the right); returns it.
    @discardableResult
    public func pop(animated: Bool = true) -> Screen? {
        finishRunningTransition()
        guard screens.count > 1, let from = screens.popLast(), let to = topScreen else { return nil }
        guard isLoaded else { from.parentScreen = nil; return from }
        arrange(lower: to.view, upper: from.view)
        refreshBar()
        begin(Transition(from: from, to: to, isPush: false, progress: 0), animated: animated)
        return from
    }

    /// Pops everything above the root.
    public func popToRoot(animated: Bool = true) {
        finishRunningTransition()
        guard screens.count > 1 else { return }
        // The screens in between go at once; the top one slides out.
        let top = screens.removeLast()
        for screen in screens.dropFirst() { screen.parentScreen = nil; screen.view.removeFromSuperview() }
        screens = [screens[0]]
        screens.append(top)
        pop(animated: animated)
    }

    /// Replaces the stack without animation.
    public func setScreens(_ newScreens: [Screen]) {
        finishRunningTransition()
        guard !newScreens.isEmpty else { return }
        for screen in screens where !newScreens.contains(where: { $0 === screen }) {
            screen.view.removeFromSuperview()
            screen.parentScreen = nil
            if isAppeared { screen.setAppeared(false) }
        }
        screens = newScreens
        for screen in screens { screen.parentScreen = self }
        guard isLoaded, let top = topScreen else { return }
        top.loadIfNeeded()
        for screen in screens where screen !== top { screen.view.removeFromSuperview() }
        view.insertSubview(top.view, below: shadeView)
        if isAppeared { top.setAppeared(true) }
        refreshBar()
    }

    /// Stacks the two screens of a transition with the shade between them, under the bar.
    private func arrange(lower: View, upper: View) {
        for subview in [lower, shadeView, upper] { subview.removeFromSuperview() }
        let barIndex = view.subviews.firstIndex { $0 === navigationBar } ?? view.subviews.count
        view.insertSubview(lower, at: barIndex)
        view.insertSubview(shadeView, at: barIndex + 1)
        view.insertSubview(upper, at: barIndex + 2)
    }

    private func begin(_ transition: Transition, animated: Bool) {
        if isAppeared {
            transition.from.viewWillDisappear()
            transition.to.viewWillAppear()
        }
        self.transition = transition
        if animated, view.scene != nil {
            transitionAnimation = view.animate(
                duration: AnimationDurations.push, curve: .decelerate, key: "navigation",
                { [weak self] p in
                    self?.transition?.progress = p
                }, completion: { [weak self] _ in self?.completeTransition() })
        } else {
            completeTransition()
        }
    }

    private func finishRunningTransition() {
        if let animation = transitionAnimation, animation.isRunning {
            animation.cancel()
        }
        if transition != nil { completeTransition() }
    }

    private func completeTransition() {
        guard let transition else { return }
        self.transition = nil
        transitionAnimation = nil
        transition.from.view.removeFromSuperview()
        if !transition.isPush { transition.from.parentScreen = nil }
        if isAppeared {
            transition.from.isAppeared = false
            transition.from.viewDidDisappear()
            transition.to.isAppeared = true
            transition.to.viewDidAppear()
        }
        refreshBar()
    }

    /// True while a push or pop animates.
    public var isTransitioning: Bool { transition != nil }

    // MARK: Layout

    func showsLargeTitle(_ screen: Screen) -> Bool {
        guard let index = screens.firstIndex(where: { $0 === screen }) ?? (transition?.from === screen ? screens.count : nil) else {
            return false
        }
        return showsLargeTitle(at: index, screen: screen)
    }

    private func showsLargeTitle(at index: Int, screen: Screen) -> Bool {
        // A phone on its side has no height to spare: titles are inline, as on iOS.
        if let screen = view.scene?.profile, screen.isLandscape, !screen.isTablet { return false }
        switch screen.largeTitleDisplayMode {
        case .always: return true
        case .never: return false
        case .automatic:
            if index == 0 { return prefersLargeTitles }
            let previous = min(index - 1, screens.count - 1)
            return showsLargeTitle(at: previous, screen: screens[previous])
        }
    }

    func barHeight(for screen: Screen) -> Double {
        isNavigationBarHidden ? 0 : NavigationBar.inlineHeight + (showsLargeTitle(screen) ? NavigationBar.largeTitleHeight : 0)
    }

    override func performLayout(safeArea: Rect) {
        layout(safeArea: safeArea)
        let bounds = view.bounds
        let top = safeArea.minY
        var visible: [Screen] = []
        if let transition {
            let p = transition.progress
            let fromHeight = barHeight(for: transition.from), toHeight = barHeight(for: transition.to)
            navigationBar.frame = Rect(x: 0, y: 0, width: bounds.width, height: top + fromHeight + (toHeight - fromHeight) * p)
            let (upper, lower) = transition.isPush ? (transition.to, transition.from) : (transition.from, transition.to)
            // The upper screen covers `coverage` of the width; the lower one moves a third as far.
            let coverage = transition.isPush ? p : 1 - p
            // Pushed screens come in from the trailing edge: the left one in a right-to-left interface.
            let direction = view.isRightToLeft ? -1.0 : 1.0
            upper.view.frame = bounds.offsetBy(dx: direction * bounds.width * (1 - coverage), dy: 0)
            lower.view.frame = bounds.offsetBy(dx: -direction * 0.3 * bounds.width * coverage, dy: 0)
            shadeView.frame = lower.view.frame
            shadeView.alpha = 0.08 * coverage
            navigationBar.layoutItems(
                top: top, sides: safeArea.minX, from: transition.from, to: transition.to, progress: p, isPush: transition.isPush)
            visible = [lower, upper]
        } else if let current = topScreen {
            navigationBar.frame = Rect(x: 0, y: 0, width: bounds.width, height: top + barHeight(for: current))
            current.view.frame = bounds
            shadeView.alpha = 0
            navigationBar.layoutItems(top: top, sides: safeArea.minX, from: nil, to: current, progress: 1, isPush: true)
            visible = [current]
        }
        for screen in visible {
            let contentTop = top + barHeight(for: screen)
            screen.performLayout(
                safeArea: Rect(
                    x: safeArea.minX, y: contentTop, width: safeArea.width,
                    height: max(0, safeArea.maxY - contentTop)))
        }
    }

    // MARK: Bar

    func navigationItemDidChange(_ screen: Screen) { refreshBar() }

    private func refreshBar() {
        guard isLoaded else { return }
        navigationBar.sync(with: self)
        view.setNeedsLayout()
    }

    func backTitle(for screen: Screen) -> String? {
        guard !screen.hidesBackButton,
            let index = screens.firstIndex(where: { $0 === screen }) ?? (transition?.from === screen ? screens.count : nil),
            index > 0
        else { return nil }
        let previous = screens[min(index - 1, screens.count - 1)]
        let title = previous.backButtonTitle ?? previous.title
        return title.isEmpty || title.count > 14 ? "Back" : title
    }
}
