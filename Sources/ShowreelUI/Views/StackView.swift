import ShowreelRender

/// Lays its subviews out in a column (or row), each at the size it asks for.
open class StackView: View {
    public enum Axis: Sendable { case vertical, horizontal }
    public enum Alignment: Sendable { case leading, center, fill }

    public var axis: Axis { didSet { setNeedsLayout() } }
    public var spacing: Double { didSet { setNeedsLayout() } }
    public var alignment: Alignment { didSet { setNeedsLayout() } }
    public var padding: Double { didSet { setNeedsLayout() } }

    public init(
        axis: Axis = .vertical, spacing: Double = 12, alignment: Alignment = .fill, padding: Double = 0,
        _ views: [View] = []
    ) {
        self.axis = axis
        self.spacing = spacing
        self.alignment = alignment
        self.padding = padding
        super.init()
        views.forEach(addSubview)
    }

    open override func layoutSubviews() {
        let content = bounds.insetBy(dx: padding, dy: padding)
        var cursor = axis == .vertical ? content.minY : content.minX
        for view in subviews where !view.isHidden {
            let fit = view.sizeThatFits(content.size)
            switch axis {
            case .vertical:
                let width = alignment == .fill ? content.width : fit.width
                let x = alignment == .center ? content.midX - width / 2 : content.minX
                view.frame = Rect(x: x, y: cursor, width: width, height: fit.height)
                cursor += fit.height + spacing
            case .horizontal:
                let height = alignment == .fill ? content.height : fit.height
                let y = alignment == .center ? content.midY - height / 2 : content.minY
                view.frame = Rect(x: cursor, y: y, width: fit.width, height: height)
                cursor += fit.width + spacing
            }
        }
    }

    open override func sizeThatFits(_ size: Size) -> Size {
        let inner = Size(width: size.width - 2 * padding, height: size.height - 2 * padding)
        let fits = subviews.filter { !$0.isHidden }.map { $0.sizeThatFits(inner) }
        let gaps = spacing * Double(max(fits.count - 1, 0))
        switch axis {
        case .vertical:
            return Size(width: size.width, height: fits.reduce(0) { $0 + $1.height } + gaps + 2 * padding)
        case .horizontal:
            return Size(
                width: fits.reduce(0) { $0 + $1.width } + gaps + 2 * padding,
                height: (fits.map(\.height).max() ?? 0) + 2 * padding)
        }
    }
}
