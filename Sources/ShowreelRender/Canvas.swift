import CCairo

/// Antialiased drawing in points onto a `PixelBuffer`, through Cairo.
///
/// The canvas draws straight into the buffer's memory (Cairo's ARGB32 is BGRA in memory),
/// so a rendered screen is already a video frame. Call `finish()` before reading pixels.
public final class Canvas {
    public let pixels: PixelBuffer
    public let scale: Double
    private let surface: OpaquePointer
    private let context: OpaquePointer

    public init(pixels: PixelBuffer, scale: Double) {
        self.pixels = pixels
        self.scale = scale
        surface = pixels.withUnsafeMutableBytes { bytes in
            cairo_image_surface_create_for_data(
                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                Int32(pixels.width), Int32(pixels.height), Int32(pixels.bytesPerRow))
        }
        context = cairo_create(surface)
        cairo_scale(context, scale, scale)
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_set_font_options(context, options)
        cairo_font_options_destroy(options)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// Makes every drawing operation visible in `pixels`.
    public func finish() { cairo_surface_flush(surface) }

    // MARK: State

    public func save() { cairo_save(context) }
    public func restore() { cairo_restore(context) }

    /// Runs `body` with the drawing state saved and restored around it.
    public func withState(_ body: () -> Void) {
        save(); body(); restore()
    }

    public func translate(x: Double, y: Double) { cairo_translate(context, x, y) }

    public func clip(to rect: Rect, cornerRadius: Double = 0) {
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
    }

    // MARK: Shapes

    public func clear(_ color: Color) {
        withState {
            cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
            setColor(color)
            cairo_paint(context)
        }
    }

    public func fill(_ rect: Rect, color: Color, cornerRadius: Double = 0) {
        addRoundedRect(rect, radius: cornerRadius)
        setColor(color)
        cairo_fill(context)
    }

    public func stroke(_ rect: Rect, color: Color, lineWidth: Double = 1, cornerRadius: Double = 0) {
        addRoundedRect(rect.insetBy(dx: lineWidth / 2, dy: lineWidth / 2), radius: cornerRadius)
        setColor(color)
        cairo_set_line_width(context, lineWidth)
        cairo_stroke(context)
    }

    public func fillCircle(center: Point, radius: Double, color: Color) {
        cairo_new_sub_path(context)
        cairo_arc(context, center.x, center.y, radius, 0, 2 * Double.pi)
        setColor(color)
        cairo_fill(context)
    }

    public func strokeCircle(center: Point, radius: Double, color: Color, lineWidth: Double) {
        cairo_new_sub_path(context)
        cairo_arc(context, center.x, center.y, radius, 0, 2 * Double.pi)
        setColor(color)
        cairo_set_line_width(context, lineWidth)
        cairo_stroke(context)
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
        cairo_stroke(context)
    }

    // MARK: Text

    /// The advance width and line height of `text` in `font`, in points.
    public func measure(_ text: String, font: Font) -> Size {
        select(font)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        var fontExtents = cairo_font_extents_t()
        cairo_font_extents(context, &fontExtents)
        return Size(width: extents.x_advance, height: fontExtents.ascent + fontExtents.descent)
    }

    /// Draws `text` on one line inside `rect`, vertically centred, aligned as asked.
    /// Text wider than the rect is cut with an ellipsis rather than overflowing.
    public func draw(_ text: String, in rect: Rect, font: Font, color: Color, alignment: TextAlignment = .leading) {
        select(font)
        let line = fitted(text, width: rect.width, font: font)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, line, &extents)
        var fontExtents = cairo_font_extents_t()
        cairo_font_extents(context, &fontExtents)
        let x: Double
        switch alignment {
        case .leading: x = rect.minX
        case .center: x = rect.midX - extents.x_advance / 2
        case .trailing: x = rect.maxX - extents.x_advance
        }
        let baseline = rect.midY + (fontExtents.ascent - fontExtents.descent) / 2
        setColor(color)
        cairo_move_to(context, x, baseline)
        cairo_show_text(context, line)
    }

    private func fitted(_ text: String, width: Double, font: Font) -> String {
        guard width > 0, measureSelected(text) > width else { return text }
        var characters = Array(text)
        while !characters.isEmpty {
            characters.removeLast()
            let candidate = String(characters) + "…"
            if measureSelected(candidate) <= width { return candidate }
        }
        return ""
    }

    private func measureSelected(_ text: String) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        return extents.x_advance
    }

    private func select(_ font: Font) {
        cairo_select_font_face(context, font.family, CAIRO_FONT_SLANT_NORMAL,
                               font.weight == .bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(context, font.size)
    }

    // MARK: Helpers

    private func setColor(_ color: Color) {
        cairo_set_source_rgba(context, color.red, color.green, color.blue, color.alpha)
    }

    private func addRoundedRect(_ rect: Rect, radius: Double) {
        let r = min(radius, rect.width / 2, rect.height / 2)
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
