import CCairo
import Synchronization

/// A vector outline in points: chevrons, glyph-like symbols, sheets with some corners rounded.
public struct Path: Equatable, Sendable {
    public enum Element: Equatable, Sendable {
        case move(Point)
        case line(Point)
        case curve(Point, Point, Point)
        /// Centre, radius, start and end angle (radians, clockwise on screen).
        case arc(Point, Double, Double, Double)
        case close
    }

    public private(set) var elements: [Element] = []

    public init() {}

    public init(polygon points: [Point]) {
        guard let first = points.first else { return }
        move(to: first)
        for point in points.dropFirst() { line(to: point) }
        close()
    }

    public init(polyline points: [Point]) {
        guard let first = points.first else { return }
        move(to: first)
        for point in points.dropFirst() { line(to: point) }
    }

    public init(ellipseIn rect: Rect) {
        // Four Bézier quarter arcs (kappa) so the ellipse need not be a circle.
        let k = 0.5522847498
        let rx = rect.width / 2, ry = rect.height / 2, cx = rect.midX, cy = rect.midY
        move(to: Point(x: cx + rx, y: cy))
        curve(to: Point(x: cx, y: cy + ry), control1: Point(x: cx + rx, y: cy + k * ry), control2: Point(x: cx + k * rx, y: cy + ry))
        curve(to: Point(x: cx - rx, y: cy), control1: Point(x: cx - k * rx, y: cy + ry), control2: Point(x: cx - rx, y: cy + k * ry))
        curve(to: Point(x: cx, y: cy - ry), control1: Point(x: cx - rx, y: cy - k * ry), control2: Point(x: cx - k * rx, y: cy - ry))
        curve(to: Point(x: cx + rx, y: cy), control1: Point(x: cx + k * rx, y: cy - ry), control2: Point(x: cx + rx, y: cy - k * ry))
        close()
    }

    public init(roundedRect rect: Rect, radius: Double, corners: RectCorners = .all) {
        let r = max(0, min(radius, rect.width / 2, rect.height / 2))
        let pi = Double.pi
        if corners.contains(.topLeft) && r > 0 {
            move(to: Point(x: rect.minX, y: rect.minY + r))
            arc(center: Point(x: rect.minX + r, y: rect.minY + r), radius: r, from: pi, to: 1.5 * pi)
        } else {
            move(to: Point(x: rect.minX, y: rect.minY))
        }
        if corners.contains(.topRight) && r > 0 {
            arc(center: Point(x: rect.maxX - r, y: rect.minY + r), radius: r, from: 1.5 * pi, to: 2 * pi)
        } else {
            line(to: Point(x: rect.maxX, y: rect.minY))
        }
        if corners.contains(.bottomRight) && r > 0 {
            arc(center: Point(x: rect.maxX - r, y: rect.maxY - r), radius: r, from: 0, to: 0.5 * pi)
        } else {
            line(to: Point(x: rect.maxX, y: rect.maxY))
        }
        if corners.contains(.bottomLeft) && r > 0 {
            arc(center: Point(x: rect.minX + r, y: rect.maxY - r), radius: r, from: 0.5 * pi, to: pi)
        } else {
            line(to: Point(x: rect.minX, y: rect.maxY))
        }
        close()
    }

    public mutating func move(to point: Point) { elements.append(.move(point)) }
    public mutating func line(to point: Point) { elements.append(.line(point)) }
    public mutating func curve(to point: Point, control1: Point, control2: Point) {
        elements.append(.curve(control1, control2, point))
    }
    public mutating func arc(center: Point, radius: Double, from start: Double, to end: Double) {
        elements.append(.arc(center, radius, start, end))
    }
    public mutating func close() { elements.append(.close) }

    /// Appends another path's elements (several shapes filled at once).
    public mutating func append(_ other: Path) { elements += other.elements }
}

/// Which corners of a rectangle are rounded.
public struct RectCorners: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let topLeft = RectCorners(rawValue: 1)
    public static let topRight = RectCorners(rawValue: 2)
    public static let bottomLeft = RectCorners(rawValue: 4)
    public static let bottomRight = RectCorners(rawValue: 8)
    public static let top: RectCorners = [.topLeft, .topRight]
    public static let bottom: RectCorners = [.bottomLeft, .bottomRight]
    public static let all: RectCorners = [.top, .bottom]
}

/// Font faces, created once per family and weight: fontconfig matching is the slow part of
/// drawing text, so every canvas shares these (Cairo font faces are thread-safe).
enum FontFaces {
    private struct Key: Hashable { let family: String; let weight: Font.Weight }
    private struct Face: @unchecked Sendable { let pointer: OpaquePointer }
    private static let cache = Mutex<[Key: Face]>([:])

    static func face(for font: Font) -> OpaquePointer {
        let key = Key(family: font.family, weight: font.weight)
        return cache.withLock { faces in
            if let face = faces[key] { return face.pointer }
            let pointer = cairo_toy_font_face_create(
                font.family, CAIRO_FONT_SLANT_NORMAL, font.weight == .bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)!
            faces[key] = Face(pointer: pointer)
            return pointer
        }
    }
}
