import CCairo
import Foundation

/// Antialiased drawing in points onto a `PixelBuffer`, through Cairo.
///
/// The canvas draws straight into the buffer's memory (Cairo's ARGB32 is BGRA in memory),
/// so a rendered screen is already a video frame. Call `finish()` before reading pixels.
public final class Canvas {
    public let pixels: PixelBuffer
    public let scale: Double
    private let surface: OpaquePointer
    let context: OpaquePointer
    /// Shapes and caches the text this canvas draws (a scene passes its own, kept across frames).
    let text: TextEngine
    private let borrowsText: Bool
    /// The toy text path's selected font (see `Canvas+ToyText`).
    var toySelectedFont: Font?
    /// Which of a colour's variants drawing uses (`Color(light:dark:)`).
    public var interfaceStyle: InterfaceStyle = .light
    /// Whether `.leading` means the right edge (an Arabic or Hebrew interface).
    public var isRightToLeft = false
    /// A render of only part of the picture (see `init(pixels:scale:text:limit:)`).
    package let limit: DrawingLimit?
    /// Whether every clip in force is a rectangle on whole device pixels (see `pixelsHideable(under:)`).
    private(set) var clipIsSharp = true
    /// `clipIsSharp` at each `save()` not yet restored.
    private var savedClipSharpness: [Bool] = []
    /// Whether drawing that opaque fills will hide may be left out (off: a test's reference render).
    package var leavesOutOverdraw = true
    /// Drawings left out as hidden (see `Canvas+Cover`), counted by whoever leaves them out.
    package var overdrawLeftOut = 0

    /// - Parameter text: the engine that shapes this canvas's text, for its owner to keep
    ///   across frames; nil borrows an idle one for the canvas's lifetime.
    public init(pixels: PixelBuffer, scale: Double, text: TextEngine? = nil) {
        self.pixels = pixels
        self.scale = scale
        self.text = text ?? TextEngine.borrow()
        borrowsText = text == nil
        limit = nil
        surface = Self.surface(on: pixels, within: PixelArea(rows: 0..<pixels.height, columns: 0..<pixels.width))
        context = cairo_create(surface)
        setUp()
    }

    /// A canvas for `limit`'s pass under way: it draws only inside `limit.current` of `pixels`
    /// (device pixels; the rest keeps what it holds), in the picture's coordinates. The area is
    /// the surface's own edge rather than a clip, so Cairo draws each pixel in it as it would on
    /// the whole picture (a clip takes another compositing path, which rounds antialiased edges
    /// differently).
    package init(pixels: PixelBuffer, scale: Double, text: TextEngine, limit: DrawingLimit) {
        self.pixels = pixels
        self.scale = scale
        self.text = text
        borrowsText = false
        self.limit = limit
        let area = limit.current
        surface = Self.surface(on: pixels, within: area)
        cairo_surface_set_device_offset(surface, -Double(area.columns.lowerBound), -Double(area.rows.lowerBound))
        context = cairo_create(surface)
        setUp()
    }

    private static func surface(on pixels: PixelBuffer, within area: PixelArea) -> OpaquePointer {
        pixels.withUnsafeMutableBytes { bytes in
            cairo_image_surface_create_for_data(
                (bytes.baseAddress! + area.rows.lowerBound * pixels.bytesPerRow + area.columns.lowerBound * 4)
                    .assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                Int32(area.columns.count), Int32(area.rows.count), Int32(pixels.bytesPerRow))
        }
    }

    private func setUp() {
        cairo_scale(context, scale, scale)
        // For the toy text path only (Pango sets its own): grey antialiasing, no hinting.
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_set_font_options(context, options)
        cairo_font_options_destroy(options)
    }

    deinit {
        // The context may hold the last reference to a scaled font (see `TextEngine.cairoLock`).
        TextEngine.cairoLock.lock()
        cairo_destroy(context)
        TextEngine.cairoLock.unlock()
        cairo_surface_destroy(surface)
        if borrowsText { TextEngine.giveBack(text) }
    }

