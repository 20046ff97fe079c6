import CCairo

/// The text path before shaping: Cairo's toy API (no kerning, no fallback, no joining, left to
/// right only), kept only so `make bench` can measure what shaping costs against it in the same
/// run (`TextEngine.path = .toy`). Nothing else draws with it.
extension Canvas {
    /// The advance width and line height of `text` in `font`, in points.
    func toyMeasure(_ text: String, font: Font) -> Size {
        select(font)
        let metrics = currentFontMetrics()
        return Size(width: measureSelected(text), height: metrics.ascent + metrics.descent)
    }

    /// Ascent, descent and line height of `font`, in points.
    func toyMetrics(of font: Font) -> FontMetrics {
        select(font)
        return currentFontMetrics()
    }

    /// Draws `text` on one line inside `rect`, vertically centred, aligned as asked.
    /// Text wider than the rect is cut with an ellipsis rather than overflowing.
    func toyDraw(_ text: String, in rect: Rect, font: Font, color: Color, alignment: TextAlignment = .leading) {
        guard !text.isEmpty else { return }
        select(font)
        let line = fitted(text, width: rect.width)
        let width = measureSelected(line)
        let metrics = currentFontMetrics()
        let x: Double
        switch alignment {
        case .leading: x = rect.minX
        case .center: x = rect.midX - width / 2
        case .trailing: x = rect.maxX - width
        }
        let baseline = rect.midY + (metrics.ascent - metrics.descent) / 2
        setColor(color)
        markTextInk(x: x, baseline: baseline, width: width, metrics: metrics)
        cairo_move_to(context, x, baseline)
        cairo_show_text(context, line)
    }

    /// Draws `text` with its baseline's left end at `origin`, without fitting.
    func toyDraw(_ text: String, baselineAt origin: Point, font: Font, color: Color) {
        guard !text.isEmpty else { return }
        select(font)
        setColor(color)
        markTextInk(x: origin.x, baseline: origin.y, width: measureSelected(text), metrics: currentFontMetrics())
        cairo_move_to(context, origin.x, origin.y)
        cairo_show_text(context, text)
    }

    /// Draws `text` wrapped at word boundaries into lines no wider than `rect`, from the top
    /// of `rect` (or vertically centred with `centered`); the last allowed line is cut with
    /// an ellipsis. `maxLines` 0 means as many as fit the text.
    func toyDrawWrapped(
        _ text: String, in rect: Rect, font: Font, color: Color, alignment: TextAlignment = .leading,
        maxLines: Int = 0, lineSpacing: Double = 0, centered: Bool = false
    ) {
        select(font)
        let lines = wrapSelected(text, width: rect.width, maxLines: maxLines)
        let metrics = currentFontMetrics()
        let lineHeight = metrics.lineHeight + lineSpacing
        let total = lineHeight * Double(lines.count) - lineSpacing
        var top = centered ? rect.midY - total / 2 : rect.minY
        setColor(color)
        for line in lines {
            let width = measureSelected(line)
            let x: Double
            switch alignment {
            case .leading: x = rect.minX
            case .center: x = rect.midX - width / 2
            case .trailing: x = rect.maxX - width
            }
            let baseline = top + (metrics.lineHeight - metrics.ascent - metrics.descent) / 2 + metrics.ascent
            markTextInk(x: x, baseline: baseline, width: width, metrics: metrics)
            cairo_move_to(context, x, baseline)
            cairo_show_text(context, line)
            top += lineHeight
        }
    }

    /// The lines `text` wraps into at `width` (words kept whole unless one alone is too wide).
    func toyWrap(_ text: String, font: Font, width: Double, maxLines: Int = 0) -> [String] {
        select(font)
        return wrapSelected(text, width: width, maxLines: maxLines)
    }

    private func wrapSelected(_ text: String, width: Double, maxLines: Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var current = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                let candidate = current.isEmpty ? String(word) : current + " " + word
                if measureSelected(candidate) <= width || current.isEmpty {
                    current = candidate
                    // A single word wider than the line is broken by characters.
                    while measureSelected(current) > width && current.count > 1 {
                        var head = ""
                        for character in current {
                            if measureSelected(head + String(character)) > width && !head.isEmpty { break }
                            head.append(character)
                        }
                        lines.append(head)
                        current = String(current.dropFirst(head.count))
                    }
                } else {
                    lines.append(current)
                    current = String(word)
                }
            }
            lines.append(current)
        }
        if maxLines > 0 && lines.count > maxLines {
            let kept = Array(lines[0..<maxLines - 1])
            let rest = lines[(maxLines - 1)...].joined(separator: " ")
            return kept + [fitted(rest + "\u{200B}", width: width, forceEllipsis: true)]
        }
        return lines
    }

    private func fitted(_ text: String, width: Double, forceEllipsis: Bool = false) -> String {
        guard width > 0, forceEllipsis || measureSelected(text) > width else { return text }
        var characters = Array(text)
        if forceEllipsis, characters.last == "\u{200B}" { characters.removeLast() }
        if forceEllipsis, measureSelected(String(characters) + "…") <= width { return String(characters) + "…" }
        // Binary search on the prefix length: long strings are cut in a few measurements.
        var low = 0, high = characters.count
        while low < high {
            let mid = (low + high + 1) / 2
            if measureSelected(String(characters[0..<mid]) + "…") <= width { low = mid } else { high = mid - 1 }
        }
        return low == 0 ? "" : String(characters[0..<low]).trimmingTrailingSpaces() + "…"
    }

    private func measureSelected(_ text: String) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(context, text, &extents)
        return extents.x_advance
    }

    private func currentFontMetrics() -> FontMetrics {
        var fontExtents = cairo_font_extents_t()
        cairo_font_extents(context, &fontExtents)
        return FontMetrics(ascent: fontExtents.ascent, descent: fontExtents.descent, lineHeight: fontExtents.height)
    }

    private func select(_ font: Font) {
        if toySelectedFont == font { return }
        toySelectedFont = font
        cairo_set_font_face(context, FontFaces.face(for: font))
        cairo_set_font_size(context, font.size)
    }

    /// A line of text: its advance by the font's height, with room for glyphs that reach past
    /// either (an italic's overhang, a tall accent).
    private func markTextInk(x: Double, baseline: Double, width: Double, metrics: FontMetrics) {
        let pad = (metrics.ascent + metrics.descent) * 0.25
        markInk(x1: x - pad, y1: baseline - metrics.ascent - pad, x2: x + width + pad, y2: baseline + metrics.descent + pad)
    }

}
