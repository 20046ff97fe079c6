import ShowreelAccessibility
import ShowreelRender

/// Text: one line cut with an ellipsis, or wrapped at words over `numberOfLines` lines
/// (0: as many as the text needs).
open class Label: View {
    public var text: String { didSet { if text != oldValue { setNeedsLayoutAndDisplay() } } }
    public var font: Font { didSet { if font != oldValue { setNeedsLayoutAndDisplay() } } }
    public var textColor: Color { didSet { if textColor != oldValue { setNeedsDisplay() } } }
    public var alignment: TextAlignment { didSet { if alignment != oldValue { setNeedsDisplay() } } }
    public var numberOfLines = 1 { didSet { if numberOfLines != oldValue { setNeedsLayoutAndDisplay() } } }
    public var lineSpacing: Double = 2 { didSet { if lineSpacing != oldValue { setNeedsDisplay() } } }

    public init(
        _ text: String = "", font: Font = .body, color: Color = .label, alignment: TextAlignment = .leading,
        lines: Int = 1
    ) {
        self.text = text
        self.font = font
        self.textColor = color
        self.alignment = alignment
        self.numberOfLines = lines
        super.init()
        elementType = .staticText
        isAccessibilityElement = true
    }

    private func setNeedsLayoutAndDisplay() {
        superview?.setNeedsLayout()
        setNeedsDisplay()
    }

    open override func sizeThatFits(_ size: Size) -> Size {
        if numberOfLines == 1 || text.isEmpty {
            let measured = TextMetrics.size(of: text, font: font)
            return Size(width: min(size.width, measured.width.rounded(.up)), height: (measured.height + 4).rounded(.up))
        }
        let wrapped = TextMetrics.wrappedSize(
            of: text, font: font, width: size.width, maxLines: numberOfLines,
            lineSpacing: lineSpacing)
        return Size(width: min(size.width, wrapped.width.rounded(.up)), height: (wrapped.height + 4).rounded(.up))
    }

    open override func draw(in canvas: Canvas) {
        if numberOfLines == 1 {
            canvas.draw(text, in: bounds, font: font, color: textColor, alignment: alignment)
        } else {
            canvas.drawWrapped(
                text, in: bounds, font: font, color: textColor, alignment: alignment,
                maxLines: numberOfLines, lineSpacing: lineSpacing, centered: true)
        }
    }

    // Labels describe themselves by their text unless told otherwise.
    open override var effectiveAccessibilityLabel: String { accessibilityLabel ?? text }
}