    /// Makes every drawing operation visible in `pixels`.
    public func finish() { cairo_surface_flush(surface) }

    /// Counts `area` as drawn, for a subtree whose pixels are kept as they were (see `DrawingLimit`).
    package func noteInk(_ area: PixelArea) {
        ink = Self.union(ink, area)
    }

    // MARK: State

    public func save() {
        cairo_save(context)
        savedClipSharpness.append(clipIsSharp)
    }

    public func restore() {
        // Restoring may drop the scaled font text set (see `TextEngine.cairoLock`).
        TextEngine.cairoLock.lock()
        cairo_restore(context)
        TextEngine.cairoLock.unlock()
        toySelectedFont = nil
        clipIsSharp = savedClipSharpness.popLast() ?? true
    }

    /// Runs `body` with the drawing state saved and restored around it.
    public func withState(_ body: () -> Void) {
        save(); body(); restore()
    }

    public func translate(x: Double, y: Double) { cairo_translate(context, x, y) }
    /// Turns later drawing about the origin, clockwise on screen for a positive angle.
    public func rotate(by radians: Double) { cairo_rotate(context, radians) }

    public func clip(to rect: Rect, cornerRadius: Double = 0) {
        if clipIsSharp { clipIsSharp = cornerRadius <= 0 && isOnWholePixels(rect) }
        cairo_new_path(context)
        addRoundedRect(rect, radius: cornerRadius)
        cairo_clip(context)
    }

    /// Multiplies every later drawing's alpha, for fades (group and paint with alpha).
    public func withOpacity(_ opacity: Double, _ body: () -> Void) {
        if opacity >= 1 { body(); return }
        cairo_push_group(context)
        body()
        cairo_pop_group_to_source(context)
        cairo_paint_with_alpha(context, opacity)
        toySelectedFont = nil
    }

    // MARK: Shapes

    public func clear(_ color: Color) {
        withState {
            cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
            setColor(color)
            // The whole picture, whatever the clip (a limited render clips to part of it).
            ink = Self.union(ink, PixelArea(rows: 0..<pixels.height, columns: 0..<pixels.width))
            cairo_paint(context)
        }
    }

    public func fill(_ rect: Rect, color: Color, cornerRadius: Double = 0) {
        addRoundedRect(rect, radius: cornerRadius)
        setColor(color)
        fillMarkingInk()
    }

    public func stroke(_ rect: Rect, color: Color, lineWidth: Double = 1, cornerRadius: Double = 0) {
        addRoundedRect(rect.insetBy(dx: lineWidth / 2, dy: lineWidth / 2), radius: cornerRadius)
        setColor(color)
        cairo_set_line_width(context, lineWidth)
        strokeMarkingInk()
    }

    public func fillCircle(center: Point, radius: Double, color: Color) {
        cairo_new_sub_path(context)
        cairo_arc(context, center.x, center.y, radius, 0, 2 * Double.pi)
        setColor(color)
        fillMarkingInk()
    }

    public func strokeCircle(center: Point, radius: Double, color: Color, lineWidth: Double) {
        cairo_new_sub_path(context)
        cairo_arc(context, center.x, center.y, radius, 0, 2 * Double.pi)
        setColor(color)
        cairo_set_line_width(context, lineWidth)
        strokeMarkingInk()
    }

    /// A polyline, e.g. a chevron or a check mark.
    public func strokeLines(_ points: [Point], color: Color, lineWidth: Double) {
        guard let first = points.first else { return }
        cairo_move_to(context, first.x, first.y)
        for point in points.dropFirst() { cairo_line_to(context, point.x, point.y) }
        setColor(color)
        cairo_set_line_width(context, lineWidth)
        cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
        strokeMarkingInk()
    }

    // MARK: Paths, images, gradients

    /// Fills a path (in points).
    public func fill(_ path: Path, color: Color) {
        add(path)
        setColor(color)
        fillMarkingInk()
    }

