import ShowreelRender

/// A tappable title, drawn as a filled rounded button or as plain tinted text.
open class Button: View {
    public enum Style: Sendable { case filled, plain }

    public var title: String { didSet { if title != oldValue { setNeedsDisplay() } } }
    public var style: Style { didSet { setNeedsDisplay() } }
    public var tintColor: Color = .systemBlue { didSet { setNeedsDisplay() } }
    public var font: Font = .headline { didSet { setNeedsDisplay() } }
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
        return Size(width: min(size.width, text.width + 40), height: 50)
    }

    open override func draw(in canvas: Canvas) {
        let dim = isHighlighted ? 0.6 : (isEnabled ? 1 : 0.4)
        switch style {
        case .filled:
            canvas.fill(bounds, color: tintColor.withAlpha(dim), cornerRadius: cornerRadius)
            canvas.draw(title, in: bounds, font: font, color: .white, alignment: .center)
        case .plain:
            canvas.draw(title, in: bounds, font: font, color: tintColor.withAlpha(dim), alignment: .center)
        }
    }

    open override func handleTap() -> Bool {
        guard isEnabled else { return true }
        action?()
        return true
    }
}
