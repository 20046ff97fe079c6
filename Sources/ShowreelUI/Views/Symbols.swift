import Foundation
import ShowreelAccessibility
import ShowreelRender

/// A few SF Symbols-like glyphs, drawn as vector paths in a square (any size, any colour).
public enum Symbol: String, Sendable, CaseIterable {
    case chevronRight, chevronLeft, checkmark, xmark, person, share, message, phone, video, envelope, globe, mic,
        gear, plus, info, magnifyingGlass, doc, folder, star, trash, bell, ellipsis

    /// Draws the symbol to fit `rect` (centred, square).
    public func draw(in rect: Rect, color: Color, canvas: Canvas) {
        let s = min(rect.width, rect.height)
        let ox = rect.midX - s / 2, oy = rect.midY - s / 2
        func p(_ x: Double, _ y: Double) -> Point { Point(x: ox + x * s, y: oy + y * s) }
        func r(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect {
            Rect(x: ox + x * s, y: oy + y * s, width: w * s, height: h * s)
        }
        let line = max(1, s * 0.09)
        switch self {
        case .chevronRight:
            canvas.stroke(Path(polyline: [p(0.35, 0.15), p(0.68, 0.5), p(0.35, 0.85)]), color: color, lineWidth: s * 0.13)
        case .chevronLeft:
            canvas.stroke(Path(polyline: [p(0.65, 0.15), p(0.32, 0.5), p(0.65, 0.85)]), color: color, lineWidth: s * 0.13)
        case .checkmark:
            canvas.stroke(Path(polyline: [p(0.15, 0.52), p(0.4, 0.78), p(0.86, 0.2)]), color: color, lineWidth: s * 0.12)
        case .xmark:
            canvas.stroke(Path(polyline: [p(0.22, 0.22), p(0.78, 0.78)]), color: color, lineWidth: s * 0.11)
            canvas.stroke(Path(polyline: [p(0.78, 0.22), p(0.22, 0.78)]), color: color, lineWidth: s * 0.11)
        case .person:
            canvas.fill(Path(ellipseIn: r(0.3, 0.08, 0.4, 0.4)), color: color)
            var body = Path()
            body.move(to: p(0.08, 0.95))
            body.curve(to: p(0.5, 0.55), control1: p(0.08, 0.7), control2: p(0.28, 0.55))
            body.curve(to: p(0.92, 0.95), control1: p(0.72, 0.55), control2: p(0.92, 0.7))
            body.close()
            canvas.fill(body, color: color)
        case .share:
            canvas.stroke(
                Path(polyline: [p(0.34, 0.38), p(0.2, 0.38), p(0.2, 0.95), p(0.8, 0.95), p(0.8, 0.38), p(0.66, 0.38)]),
                color: color, lineWidth: line)
            canvas.stroke(Path(polyline: [p(0.5, 0.62), p(0.5, 0.05)]), color: color, lineWidth: line)
            canvas.stroke(Path(polyline: [p(0.33, 0.2), p(0.5, 0.04), p(0.67, 0.2)]), color: color, lineWidth: line)
        case .message:
            var bubble = Path(ellipseIn: r(0.05, 0.12, 0.9, 0.7))
            bubble.append(Path(polygon: [p(0.2, 0.7), p(0.12, 0.92), p(0.42, 0.78)]))
            canvas.fill(bubble, color: color)
        case .phone:
            var handset = Path()
            handset.move(to: p(0.2, 0.1))
            handset.line(to: p(0.38, 0.1)); handset.line(to: p(0.45, 0.3)); handset.line(to: p(0.36, 0.4))
            handset.curve(to: p(0.6, 0.64), control1: p(0.42, 0.5), control2: p(0.5, 0.58))
            handset.line(to: p(0.7, 0.55)); handset.line(to: p(0.9, 0.62)); handset.line(to: p(0.9, 0.8))
            handset.curve(to: p(0.2, 0.1), control1: p(0.5, 0.95), control2: p(0.05, 0.5))
            handset.close()
            canvas.fill(handset, color: color)
        case .video:
            canvas.fill(Path(roundedRect: r(0.05, 0.25, 0.6, 0.5), radius: s * 0.1), color: color)
            canvas.fill(Path(polygon: [p(0.7, 0.45), p(0.95, 0.28), p(0.95, 0.72), p(0.7, 0.55)]), color: color)
        case .envelope:
            canvas.stroke(Path(roundedRect: r(0.08, 0.22, 0.84, 0.56), radius: s * 0.08), color: color, lineWidth: line * 0.9)
            canvas.stroke(Path(polyline: [p(0.12, 0.27), p(0.5, 0.55), p(0.88, 0.27)]), color: color, lineWidth: line * 0.9)
        case .globe:
            canvas.strokeCircle(center: p(0.5, 0.5), radius: s * 0.42, color: color, lineWidth: line * 0.8)
            canvas.stroke(Path(ellipseIn: r(0.3, 0.08, 0.4, 0.84)), color: color, lineWidth: line * 0.8)
            canvas.stroke(Path(polyline: [p(0.08, 0.5), p(0.92, 0.5)]), color: color, lineWidth: line * 0.8)
            canvas.stroke(Path(polyline: [p(0.5, 0.08), p(0.5, 0.92)]), color: color, lineWidth: line * 0.8)
        case .mic:
            canvas.fill(Path(roundedRect: r(0.35, 0.05, 0.3, 0.55), radius: s * 0.15), color: color)
            var stand = Path()
            stand.arc(center: p(0.5, 0.42), radius: s * 0.27, from: 0, to: Double.pi)
            canvas.stroke(stand, color: color, lineWidth: line * 0.8)
            canvas.stroke(Path(polyline: [p(0.5, 0.7), p(0.5, 0.92)]), color: color, lineWidth: line * 0.8)
        case .gear:
            var teeth = Path()
            for i in 0..<8 {
                let a = Double(i) * Double.pi / 4
                let c = p(0.5 + 0.38 * cos(a), 0.5 + 0.38 * sin(a))
                teeth.append(Path(ellipseIn: Rect(x: c.x - s * 0.09, y: c.y - s * 0.09, width: s * 0.18, height: s * 0.18)))
            }
            teeth.append(Path(ellipseIn: r(0.16, 0.16, 0.68, 0.68)))
            canvas.fill(teeth, color: color)
            canvas.fillCircle(center: p(0.5, 0.5), radius: s * 0.14, color: .white)
        case .plus:
            canvas.stroke(Path(polyline: [p(0.5, 0.15), p(0.5, 0.85)]), color: color, lineWidth: s * 0.11)
            canvas.stroke(Path(polyline: [p(0.15, 0.5), p(0.85, 0.5)]), color: color, lineWidth: s * 0.11)
        case .info:
            canvas.strokeCircle(center: p(0.5, 0.5), radius: s * 0.42, color: color, lineWidth: line * 0.8)
            canvas.fillCircle(center: p(0.5, 0.3), radius: s * 0.06, color: color)
            canvas.stroke(Path(polyline: [p(0.5, 0.45), p(0.5, 0.72)]), color: color, lineWidth: line)
        case .magnifyingGlass:
            canvas.strokeCircle(center: p(0.42, 0.42), radius: s * 0.28, color: color, lineWidth: line)
            canvas.stroke(Path(polyline: [p(0.63, 0.63), p(0.88, 0.88)]), color: color, lineWidth: line * 1.3)
        case .doc:
            canvas.stroke(Path(roundedRect: r(0.3, 0.08, 0.55, 0.65), radius: s * 0.06), color: color, lineWidth: line * 0.8)
            canvas.stroke(Path(polyline: [p(0.15, 0.3), p(0.15, 0.92), p(0.62, 0.92)]), color: color, lineWidth: line * 0.8)
        case .folder:
            var folder = Path()
            folder.move(to: p(0.05, 0.22)); folder.line(to: p(0.38, 0.22)); folder.line(to: p(0.46, 0.32))
            folder.line(to: p(0.95, 0.32)); folder.line(to: p(0.95, 0.85)); folder.line(to: p(0.05, 0.85)); folder.close()
            canvas.fill(folder, color: color)
        case .star:
            var points: [Point] = []
            for i in 0..<10 {
                let a = -Double.pi / 2 + Double(i) * Double.pi / 5
                let radius = i % 2 == 0 ? 0.46 : 0.2
                points.append(p(0.5 + radius * cos(a), 0.53 + radius * sin(a)))
            }
            canvas.fill(Path(polygon: points), color: color)
        case .trash:
            canvas.stroke(Path(polyline: [p(0.12, 0.22), p(0.88, 0.22)]), color: color, lineWidth: line)
            canvas.stroke(Path(polyline: [p(0.38, 0.2), p(0.4, 0.08), p(0.6, 0.08), p(0.62, 0.2)]), color: color, lineWidth: line * 0.8)
            canvas.stroke(Path(polygon: [p(0.2, 0.3), p(0.8, 0.3), p(0.74, 0.92), p(0.26, 0.92)]), color: color, lineWidth: line * 0.8)
        case .bell:
            var bell = Path()
            bell.move(to: p(0.12, 0.78))
            bell.curve(to: p(0.5, 0.1), control1: p(0.28, 0.6), control2: p(0.2, 0.1))
            bell.curve(to: p(0.88, 0.78), control1: p(0.8, 0.1), control2: p(0.72, 0.6))
            bell.close()
            canvas.fill(bell, color: color)
            canvas.fillCircle(center: p(0.5, 0.86), radius: s * 0.08, color: color)
        case .ellipsis:
            for x in [0.22, 0.5, 0.78] { canvas.fillCircle(center: p(x, 0.5), radius: s * 0.08, color: color) }
        }
    }
}

/// Shows a symbol, an image or a simple shape (circle, rounded square) with optional
/// initials: flags of a sort, avatars, app icons.
open class ImageView: View {
    public enum Shape: Sendable, Hashable { case none, circle, roundedSquare }

