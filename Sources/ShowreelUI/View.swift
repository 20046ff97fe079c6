import ShowreelRender

/// A rectangle of the screen that draws itself and its subviews, and describes itself to
/// accessibility (and so to the automation API).
///
/// Frames are in the superview's coordinate space, in points. Changing anything visible
/// calls `setNeedsDisplay()`, which reaches the window scene so the device renders a frame.
open class View {
    public private(set) weak var superview: View?
    public private(set) var subviews: [View] = []

    public var frame: Rect = .zero { didSet { if frame != oldValue { setNeedsLayout() } } }
    public var backgroundColor: Color = .clear { didSet { if backgroundColor != oldValue { setNeedsDisplay() } } }
    public var cornerRadius: Double = 0 { didSet { setNeedsDisplay() } }
    public var isHidden = false { didSet { if isHidden != oldValue { setNeedsDisplay() } } }
    public var alpha: Double = 1 { didSet { if alpha != oldValue { setNeedsDisplay() } } }
    public var isUserInteractionEnabled = true

    // Accessibility: what a test sees of this view.
    public var elementType: ElementType = .other
    public var accessibilityIdentifier: String?
    public var accessibilityLabel: String?
    public var accessibilityValue: String?
    public var isEnabled = true { didSet { if isEnabled != oldValue { setNeedsDisplay() } } }
    /// Whether this view appears as its own element (containers usually do not).
    public var isAccessibilityElement = false

    /// Set on the root view of a window by the scene, so invalidation reaches it.
    var invalidationHandler: (() -> Void)?
    private var needsLayout = true

    public init(frame: Rect = .zero) {
        self.frame = frame
    }

    public var bounds: Rect { Rect(x: 0, y: 0, width: frame.width, height: frame.height) }

    public func addSubview(_ view: View) {
        view.removeFromSuperview()
        subviews.append(view)
        view.superview = self
        setNeedsLayout()
    }

    public func removeFromSuperview() {
        guard let parent = superview else { return }
        parent.subviews.removeAll { $0 === self }
        superview = nil
        parent.setNeedsLayout()
    }

    /// Marks this view as changed; the scene renders a new frame.
    public func setNeedsDisplay() {
        var view: View? = self
        while let current = view {
            if let handler = current.invalidationHandler { handler(); return }
            view = current.superview
        }
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
        }
        for subview in subviews { subview.layoutIfNeeded() }
    }

    /// Override to position subviews inside `bounds`.
    open func layoutSubviews() {}

    /// The size this view would like, given the width it may take.
    open func sizeThatFits(_ size: Size) -> Size { frame.size }

    /// Override to draw content in local coordinates; the background is already drawn.
    open func draw(in canvas: Canvas) {}

    /// Draws the view and its subviews at their frames.
    public func render(in canvas: Canvas) {
        guard !isHidden, alpha > 0 else { return }
        canvas.withState {
            canvas.translate(x: frame.x, y: frame.y)
            canvas.withOpacity(alpha) {
                if backgroundColor.alpha > 0 {
                    canvas.fill(bounds, color: backgroundColor, cornerRadius: cornerRadius)
                }
                draw(in: canvas)
                for subview in subviews { subview.render(in: canvas) }
            }
        }
    }

    /// The deepest visible, interactive view under `point` (in this view's superview space).
    public func hitTest(_ point: Point) -> View? {
        guard !isHidden, alpha > 0.01, isUserInteractionEnabled, frame.contains(point) else { return nil }
        let local = Point(x: point.x - frame.x, y: point.y - frame.y)
        for subview in subviews.reversed() {
            if let hit = subview.hitTest(local) { return hit }
        }
        return self
    }

    /// This view's frame in window (screen) coordinates.
    public var frameInWindow: Rect {
        var rect = frame
        var parent = superview
        while let p = parent {
            rect = rect.offsetBy(dx: p.frame.x, dy: p.frame.y)
            parent = p.superview
        }
        return rect
    }

    /// Called for a tap that ended on this view; buttons and cells override it.
    /// Returns false to let the tap go to the superview.
    open func handleTap() -> Bool { false }
}
