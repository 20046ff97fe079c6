import ShowreelAccessibility
import ShowreelRender

/// A tappable title: a filled rounded button, a tinted "bordered" one, or plain tinted text.
/// It highlights while a finger is down on it and fires when the finger lifts inside.
open class Button: View {
    public enum Style: Sendable { case filled, bordered, plain }

    public var title: String { didSet { if title != oldValue { setNeedsDisplay() } } }
    public var style: Style { didSet { setNeedsDisplay() } }
    public var tintColor: Color = .systemBlue { didSet { setNeedsDisplay() } }
    public var font: Font = .headline { didSet { setNeedsDisplay() } }
    public var symbol: Symbol? { didSet { setNeedsDisplay() } }
    public var titleAlignment: TextAlignment = .center { didSet { setNeedsDisplay() } }
    /// True while a finger is down on the button (drawn darker).
    public var isHighlighted = false { didSet { if isHighlighted != oldValue { setNeedsDisplay() } } }
    public var action: (() -> Void)?

    public init(_ title: String, style: Style = .filled, action: (() -> Void)? = nil) {
        self.title = title
        self.style = style
        self.action = action
        super.init()
        elementType = .button
        isAccessibilityElement = true
        cornerRadius = 12
    }

    open override func sizeThatFits(_ size: Size) -> Size {
        let text = TextMetrics.size(of: title, font: font)
        let symbolWidth = symbol == nil ? 0 : font.size + 6
        switch style {
        case .plain: return Size(width: min(size.width, text.width + symbolWidth + 8), height: 44)
        case .filled, .bordered: return Size(width: min(size.width, text.width + symbolWidth + 40), height: 50)
        }
    }

    open override func draw(in canvas: Canvas) {
        let dim = isHighlighted ? 0.55 : (isEnabled ? 1 : 0.4)
        let foreground: Color
        switch style {
        case .filled:
            canvas.fill(
                bounds, color: (isEnabled ? tintColor : Color.systemGray3).withAlpha(isHighlighted ? 0.7 : 1),
                cornerRadius: cornerRadius)
            foreground = isEnabled ? .white : Color.white.withAlpha(0.8)
        case .bordered:
            canvas.fill(bounds, color: tintColor.withAlpha(isHighlighted ? 0.25 : 0.15), cornerRadius: cornerRadius)
            foreground = tintColor.withAlpha(isEnabled ? 1 : 0.4)
        case .plain:
            foreground = tintColor.withAlpha(dim)
        }
        guard let symbol else {
            canvas.draw(title, in: bounds, font: font, color: foreground, alignment: titleAlignment)
            return
        }
        let side = font.size + 2
        if title.isEmpty {
            symbol.draw(
                in: Rect(x: bounds.midX - side / 2, y: bounds.midY - side / 2, width: side, height: side),
                color: foreground, canvas: canvas)
            return
        }
        let textWidth = TextMetrics.size(of: title, font: font).width
        let total = side + 6 + textWidth
        let x = titleAlignment == .leading ? 0 : bounds.midX - total / 2
        // The symbol leads the title: on its right in a right-to-left interface.
        symbol.draw(in: leading(Rect(x: x, y: bounds.midY - side / 2, width: side, height: side)), color: foreground, canvas: canvas)
        canvas.draw(
            title, in: leading(Rect(x: x + side + 6, y: 0, width: bounds.width - x - side - 6, height: bounds.height)),
            font: font, color: foreground, alignment: .leading)
    }

    // MARK: Touches

    open override func touchBegan(at point: Point) -> Bool {
        guard isEnabled else { return false }
        isHighlighted = true
        return true
    }

    open override func touchMoved(to point: Point) {
        // Like UIKit, the finger may stray a little outside before the button lets go.
        isHighlighted = bounds.expanded(by: 30).contains(point)
    }

    @discardableResult
    open override func touchEnded(at point: Point) -> Bool {
        let inside = bounds.expanded(by: 30).contains(point)
        isHighlighted = false
        return inside ? handleTap() : false
    }

    open override func touchCancelled() { isHighlighted = false }

    open override func handleTap() -> Bool {
        guard isEnabled else { return true }
        action?()
        return true
    }

    open override var effectiveAccessibilityLabel: String { accessibilityLabel ?? title }
}
