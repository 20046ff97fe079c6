import Foundation
import ShowreelAccessibility
import ShowreelRender

/// Insets from each edge, in points.
public struct EdgeInsets: Equatable, Sendable {
    public var top: Double, left: Double, bottom: Double, right: Double
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    public init(all value: Double) { self.init(top: value, left: value, bottom: value, right: value) }
    public static let zero = EdgeInsets()
}

/// A vertically scrolling view: its subviews live in a content area of `contentSize`,
/// shown from `contentOffset`, clipped to its bounds. A finger drag scrolls it (with a
/// rubber band past the ends); on release it keeps going with the drag's speed and slows
/// down as iOS does (deceleration rate 0.998 per millisecond), all on the scene clock.
open class ScrollView: View {
    public var contentSize: Size = .zero { didSet { if contentSize != oldValue { setNeedsDisplay() } } }
    public var contentInset: EdgeInsets = .zero
    public var contentOffset: Point {
        get { boundsOrigin }
        set { boundsOrigin = newValue; onScroll?(self) }
    }
    public var isScrollEnabled = true
    public var showsScrollIndicator = true
    public var onScroll: ((ScrollView) -> Void)?

    public private(set) var isDragging = false
    public private(set) var isDecelerating = false
    public private(set) var isBouncing = false
    private var dragStartOffset = 0.0
    private var dragStartY = 0.0
    private var samples: [(time: Duration, y: Double)] = []

    /// iOS's normal deceleration rate, per millisecond.
    public static let decelerationRate = 0.998

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        clipsToBounds = true
        elementType = .scrollView
    }

    public var minOffsetY: Double { -contentInset.top }
    public var maxOffsetY: Double { max(minOffsetY, contentSize.height + contentInset.bottom - bounds.height) }

    /// Scrolls to an offset (clamped), animated on the scene clock or at once.
    public func setContentOffset(_ offset: Point, animated: Bool) {
        let target = Point(x: offset.x, y: min(max(offset.y, minOffsetY), maxOffsetY))
        guard animated else { stopScrolling(); contentOffset = target; return }
        let start = contentOffset.y
        isDecelerating = true
        animate(
            duration: .milliseconds(300), curve: .easeInOut, key: "scroll",
            { [weak self] p in
                self?.contentOffset = Point(x: target.x, y: start + (target.y - start) * p)
            },
            completion: { [weak self] _ in
                self?.isDecelerating = false; self?.setNeedsDisplay()
            })
    }

    /// Scrolls the least needed to show `rect` (content coordinates).
    public func scrollRectToVisible(_ rect: Rect, animated: Bool) {
        var y = contentOffset.y
        if rect.minY < y + contentInset.top { y = rect.minY - contentInset.top }
        if rect.maxY > y + bounds.height - contentInset.bottom { y = rect.maxY - bounds.height + contentInset.bottom }
        setContentOffset(Point(x: contentOffset.x, y: y), animated: animated)
    }

    /// Stops a deceleration or bounce where it is.
    public func stopScrolling() {
        scene?.cancelAnimation(key: AnimationKey(owner: self, name: "scroll"))
        isDecelerating = false
        isBouncing = false
        setNeedsDisplay()
    }

    // MARK: Dragging (the scene calls these once a drag is recognised)

    func beginDragging(at point: Point, time: Duration) {
        stopScrolling()
        isDragging = true
        dragStartOffset = contentOffset.y
        dragStartY = point.y
        samples = [(time, point.y)]
        setNeedsDisplay()
    }

    func dragged(to point: Point, time: Duration) {
        let raw = dragStartOffset - (point.y - dragStartY)
        contentOffset = Point(x: contentOffset.x, y: rubberBanded(raw))
        samples.append((time, point.y))
        samples.removeAll { time - $0.time > .milliseconds(100) }
        if samples.isEmpty { samples = [(time, point.y)] }
    }

    func endDragging(at point: Point, time: Duration) {
        dragged(to: point, time: time)
        isDragging = false
        // Finger velocity over the last 100 ms (points per second); content moves the other way.
        var velocity = 0.0
        if let first = samples.first, let last = samples.last, last.time > first.time {
            velocity = -(last.y - first.y) / (last.time - first.time).seconds
        }
        samples = []
        let y = contentOffset.y
        if y < minOffsetY || y > maxOffsetY {
            bounceBack()
        } else if abs(velocity) > 50 {
            decelerate(from: y, velocity: velocity)
        }
        setNeedsDisplay()
    }

    private func rubberBanded(_ y: Double) -> Double {
        let dimension = max(bounds.height, 1)
        func band(_ excess: Double) -> Double { (1 - 1 / (excess * 0.55 / dimension + 1)) * dimension }
        if y < minOffsetY { return minOffsetY - band(minOffsetY - y) }
        if y > maxOffsetY { return maxOffsetY + band(y - maxOffsetY) }
        return y
    }

    private func bounceBack() {
        let start = contentOffset.y
        let target = min(max(start, minOffsetY), maxOffsetY)
        isBouncing = true
        animate(
            duration: .milliseconds(400), curve: .easeOut, key: "scroll",
            { [weak self] p in
                guard let self else { return }
                self.contentOffset = Point(x: self.contentOffset.x, y: start + (target - start) * p)
            },
            completion: { [weak self] _ in
                self?.isBouncing = false; self?.setNeedsDisplay()
            })
    }

    private func decelerate(from start: Double, velocity: Double) {
        // v(t) = v0 * d^(1000 t); position(t) = start + v0 (d^(1000 t) - 1) / (1000 ln d).
        let k = 1000 * log(Self.decelerationRate)
        let stopSpeed = 20.0
        let total = log(stopSpeed / abs(velocity)) / k
        guard total > 0 else { return }
        isDecelerating = true
        animate(
            duration: .nanoseconds(Int64(total * 1e9)), curve: .linear, key: "scroll",
            { [weak self] fraction in
                guard let self else { return }
                let t = fraction * total
                let y = start + velocity * (exp(k * t) - 1) / k
                let clamped = min(max(y, self.minOffsetY), self.maxOffsetY)
                self.contentOffset = Point(x: self.contentOffset.x, y: clamped)
                if clamped != y { self.stopScrolling() }
            },
            completion: { [weak self] _ in
                self?.isDecelerating = false; self?.setNeedsDisplay()
            })
    }

    open override func drawOverlay(in canvas: Canvas) {
        guard showsScrollIndicator, isDragging || isDecelerating || isBouncing, contentSize.height > bounds.height else { return }
        let visible = bounds.height - contentInset.top - contentInset.bottom
        let height = max(36, visible * visible / max(contentSize.height, 1))
        let range = max(maxOffsetY - minOffsetY, 1)
        let fraction = min(max((contentOffset.y - minOffsetY) / range, 0), 1)
        let y = contentInset.top + 3 + (visible - height - 6) * fraction
        canvas.fill(
            Rect(x: bounds.width - 6, y: y, width: 3, height: height),
            color: Color(light: Color.black.withAlpha(0.35), dark: Color.white.withAlpha(0.35)), cornerRadius: 1.5)
    }

    open override func touchBegan(at point: Point) -> Bool { false }
}
