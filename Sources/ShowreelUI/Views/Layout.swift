import ShowreelRender

/// Holds one view inset by `insets` (padding for layout).
open class PaddingView: View {
    public var insets: EdgeInsets { didSet { setNeedsLayout() } }
    public let content: View

    public init(_ content: View, insets: EdgeInsets) {
        self.content = content
        self.insets = insets
        super.init()
        addSubview(content)
    }

    public convenience init(_ content: View, all value: Double) { self.init(content, insets: EdgeInsets(all: value)) }

    open override func layoutSubviews() {
        content.frame = Rect(
            x: insets.left, y: insets.top, width: max(0, bounds.width - insets.left - insets.right),
            height: max(0, bounds.height - insets.top - insets.bottom))
    }

    open override func sizeThatFits(_ size: Size) -> Size {
        let inner = content.sizeThatFits(
            Size(width: size.width - insets.left - insets.right, height: size.height - insets.top - insets.bottom))
        return Size(width: inner.width + insets.left + insets.right, height: inner.height + insets.top + insets.bottom)
    }
}

/// Empty space of a fixed size in a stack.
open class Spacer: View {
    public let length: Double
    public init(_ length: Double) {
        self.length = length
        super.init()
        isUserInteractionEnabled = false
    }
    open override func sizeThatFits(_ size: Size) -> Size { Size(width: length, height: length) }
}
