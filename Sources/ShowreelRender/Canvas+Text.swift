import CCairo
import Foundation

/// Text on a canvas, shaped by the canvas's `TextEngine` (Pango and HarfBuzz).
///
/// Lines sit on the baseline the font's own metrics give (a fallback font for Japanese or
/// Arabic does not move them), and `.leading`/`.trailing` follow `isRightToLeft`.
extension Canvas {
    /// The advance width and line height of `text` in `font`, in points.
    public func measure(_ text: String, font: Font) -> Size {
        TextEngine.cairoLock.lock()
        defer { TextEngine.cairoLock.unlock() }
        if TextEngine.path == .toy { return toyMeasure(text, font: font) }
        let metrics = self.text.metrics(of: font)
        return Size(width: naturalLine(text, font: font)?.width ?? 0, height: metrics.ascent + metrics.descent)
    }

    /// Ascent, descent and line height of `font`, in points.
    public func metrics(of font: Font) -> FontMetrics {
        TextEngine.cairoLock.lock()
        defer { TextEngine.cairoLock.unlock() }
        return TextEngine.path == .toy ? toyMetrics(of: font) : text.metrics(of: font)
    }

    /// Draws `text` on one line inside `rect`, vertically centred, aligned as asked.
    /// Text wider than the rect is cut with an ellipsis rather than overflowing.
    public func draw(_ text: String, in rect: Rect, font: Font, color: Color, alignment: TextAlignment = .leading) {
        TextEngine.cairoLock.lock()
        defer { TextEngine.cairoLock.unlock() }
        if TextEngine.path == .toy { return toyDraw(text, in: rect, font: font, color: color, alignment: alignment) }
        guard !text.isEmpty, var line = naturalLine(text, font: font) else { return }
        if rect.width > 0, line.width > rect.width {
            let key = TextEngine.LayoutKey(text: text, font: font, width: rect.width, maxLines: 0, wraps: false)
            guard let cut = self.text.lines(of: self.text.layout(key)).first else { return }
            line = cut
        }
        let metrics = self.text.metrics(of: font)
        let baseline = rect.midY + (metrics.ascent - metrics.descent) / 2
        show(line, x: x(for: line, in: rect, alignment: alignment), baseline: baseline, color: color, metrics: metrics)
    }

    /// Draws `text` with its baseline's left end at `origin`, without fitting.
    public func draw(_ text: String, baselineAt origin: Point, font: Font, color: Color) {
        TextEngine.cairoLock.lock()
        defer { TextEngine.cairoLock.unlock() }
        if TextEngine.path == .toy { return toyDraw(text, baselineAt: origin, font: font, color: color) }
        guard !text.isEmpty, let line = naturalLine(text, font: font) else { return }
        show(line, x: origin.x - line.logicalX, baseline: origin.y, color: color, metrics: self.text.metrics(of: font))
    }

    /// Draws `text` wrapped at word boundaries into lines no wider than `rect`, from the top
    /// of `rect` (or vertically centred with `centered`); the last allowed line is cut with
    /// an ellipsis. `maxLines` 0 means as many as fit the text.
    public func drawWrapped(
        _ text: String, in rect: Rect, font: Font, color: Color, alignment: TextAlignment = .leading,
        maxLines: Int = 0, lineSpacing: Double = 0, centered: Bool = false
    ) {
        TextEngine.cairoLock.lock()
        defer { TextEngine.cairoLock.unlock() }
        if TextEngine.path == .toy {
            return toyDrawWrapped(
                text, in: rect, font: font, color: color, alignment: alignment, maxLines: maxLines,
                lineSpacing: lineSpacing, centered: centered)
        }
        guard !text.isEmpty else { return }
        let lines = wrappedLines(text, font: font, width: rect.width, maxLines: maxLines)
        let metrics = self.text.metrics(of: font)
        let lineHeight = metrics.lineHeight + lineSpacing
        let total = lineHeight * Double(lines.count) - lineSpacing
        var top = centered ? rect.midY - total / 2 : rect.minY
        for line in lines {
            let baseline = top + (metrics.lineHeight - metrics.ascent - metrics.descent) / 2 + metrics.ascent
            show(line, x: x(for: line, in: rect, alignment: alignment), baseline: baseline, color: color, metrics: metrics)
            top += lineHeight
        }
    }

    /// The lines `text` wraps into at `width` (words kept whole unless one alone is too wide);
    /// a line cut short by `maxLines` ends with an ellipsis.
    public func wrap(_ text: String, font: Font, width: Double, maxLines: Int = 0) -> [String] {
        TextEngine.cairoLock.lock()
        defer { TextEngine.cairoLock.unlock() }
        if TextEngine.path == .toy { return toyWrap(text, font: font, width: width, maxLines: maxLines) }
        guard !text.isEmpty else { return [""] }
        let key = TextEngine.LayoutKey(text: text, font: font, width: width, maxLines: maxLines, wraps: true)
        let layout = self.text.layout(key)
        let lines = self.text.lines(of: layout)
        let bytes = Array(text.utf8)
        let ellipsized = pango_layout_is_ellipsized(layout) != 0
        return lines.enumerated().map { index, line in
            let range = line.byteRange.clamped(to: 0..<bytes.count)
            let shown = String(decoding: bytes[range], as: UTF8.self).trimmingTrailingSpaces()
            return ellipsized && index == lines.count - 1 ? shown + "…" : shown
        }
    }

    // MARK: Lines

    /// `text` as one unconstrained line (nil for empty text).
    private func naturalLine(_ text: String, font: Font) -> ShapedLine? {
        guard !text.isEmpty else { return nil }
        let key = TextEngine.LayoutKey(text: text, font: font, width: nil, maxLines: 0, wraps: false)
        return self.text.lines(of: self.text.layout(key)).first
    }

    private func wrappedLines(_ text: String, font: Font, width: Double, maxLines: Int) -> [ShapedLine] {
        // Text that fits on one line shares the unconstrained layout (widths change while views animate).
        if !text.contains("\n"), let line = naturalLine(text, font: font), line.width <= width { return [line] }
        let key = TextEngine.LayoutKey(text: text, font: font, width: width, maxLines: maxLines, wraps: true)
        return self.text.lines(of: self.text.layout(key))
    }

    /// Where a line's origin goes for `alignment` in `rect`, with leading and trailing swapped
    /// in a right-to-left interface.
    private func x(for line: ShapedLine, in rect: Rect, alignment: TextAlignment) -> Double {
        let start: Double
        switch (alignment, isRightToLeft) {
        case (.leading, false), (.trailing, true): start = rect.minX
        case (.center, _): start = rect.midX - line.width / 2
        case (.trailing, false), (.leading, true): start = rect.maxX - line.width
        }
        return start - line.logicalX
    }

    private func show(_ line: ShapedLine, x: Double, baseline: Double, color: Color, metrics: FontMetrics) {
        setColor(color)
        // The advance by the font's height, grown for glyphs that reach past either (an italic's
        // overhang, a tall accent), and the ink Pango reports (a fallback font's taller glyphs).
        let pad = (metrics.ascent + metrics.descent) * 0.25
        let ink = line.ink.offsetBy(dx: x, dy: baseline)
        let left = x + line.logicalX
        markInk(
            x1: min(left - pad, ink.minX - 1), y1: min(baseline - metrics.ascent - pad, ink.minY - 1),
            x2: max(left + line.width + pad, ink.maxX + 1), y2: max(baseline + metrics.descent + pad, ink.maxY + 1))
        cairo_move_to(context, x, baseline)
        pango_cairo_show_layout_line(context, line.line)
    }
}
