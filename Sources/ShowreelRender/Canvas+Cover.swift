import CCairo
import ShowreelGraphics

/// Overdraw: opaque rectangles drawn over everything else in their place (a screen over its
/// window, a list and its bars over their screen) make what was drawn there before invisible,
/// so a renderer may leave it out. Only where the picture stays the same pixel for pixel: each
/// pixel the hidden drawing could touch must lie wholly inside one of the rectangles, whose
/// fill then sets it outright.
extension Canvas {
    /// The picture's pixels that drawing within `rect` (user space) may touch, when opaque
    /// fills drawn later can hide them; nil when they cannot: the transformation turns
    /// rectangles off the pixel grid's axes, or a clip in force has an antialiased edge (which
    /// lets part of the earlier drawing through under the later fill).
    package func pixelsHideable(under rect: Rect) -> PixelArea? {
        guard leavesOutOverdraw, clipIsSharp, let box = deviceBox(of: rect) else { return nil }
        let t = Self.edgeTolerance
        return area(
            minX: (box.minX + t).rounded(.down), minY: (box.minY + t).rounded(.down), maxX: (box.maxX - t).rounded(.up),
            maxY: (box.maxY - t).rounded(.up))
    }

    /// The picture's pixels an opaque fill of `rect` (user space) sets outright: those wholly
    /// inside it; nil when the transformation turns it off the axes.
    package func pixelsCovered(by rect: Rect) -> PixelArea? {
        guard leavesOutOverdraw, let box = deviceBox(of: rect) else { return nil }
        let t = Self.edgeTolerance
        return area(
            minX: (box.minX - t).rounded(.up), minY: (box.minY - t).rounded(.up), maxX: (box.maxX + t).rounded(.down),
            maxY: (box.maxY + t).rounded(.down))
    }

    /// Whether `rect` (user space) lies on whole pixels: a clip to it has no antialiased edge.
    func isOnWholePixels(_ rect: Rect) -> Bool {
        guard let box = deviceBox(of: rect) else { return false }
        let t = Self.edgeTolerance
        return [box.minX, box.minY, box.maxX, box.maxY].allSatisfy { abs($0 - $0.rounded()) < t }
    }

    /// Edges closer than this to a whole pixel are on it (what a scale and translations leave).
    private static let edgeTolerance = 1e-6

    /// `rect` in device pixels, or nil when the transformation turns it off the pixel grid's axes.
    private func deviceBox(of rect: Rect) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var matrix = cairo_matrix_t()
        cairo_get_matrix(context, &matrix)
        guard (matrix.xy == 0 && matrix.yx == 0) || (matrix.xx == 0 && matrix.yy == 0) else { return nil }
        return deviceBounds(minX: rect.minX, minY: rect.minY, maxX: rect.maxX, maxY: rect.maxY)
    }

    /// Whole-pixel edges as an area of the picture (clipped to it; empty when off it).
    private func area(minX: Double, minY: Double, maxX: Double, maxY: Double) -> PixelArea {
        func span(_ lower: Double, _ upper: Double, _ limit: Int) -> Range<Int> {
            let (lower, upper) = (Int(max(0, min(Double(limit), lower))), Int(max(0, min(Double(limit), upper))))
            return lower..<max(lower, upper)
        }
        return PixelArea(rows: span(minY, maxY, pixels.height), columns: span(minX, maxX, pixels.width))
    }
}