    /// Strokes a path with round caps and joins.
    public func stroke(_ path: Path, color: Color, lineWidth: Double) {
        add(path)
        setColor(color)
        cairo_set_line_width(context, lineWidth)
        cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
        strokeMarkingInk()
    }

    /// Restricts later drawing to a path.
    public func clip(to path: Path) {
        clipIsSharp = false
        add(path)
        cairo_clip(context)
    }

    /// Fills `rect` with only some corners rounded (a sheet's top corners, a grouped section's first row).
    public func fill(_ rect: Rect, color: Color, cornerRadius: Double, corners: RectCorners) {
        fill(Path(roundedRect: rect, radius: cornerRadius, corners: corners), color: color)
    }

    /// A vertical (top to bottom) or horizontal linear gradient over `rect`.
    public func fillGradient(_ rect: Rect, from start: Color, to end: Color, vertical: Bool = true, cornerRadius: Double = 0) {
        let pattern =
            vertical
            ? cairo_pattern_create_linear(rect.minX, rect.minY, rect.minX, rect.maxY)
            : cairo_pattern_create_linear(rect.minX, rect.minY, rect.maxX, rect.minY)
        defer { cairo_pattern_destroy(pattern) }
        let (start, end) = (start.resolved(for: interfaceStyle), end.resolved(for: interfaceStyle))
        cairo_pattern_add_color_stop_rgba(pattern, 0, start.red, start.green, start.blue, start.alpha)
        cairo_pattern_add_color_stop_rgba(pattern, 1, end.red, end.green, end.blue, end.alpha)
        addRoundedRect(rect, radius: cornerRadius)
        cairo_set_source(context, pattern)
        fillMarkingInk()
    }

    /// A soft shadow under a rounded rect: a few widening translucent layers (cheap, deterministic).
    public func fillShadow(_ rect: Rect, color: Color, radius: Double, cornerRadius: Double = 0) {
        let steps = max(1, Int(radius.rounded(.up)))
        let layerAlpha = color.alpha / Double(steps + 1)
        for step in stride(from: steps, through: 0, by: -1) {
            let grow = Double(step)
            addRoundedRect(rect.insetBy(dx: -grow, dy: -grow), radius: cornerRadius + grow)
            setColor(color.withAlpha(layerAlpha))
            fillMarkingInk()
        }
    }

    /// Draws an image scaled into `rect` (bilinear filtering).
    public func draw(_ image: PixelBuffer, in rect: Rect) {
        image.withUnsafeMutableBytes { bytes in
            let source = cairo_image_surface_create_for_data(
                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                Int32(image.width), Int32(image.height), Int32(image.bytesPerRow))
            defer { cairo_surface_destroy(source) }
            withState {
                cairo_rectangle(context, rect.x, rect.y, rect.width, rect.height)
                cairo_clip(context)
                cairo_translate(context, rect.x, rect.y)
                cairo_scale(context, rect.width / Double(image.width), rect.height / Double(image.height))
                cairo_set_source_surface(context, source, 0, 0)
                cairo_pattern_set_filter(cairo_get_source(context), CAIRO_FILTER_GOOD)
                // The image's rect (the clip would make the ink depend on a limited render's areas).
                markInk(x1: 0, y1: 0, x2: Double(image.width), y2: Double(image.height))
                cairo_paint(context)
            }
        }
    }

    // MARK: Ink

    /// Runs `body` and returns the area of `pixels` its drawing may have touched (nil when it
    /// drew nothing). Collections nest: what a nested body drew counts for the outer one too.
    /// This is how a scene knows where a change can reach, so a recorder can skip the rest.
    public func inkArea(of body: () -> Void) -> PixelArea? {
        let outer = ink
        ink = nil
        body()
        let inner = ink
        ink = Self.union(outer, inner)
        return inner
    }

    /// Where drawing landed since the innermost `inkArea(of:)` began, in device pixels.
    private var ink: PixelArea?

    private static func union(_ a: PixelArea?, _ b: PixelArea?) -> PixelArea? {
        guard let a else { return b }
        guard let b else { return a }
        return a.union(b)
    }

