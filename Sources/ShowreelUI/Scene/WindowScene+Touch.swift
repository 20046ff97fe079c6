import ShowreelRender

/// One finger on the screen, from down to up.
final class TouchTracker {
    enum Edge { case left, right, top, bottom }
    let start: Point
    let startTime: Duration
    var last: Point
    weak var target: View?
    weak var hitView: View?
    weak var scrollView: ScrollView?
    var isScrolling = false
    var edge: Edge?
    var edgeRecognized = false

    init(start: Point, time: Duration) {
        self.start = start
        self.startTime = time
        self.last = start
    }
}

extension WindowScene {
    /// How far a finger moves before a drag becomes a scroll (and stops being a tap).
    static let scrollSlop = 10.0
    /// How close to an edge a swipe must start.
    static let edgeWidth = 24.0

    /// A finger goes down (screen points). Buttons highlight, a decelerating list stops.
    public func touchDown(at point: Point) {
        layoutIfNeeded()
        if let previous = activeTouch { touchUp(at: previous.last) }
        let touch = TouchTracker(start: point, time: now)
        activeTouch = touch
        touchIndicator = (point, 1)
        cancelAnimation(key: AnimationKey(owner: self, name: Self.touchIndicatorAnimation))
        let hit = hitView(at: point)
        touch.hitView = hit
        touch.scrollView = sequence(first: hit, next: { $0?.superview }).compactMap { $0 as? ScrollView }
            .first { $0.isScrollEnabled }
        // `.left` is the back swipe's edge: the leading one, on the right in a right-to-left interface.
        let canGoBack = (topNavigationController?.screens.count ?? 0) > 1
        if point.x >= bounds.maxX - Self.edgeWidth { touch.edge = isRightToLeft && canGoBack ? .left : .right }
        if point.x <= Self.edgeWidth, canGoBack, !isRightToLeft { touch.edge = .left }
        // Notification Center comes down from the top edge and goes back up from the bottom one.
        if point.y <= Self.edgeWidth, !isShowingNotificationCenter { touch.edge = .top }
        if point.y >= bounds.maxY - Self.edgeWidth, isShowingNotificationCenter { touch.edge = .bottom }
        if let scroll = touch.scrollView, scroll.isDecelerating || scroll.isBouncing {
            // A finger on a moving list stops it, and that touch is not a tap.
            scroll.stopScrolling()
            touch.target = scroll
            return
        }
        var candidate = hit
        while let view = candidate {
            if view.touchBegan(at: view.convertFromScreen(point)) {
                touch.target = view
                break
            }
            candidate = view.superview
        }
    }

    /// The finger moves: a drag that is mostly vertical scrolls the list under it (the view
    /// that had the touch is cancelled); a swipe in from an edge is recognised.
    public func touchMoved(to point: Point) {
        guard let touch = activeTouch else { return }
        layoutIfNeeded()
        touch.last = point
        touchIndicator = (point, 1)
        let dx = point.x - touch.start.x, dy = point.y - touch.start.y
        if touch.edgeRecognized { return }
        if let edge = touch.edge, !touch.isScrolling, abs(dx) > abs(dy) {
            let backward = isRightToLeft ? -dx : dx
            if (edge == .right && dx < -40) || (edge == .left && backward > 60) {
                touch.edgeRecognized = true
                cancelTarget(of: touch)
                if edge == .right { onEdgeSwipeFromRight?() }
                return
            }
        }
        if let edge = touch.edge, !touch.isScrolling, abs(dy) > abs(dx), (edge == .top && dy > 60) || (edge == .bottom && dy < -60) {
            touch.edgeRecognized = true
            cancelTarget(of: touch)
            if edge == .top { showNotificationCenter() } else { hideNotificationCenter() }
            return
        }
        // A drag from the top or bottom edge belongs to Notification Center, not to a list under it.
        let systemEdge = touch.edge == .top || touch.edge == .bottom
        if let scroll = touch.scrollView, !systemEdge, !touch.isScrolling, abs(dy) > Self.scrollSlop, abs(dy) > abs(dx) {
            touch.isScrolling = true
            if touch.target !== scroll { cancelTarget(of: touch) }
            // The content follows the finger from where it went down (the slop is not lost).
            scroll.beginDragging(at: touch.start, time: touch.startTime)
            scroll.dragged(to: point, time: now)
            return
        }
        if touch.isScrolling {
            touch.scrollView?.dragged(to: point, time: now)
        } else if let target = touch.target {
            target.touchMoved(to: target.convertFromScreen(point))
        }
    }

    /// The finger lifts: a button fires if it is still under it, a list keeps moving with
    /// the drag's speed. Returns the view that handled the touch.
    @discardableResult
    public func touchUp(at point: Point) -> View? {
        guard let touch = activeTouch else { return nil }
        if point != touch.last { touchMoved(to: point) }
        activeTouch = nil
        fadeTouchIndicator()
        layoutIfNeeded()
        if touch.edgeRecognized {
            if touch.edge == .left { topNavigationController?.pop(animated: true) }
            return nil
        }
        if touch.isScrolling, let scroll = touch.scrollView {
            scroll.endDragging(at: point, time: now)
            return scroll
        }
        // A finger that rested on a text field opens its Copy and Paste menu.
        if let field = touch.target as? TextField, now - touch.startTime >= Self.editMenuPress,
            field.bounds.contains(field.convertFromScreen(point))
        {
            showEditMenu(for: field)
            return field
        }
        if let target = touch.target {
            return target.touchEnded(at: target.convertFromScreen(point)) ? target : nil
        }
        // Views that only know `handleTap()` get the tap when it ends inside them.
        var candidate = touch.hitView
        while let view = candidate {
            if view.bounds.contains(view.convertFromScreen(point)), view.handleTap() { return view }
            candidate = view.superview
        }
        return nil
    }

    /// The system took the touch away (nothing fires).
    public func touchCancel() {
        guard let touch = activeTouch else { return }
        activeTouch = nil
        cancelTarget(of: touch)
        if touch.isScrolling { touch.scrollView?.endDragging(at: touch.last, time: now) }
        fadeTouchIndicator()
    }

    /// A finger down and up at the same point. Returns the view that handled it.
    @discardableResult
    public func tap(at point: Point) -> View? {
        touchDown(at: point)
        return touchUp(at: point)
    }

    /// True while a finger is down.
    public var isTouching: Bool { activeTouch != nil }

    private func cancelTarget(of touch: TouchTracker) {
        touch.target?.touchCancelled()
        touch.target = nil
    }

    private func fadeTouchIndicator() {
        guard let indicator = touchIndicator else { return }
        guard showsTouches else { touchIndicator = nil; return }
        animate(
            duration: AnimationDurations.touchIndicatorFade, curve: .easeOut,
            key: AnimationKey(owner: self, name: Self.touchIndicatorAnimation),
            { [weak self] p in
                self?.touchIndicator = (indicator.point, 1 - p)
            }, completion: { [weak self] finished in if finished { self?.touchIndicator = nil } })
    }

    /// The navigation controller at the top of the app (for the back swipe).
    var topNavigationController: NavigationController? {
        guard var screen = appWindow.topPresentedScreen else { return nil }
        var found = screen as? NavigationController
        while let nav = screen as? NavigationController, let top = nav.topScreen {
            found = nav
            screen = top
        }
        return found
    }
}