    public var symbol: Symbol? { didSet { setNeedsDisplay() } }
    public var image: PixelBuffer? { didSet { setNeedsDisplay() } }
    public var shape: Shape { didSet { setNeedsDisplay() } }
    /// The shape's fill (a vertical gradient when `gradientEnd` is set).
    public var fillColor: Color { didSet { setNeedsDisplay() } }
    public var gradientEnd: Color? { didSet { setNeedsDisplay() } }
    /// The symbol's or initials' colour.
    public var tintColor: Color { didSet { setNeedsDisplay() } }
    public var initials: String? { didSet { setNeedsDisplay() } }
    /// The symbol's size as a share of the view's.
    public var symbolScale: Double = 0.6 { didSet { setNeedsDisplay() } }

    public init(
        symbol: Symbol? = nil, shape: Shape = .none, fill: Color = .clear, tint: Color = .systemBlue,
        initials: String? = nil
    ) {
        self.symbol = symbol
        self.shape = shape
        self.fillColor = fill
        self.tintColor = tint
        self.initials = initials
        super.init()
        elementType = .image
    }

    open override func draw(in canvas: Canvas) {
        let side = min(bounds.width, bounds.height)
        let square = Rect(x: bounds.midX - side / 2, y: bounds.midY - side / 2, width: side, height: side)
        let radius: Double
        switch shape {
        case .none: radius = -1
        case .circle: radius = side / 2
        case .roundedSquare: radius = side * 0.225
        }
        if radius >= 0 {
            if let gradientEnd {
                canvas.fillGradient(square, from: fillColor, to: gradientEnd, cornerRadius: radius)
            } else {
                canvas.fill(square, color: fillColor, cornerRadius: radius)
            }
        }
        if let image { canvas.draw(image, in: bounds) }
        if let symbol {
            let inner = side * (shape == .none ? 1 : symbolScale)
            symbol.draw(
                in: Rect(x: bounds.midX - inner / 2, y: bounds.midY - inner / 2, width: inner, height: inner),
                color: tintColor, canvas: canvas)
        }
        if let initials, !initials.isEmpty {
            canvas.draw(
                initials, in: square, font: .system((side * 0.4).rounded(), weight: .bold), color: tintColor,
                alignment: .center)
        }
    }
}
