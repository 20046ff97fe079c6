import ShowreelRender

/// One line of text.
open class Label: View {
    public var text: String { didSet { if text != oldValue { setNeedsDisplay() } } }
    public var font: Font { didSet { setNeedsDisplay() } }
    public var textColor: Color { didSet { setNeedsDisplay() } }
    public var alignment: TextAlignment { didSet { setNeedsDisplay() } }

    public init(_ text: String = "", font: Font = .body, color: Color = .label, alignment: TextAlignment = .leading) {
        self.text = text
        self.font = font
        self.textColor = color
        self.alignment = alignment
        super.init()
        elementType = .staticText
        isAccessibilityElement = true
    }

    open override func sizeThatFits(_ size: Size) -> Size {
        let measured = TextMetrics.size(of: text, font: font)
        return Size(width: min(size.width, measured.width.rounded(.up)), height: (measured.height + 4).rounded(.up))
    }

    open override func draw(in canvas: Canvas) {
        canvas.draw(text, in: bounds, font: font, color: textColor, alignment: alignment)
    }
}

extension Label {
    // Labels describe themselves by their text unless told otherwise.
    public var effectiveAccessibilityLabel: String { accessibilityLabel ?? text }
}
