import ShowreelAccessibility
import ShowreelRender

/// The title of the keyboard's Return key for a field.
public enum ReturnKeyType: Sendable, Hashable {
    case `default`, go, join, next, done, send, search
    var title: String {
        switch self {
        case .default: return "return"
        case .go: return "go"
        case .join: return "join"
        case .next: return "next"
        case .done: return "done"
        case .send: return "send"
        case .search: return "search"
        }
    }
}

/// An editable line of text: placeholder, focus (first responder) with a caret, secure entry
/// drawn as dots. Tapping it focuses it and the software keyboard slides in; Return calls
/// `onReturn` (by default the field gives up focus and the keyboard slides out).
open class TextField: View {
    public enum BorderStyle: Sendable { case none, roundedRect }

    public var text: String { didSet { if text != oldValue { setNeedsDisplay(); onChange?(text) } } }
    public var placeholder: String { didSet { accessibilityPlaceholder = placeholder; setNeedsDisplay() } }
    public var isSecureTextEntry = false { didSet { elementType = isSecureTextEntry ? .secureTextField : .textField; setNeedsDisplay() } }
    public var font: Font = .body { didSet { setNeedsDisplay() } }
    public var textColor: Color = .label { didSet { setNeedsDisplay() } }
    public var tintColor: Color = .systemBlue { didSet { setNeedsDisplay() } }
    public var textAlignment: TextAlignment = .leading { didSet { setNeedsDisplay() } }
    public var borderStyle: BorderStyle { didSet { setNeedsDisplay() } }
    public var returnKeyType: ReturnKeyType = .default
    public var onChange: ((String) -> Void)?
    /// Return was tapped. Nil: the field resigns focus.
    public var onReturn: ((TextField) -> Void)?

    public init(text: String = "", placeholder: String = "", borderStyle: BorderStyle = .roundedRect) {
        self.text = text
        self.placeholder = placeholder
        self.borderStyle = borderStyle
        super.init()
        elementType = .textField
        isAccessibilityElement = true
        accessibilityPlaceholder = placeholder
        if borderStyle == .roundedRect { cornerRadius = 8 }
    }

    /// True while this field has focus.
    public var isFirstResponder: Bool { scene?.firstResponder === self }

    /// Focuses the field (the keyboard slides in). False when it is not on screen.
    @discardableResult
    public func becomeFirstResponder() -> Bool {
        guard let scene, isEnabled else { return false }
        scene.setFirstResponder(self)
        return true
    }

    /// Gives up focus (the keyboard slides out).
    @discardableResult
    public func resignFirstResponder() -> Bool {
        guard let scene, scene.firstResponder === self else { return false }
        scene.setFirstResponder(nil)
        return true
    }

    func focusDidChange() { setNeedsDisplay() }

    func apply(_ edit: KeyboardEdit) {
        switch edit {
        case .insert(let string): text += string
        case .deleteBackward: if !text.isEmpty { text.removeLast() }
        case .returnKey:
            if let onReturn { onReturn(self) } else { resignFirstResponder() }
        }
    }

    /// Types text as if from a hardware keyboard (no key taps).
    public func insertText(_ string: String) { text += string }

    /// What is drawn: the text, or dots for secure entry.
    public var displayedText: String { isSecureTextEntry ? String(repeating: "•", count: text.count) : text }

    open override func sizeThatFits(_ size: Size) -> Size { Size(width: size.width, height: 44) }

    open override func draw(in canvas: Canvas) {
        if borderStyle == .roundedRect {
            canvas.fill(bounds, color: .secondarySystemBackground, cornerRadius: cornerRadius)
            canvas.stroke(
                bounds, color: isFirstResponder ? tintColor.withAlpha(0.8) : Color.separator, lineWidth: 1,
                cornerRadius: cornerRadius)
        }
        let inset = borderStyle == .roundedRect ? 12.0 : 0
        let area = Rect(x: inset, y: 0, width: max(0, bounds.width - 2 * inset), height: bounds.height)
        let shown = displayedText
        let metrics = TextMetrics.metrics(of: font)
        let caretHeight = metrics.ascent + metrics.descent + 2
        // Leading is the right edge in a right-to-left interface (text, placeholder and caret).
        let alignsRight = (textAlignment == .trailing) != isRightToLeft
        if shown.isEmpty {
            canvas.draw(placeholder, in: area, font: font, color: .placeholderText, alignment: textAlignment)
            if isFirstResponder {
                let x = alignsRight ? area.maxX - 2 : area.minX
                canvas.fill(Rect(x: x, y: area.midY - caretHeight / 2, width: 2, height: caretHeight), color: tintColor, cornerRadius: 1)
            }
            return
        }
        let width = TextMetrics.size(of: shown, font: font).width
        canvas.withState {
            canvas.clip(to: area.expanded(by: 1))
            // A long text scrolls so its end (and the caret) stays visible.
            var x = area.minX
            if alignsRight { x = area.maxX - width - (isFirstResponder ? 3 : 0) }
            if width + 3 > area.width { x = area.maxX - width - 3 }
            let baseline = area.midY + (metrics.ascent - metrics.descent) / 2
            canvas.draw(shown, baselineAt: Point(x: x, y: baseline), font: font, color: textColor)
            if isFirstResponder {
                canvas.fill(
                    Rect(x: x + width + 1, y: area.midY - caretHeight / 2, width: 2, height: caretHeight),
                    color: tintColor, cornerRadius: 1)
            }
        }
    }

    open override func touchBegan(at point: Point) -> Bool { isEnabled }

    @discardableResult
    open override func touchEnded(at point: Point) -> Bool {
        guard bounds.contains(point) else { return false }
        becomeFirstResponder()
        return true
    }

    open override var effectiveAccessibilityValue: String? { accessibilityValue ?? displayedText }
}