    /// Counts the user-space box `x1,y1 - x2,y2` as drawn: the device pixels around where its
    /// four corners land (two would do for translations and scales, not under a turn).
    func markInk(x1: Double, y1: Double, x2: Double, y2: Double) {
        guard x2 >= x1, y2 >= y1 else { return }
        let device = deviceBounds(minX: x1, minY: y1, maxX: x2, maxY: y2)
        let box = Rect(x: device.minX, y: device.minY, width: device.maxX - device.minX, height: device.maxY - device.minY)
        guard let area = PixelArea(covering: box, width: pixels.width, height: pixels.height) else { return }  // off the picture
        ink = Self.union(ink, area)
    }

    /// The box in device pixels around a user-space box under the current transformation
    /// (its four corners: a rotation moves the box's extremes to any of them).
    func deviceBounds(minX: Double, minY: Double, maxX: Double, maxY: Double) -> (
        minX: Double, minY: Double, maxX: Double, maxY: Double
    ) {
        // Called for every fill and stroke: three corners mapped, the fourth completes the
        // parallelogram they span (the mapping is affine).
        var (x1, y1, x2, y2, x3, y3) = (minX, minY, maxX, maxY, maxX, minY)
        cairo_user_to_device(context, &x1, &y1)
        cairo_user_to_device(context, &x2, &y2)
        cairo_user_to_device(context, &x3, &y3)
        let (x4, y4) = (x1 + x2 - x3, y1 + y2 - y3)
        return (min(x1, x2, x3, x4), min(y1, y2, y3, y4), max(x1, x2, x3, x4), max(y1, y2, y3, y4))
    }

    private func fillMarkingInk() {
        var (x1, y1, x2, y2) = (0.0, 0.0, 0.0, 0.0)
        cairo_fill_extents(context, &x1, &y1, &x2, &y2)
        markInk(x1: x1, y1: y1, x2: x2, y2: y2)
        cairo_fill(context)
    }

    private func strokeMarkingInk() {
        var (x1, y1, x2, y2) = (0.0, 0.0, 0.0, 0.0)
        cairo_stroke_extents(context, &x1, &y1, &x2, &y2)
        markInk(x1: x1, y1: y1, x2: x2, y2: y2)
        cairo_stroke(context)
    }

    /// Scales later drawing about the origin.
    public func scale(x: Double, y: Double) { cairo_scale(context, x, y) }

    private func add(_ path: Path) {
        cairo_new_path(context)
        for element in path.elements {
            switch element {
            case .move(let p): cairo_move_to(context, p.x, p.y)
            case .line(let p): cairo_line_to(context, p.x, p.y)
            case .curve(let c1, let c2, let p): cairo_curve_to(context, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
            case .arc(let c, let r, let a0, let a1): cairo_arc(context, c.x, c.y, r, a0, a1)
            case .close: cairo_close_path(context)
            }
        }
    }

    // MARK: Helpers

    func setColor(_ color: Color) {
        let color = color.resolved(for: interfaceStyle)
        cairo_set_source_rgba(context, color.red, color.green, color.blue, color.alpha)
    }

    private func addRoundedRect(_ rect: Rect, radius: Double) {
        let r = max(0, min(radius, rect.width / 2, rect.height / 2))
        if r <= 0 {
            cairo_rectangle(context, rect.x, rect.y, rect.width, rect.height)
            return
        }
        cairo_new_sub_path(context)
        cairo_arc(context, rect.maxX - r, rect.minY + r, r, -Double.pi / 2, 0)
        cairo_arc(context, rect.maxX - r, rect.maxY - r, r, 0, Double.pi / 2)
        cairo_arc(context, rect.minX + r, rect.maxY - r, r, Double.pi / 2, Double.pi)
        cairo_arc(context, rect.minX + r, rect.minY + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(context)
    }
}

public enum TextAlignment: Sendable, Hashable { case leading, center, trailing }

/// A font's vertical metrics in points.
public struct FontMetrics: Equatable, Sendable {
    public var ascent: Double, descent: Double, lineHeight: Double
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
