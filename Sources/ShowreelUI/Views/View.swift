import ShowreelAccessibility
import ShowreelRender

/// A rectangle of the screen that draws itself and its subviews, and describes itself to
/// accessibility (and so to the automation API).
///
/// Frames are in the superview's coordinate space, in points. Changing anything visible
/// calls `setNeedsDisplay()`, which reaches the window scene so the device renders a frame.
/// A view whose `boundsOrigin` is not zero shows its subviews shifted (a scroll view's
/// content offset); with `clipsToBounds` it draws (and hit-tests) nothing outside itself.
open class View {
    public private(set) weak var superview: View?
    public private(set) var subviews: [View] = []

    public var frame: Rect = .zero { didSet { if frame != oldValue { setNeedsLayout() } } }
    public var backgroundColor: Color = .clear { didSet { if backgroundColor != oldValue { setNeedsDisplay() } } }
    public var cornerRadius: Double = 0 { didSet { if cornerRadius != oldValue { setNeedsDisplay() } } }
    /// Which corners `cornerRadius` rounds (a sheet rounds only its top corners).
    public var maskedCorners: RectCorners = .all { didSet { if maskedCorners != oldValue { setNeedsDisplay() } } }
    public var isHidden = false { didSet { if isHidden != oldValue { setNeedsDisplay() } } }
    public var alpha: Double = 1 { didSet { if alpha != oldValue { setNeedsDisplay() } } }
    /// Drawn scaled about its centre (drawing only: layout and touches ignore it).
    public var scale: Double = 1 { didSet { if scale != oldValue { setNeedsDisplay() } } }
    public var clipsToBounds = false { didSet { if clipsToBounds != oldValue { setNeedsDisplay() } } }
    /// Where the subviews' coordinate space starts: a scroll view's content offset.
    public var boundsOrigin: Point = .zero { didSet { if boundsOrigin != oldValue { setNeedsDisplay() } } }
    public var isUserInteractionEnabled = true

    // Accessibility: what a test sees of this view.
    public var elementType: ElementType = .other
    public var accessibilityIdentifier: String?
    public var accessibilityLabel: String?
    public var accessibilityValue: String?
    public var accessibilityPlaceholder: String?
    public var isEnabled = true { didSet { if isEnabled != oldValue { setNeedsDisplay() } } }
    /// Whether this view appears as its own element (containers usually do not).
    public var isAccessibilityElement = false

    /// Set on the root view of a window by the scene, so invalidation reaches it: of the view
    /// passed, or only of a rectangle of the screen (in points).
    var invalidationHandler: ((View, Rect?) -> Void)?
    /// The area of the screen, in pixels, that this view and its subviews drew on when last
    /// rendered: where a change to it shows, before and after (see `WindowScene.changedAreas`).
    var renderedArea: PixelArea?
    private var needsLayout = true

    public init(frame: Rect = .zero) {
        self.frame = frame
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: frame.width, height: frame.height) }

    /// The part of the subviews' space that is visible (bounds shifted by `boundsOrigin`).
    public var visibleContentRect: Rect {
        Rect(x: boundsOrigin.x, y: boundsOrigin.y, width: frame.width, height: frame.height)
    }

    public func addSubview(_ view: View) {
        view.removeFromSuperview()
        subviews.append(view)
        view.superview = self
        setNeedsLayout()
    }

    public func insertSubview(_ view: View, at index: Int) {
        view.removeFromSuperview()
        subviews.insert(view, at: min(max(index, 0), subviews.count))
        view.superview = self
        setNeedsLayout()
    }

    public func insertSubview(_ view: View, below sibling: View) {
        view.removeFromSuperview()
        let index = subviews.firstIndex { $0 === sibling } ?? subviews.count
        insertSubview(view, at: index)
    }

    public func removeFromSuperview() {
        guard let parent = superview else { return }
        parent.subviews.removeAll { $0 === self }
        superview = nil
        parent.setNeedsLayout()
    }

    /// Removes every subview.
    public func removeAllSubviews() {
        for view in subviews { view.superview = nil }
        subviews.removeAll()
        setNeedsLayout()
    }

    /// True when `view` is this view or inside it.
    public func isDescendant(of view: View) -> Bool {
        var current: View? = self
        while let c = current {
            if c === view { return true }
            current = c.superview
        }
        return false
    }

    /// The window this view is in, if any.
    public var window: Window? {
        var current: View = self
        while let parent = current.superview { current = parent }
        return current as? Window
    }

    /// The scene this view is on screen in, if any (for time, focus and animations).
    public var scene: WindowScene? { window?.attachedScene }

    /// Marks this view as changed; the scene renders a new frame. What the view (and its
    /// subviews) drew, and will draw, is all that may change on screen: state that a view
    /// draws from must call this when it changes, or recordings may miss the change.
    public func setNeedsDisplay() {
        invalidate(nil)
    }

    /// Marks only `rect` (in this view's coordinates) as changed: for a change that is not the
    /// whole view, such as a pop-up a keyboard draws over its keys, so a recording redoes less
    /// of the screen. `rect` must cover what the change drew before and draws now.
    public func setNeedsDisplay(_ rect: Rect) {
        invalidate(rect)
    }

    /// Walks up to the root that reports to the scene, carrying `rect` into each superview's
    /// coordinates and, at the root, into the screen's (where the scene draws the root).
    private func invalidate(_ rect: Rect?) {
        var root: View = self
        while root.invalidationHandler == nil {
            guard let parent = root.superview else { return }
            root = parent
        }
        root.invalidationHandler?(self, rect.map { rectOnScreen($0, upTo: root) })
    }

    /// `rect` in this view's coordinates, where the superview draws it (scaled about the
    /// view's centre, at its frame's origin; before the superview's own `boundsOrigin` shift).
    private func rectInSuperview(_ rect: Rect) -> Rect {
        let centre = Point(x: frame.width / 2, y: frame.height / 2)
        return Rect(
            x: frame.x + centre.x + (rect.x - centre.x) * scale, y: frame.y + centre.y + (rect.y - centre.y) * scale,
            width: rect.width * scale, height: rect.height * scale)
    }

    public func setNeedsLayout() {
        needsLayout = true
        setNeedsDisplay()
    }

    /// Lays out subviews if anything changed since the last layout (called before drawing).
    public func layoutIfNeeded() {
        if needsLayout {
            needsLayout = false
            layoutSubviews()
            if mirrorsLayoutInRightToLeft && isRightToLeft {
                for subview in subviews { subview.frame = leading(subview.frame) }
            }
        }
        for subview in subviews { subview.layoutIfNeeded() }
    }

    /// Marks this view and every view inside it for layout (the interface's direction changed).
    func setNeedsLayoutRecursively() {
        setNeedsLayout()
        for subview in subviews { subview.setNeedsLayoutRecursively() }
    }

    /// Whether the interface this view is in reads right to left: leading edges are on the
    /// right (layouts mirror what they place by it).
    public var isRightToLeft: Bool { scene?.isRightToLeft ?? false }

    /// `rect` (in this view's coordinates) moved to the mirrored place when the interface reads
    /// right to left: what a layout computed from the left edge lands at the leading edge.
    public func leading(_ rect: Rect) -> Rect {
        isRightToLeft ? Rect(x: bounds.width - rect.maxX, y: rect.y, width: rect.width, height: rect.height) : rect
    }

    /// Whether `layoutSubviews()` places every subview from the left edge and expects the
    /// toolkit to mirror those frames in a right-to-left interface (cells, bar items). Only for
    /// views whose layout sets all their subviews' frames each time, so none is mirrored twice.
    open var mirrorsLayoutInRightToLeft: Bool { false }

    /// Override to position subviews inside `bounds`.
    open func layoutSubviews() {}

    /// The size this view would like, given the width it may take.
    open func sizeThatFits(_ size: Size) -> Size { frame.size }

    /// Override to draw content in local coordinates; the background is already drawn.
    open func draw(in canvas: Canvas) {}

    /// Override to draw above the subviews, in local coordinates (scroll indicators, key pop-ups).
    open func drawOverlay(in canvas: Canvas) {}

    /// Draws the view and its subviews at their frames.
    public func render(in canvas: Canvas) {
        guard !isHidden, alpha > 0.001, scale > 0.001 else {
            renderedArea = nil
            return
        }
        guard let limit = canvas.limit else {
            renderedArea = canvas.inkArea { drawTree(in: canvas) }
            return
        }
        // A render of part of the screen: a subtree that changed nothing and drew elsewhere
        // keeps its pixels (and its area), unvisited.
        let id = ObjectIdentifier(self)
        if let area = renderedArea, limit.mayReuse(id, drawnOn: area) {
            canvas.noteInk(area)
            return
        }
        let changed = limit.entering(id)
        renderedArea = canvas.inkArea { drawTree(in: canvas) }
        if changed { limit.leaving() }
    }

    /// Where `rect` (in this view's coordinates) lands on the screen: carried up through each
    /// superview to the root (or to `top`), and placed where that draws it.
    func rectOnScreen(_ rect: Rect, upTo top: View? = nil) -> Rect {
        var area = rect
        var view: View = self
        while true {
            area = view.rectInSuperview(area)
            guard view !== top, let parent = view.superview else { return area }
            area = area.offsetBy(dx: -parent.boundsOrigin.x, dy: -parent.boundsOrigin.y)
            view = parent
        }
    }

    private func drawTree(in canvas: Canvas) {
        canvas.withState {
            canvas.translate(x: frame.x, y: frame.y)
            if scale != 1 {
                canvas.translate(x: frame.width / 2, y: frame.height / 2)
                canvas.scale(x: scale, y: scale)
                canvas.translate(x: -frame.width / 2, y: -frame.height / 2)
            }
            if alpha < 1 && subviews.isEmpty && type(of: self) == View.self {
                // A plain translucent view (a dimming or shade layer) is just a fill: no group needed.
                if backgroundColor.alpha > 0 {
                    let color = backgroundColor.withAlpha(backgroundColor.alpha * alpha)
                    if cornerRadius > 0 && maskedCorners != .all {
                        canvas.fill(bounds, color: color, cornerRadius: cornerRadius, corners: maskedCorners)
                    } else {
                        canvas.fill(bounds, color: color, cornerRadius: cornerRadius)
                    }
                }
                return
            }
            // A group for a fade is only as large as the view (Cairo sizes it by the clip).
            if alpha < 1 { canvas.clip(to: bounds.expanded(by: 2)) }
            canvas.withOpacity(alpha) {
                let rounded = cornerRadius > 0
                if clipsToBounds {
                    if rounded && maskedCorners != .all {
                        canvas.clip(to: Path(roundedRect: bounds, radius: cornerRadius, corners: maskedCorners))
                    } else {
                        canvas.clip(to: bounds, cornerRadius: cornerRadius)
                    }
                }
                if backgroundColor.alpha > 0 && !leavesOutBackground(in: canvas) {
                    if rounded && maskedCorners != .all {
                        canvas.fill(bounds, color: backgroundColor, cornerRadius: cornerRadius, corners: maskedCorners)
                    } else {
                        canvas.fill(bounds, color: backgroundColor, cornerRadius: cornerRadius)
                    }
                }
                draw(in: canvas)
                if !subviews.isEmpty {
                    let visible = visibleContentRect
                    canvas.withState {
                        if boundsOrigin != .zero { canvas.translate(x: -boundsOrigin.x, y: -boundsOrigin.y) }
                        for subview in subviews {
                            // Clipped views skip what cannot show: long lists draw only their visible rows.
                            if clipsToBounds && !subview.frame.intersects(visible) { continue }
                            subview.render(in: canvas)
                        }
                    }
                }
                drawOverlay(in: canvas)
            }
        }
    }

    /// The deepest visible, interactive view under `point` (in this view's superview space).
    open func hitTest(_ point: Point) -> View? {
        // The point's place first: most views a hit test passes are beside the point, and an
        // element tree hit-tests every element's centre.
        let frame = frame
        guard frame.contains(point), !isHidden, alpha > 0.01, isUserInteractionEnabled else { return nil }
        let origin = boundsOrigin
        let local = Point(x: point.x - frame.x + origin.x, y: point.y - frame.y + origin.y)
        let children = subviews
        var index = children.count
        while index > 0 {
            index -= 1
            if let hit = children[index].hitTest(local) { return hit }
        }
        return self
    }

    /// This view's frame in window (screen) coordinates.
    public var frameInWindow: Rect {
        var rect = frame
        var parent = superview
        while let p = parent {
            rect = rect.offsetBy(dx: p.frame.x - p.boundsOrigin.x, dy: p.frame.y - p.boundsOrigin.y)
            parent = p.superview
        }
        return rect
    }

    /// A point in screen coordinates, in this view's local coordinates.
    public func convertFromScreen(_ point: Point) -> Point {
        let origin = frameInWindow
        return Point(x: point.x - origin.x, y: point.y - origin.y)
    }

    // MARK: Touches

    /// A finger went down on this view (or a subview that did not want it), at a local point.
    /// Return true to receive the rest of the touch; false passes it to the superview.
    open func touchBegan(at point: Point) -> Bool { false }
    /// The finger moved (local coordinates, possibly outside the view).
    open func touchMoved(to point: Point) {}
    /// The finger lifted (local coordinates). Returns whether the touch did something.
    @discardableResult
    open func touchEnded(at point: Point) -> Bool { bounds.contains(point) ? handleTap() : false }
    /// The touch was taken away (a scroll started, a gesture was recognised).
    open func touchCancelled() {}

    /// Called for a tap that ended on this view; buttons and cells override it.
    /// Returns false to let the tap go to the superview.
    open func handleTap() -> Bool { false }

    // MARK: Accessibility

    /// The label the accessibility tree shows (labels and buttons default to their text).
    open var effectiveAccessibilityLabel: String { accessibilityLabel ?? "" }
    /// The value the accessibility tree shows (a switch's "1"/"0", a text field's text).
    open var effectiveAccessibilityValue: String? { accessibilityValue }

    /// The elements this view contributes to the tree: itself (holding its descendants'
    /// elements) when it is an element, else its descendants' elements.
    open func accessibilityNodes(in scene: WindowScene) -> [ElementSnapshot] {
        let children = accessibilityChildNodes(in: scene)
        guard isAccessibilityElement else { return children }
        let frame = frameInWindow
        return [
            ElementSnapshot(
                type: elementType, identifier: accessibilityIdentifier ?? "", label: effectiveAccessibilityLabel,
                value: effectiveAccessibilityValue, placeholder: accessibilityPlaceholder, frame: frame,
                isEnabled: isEnabled, isHittable: scene.isHittable(self, frame: frame), children: children)
        ]
    }

    /// The elements of the visible subviews (clipped views leave out what lies outside them).
    public func accessibilityChildNodes(in scene: WindowScene) -> [ElementSnapshot] {
        var result: [ElementSnapshot] = []
        let visible = visibleContentRect
        for subview in subviews where !subview.isHidden && subview.alpha > 0.01 {
            if clipsToBounds && !subview.frame.intersects(visible) { continue }
            result += subview.accessibilityNodes(in: scene)
        }
        return result
    }

    // MARK: Animation

    /// Animates on this view's scene clock; off screen, the end state applies at once.
    @discardableResult
    public func animate(
        duration: Duration, curve: AnimationCurve = .easeInOut, key: String? = nil,
        _ update: @escaping (Double) -> Void, completion: ((Bool) -> Void)? = nil
    ) -> AnimationHandle {
        if let scene {
            return scene.animate(
                duration: duration, curve: curve, key: key.map { AnimationKey(owner: self, name: $0) },
                update, completion: completion)
        }
        update(1)
        completion?(true)
        return AnimationHandle(scene: nil, id: -1)
    }
}

extension Rect {
    /// The rectangle grown (negative insets shrink it) on every side.
    func expanded(by amount: Double) -> Rect { insetBy(dx: -amount, dy: -amount) }
}
