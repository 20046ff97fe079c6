import CCairo
import Foundation
import Synchronization

/// Shapes text with Pango and HarfBuzz: joined Arabic, bidirectional runs, Japanese and emoji
/// through fontconfig's fallback to the Noto fonts, kerning.
///
/// Shaping costs far more than drawing the glyphs, and a screen draws the same strings on
/// every frame, so an engine keeps the layouts it made (by text, font and width) and its font
/// descriptions. Not thread-safe: one owner at a time (a scene renders on its device's actor;
/// `TextMetrics` holds its engine under a lock; a canvas made without one borrows an idle
/// engine from a pool). Each engine has its own font map: Pango's font maps, like its contexts
/// and layouts, must not be used from two threads at once (sharing one drew the wrong glyphs).
public final class TextEngine {
    /// What a layout was made for: a layout is reused only for the same request.
    struct LayoutKey: Hashable {
        var text: String
        var font: Font
        /// Wrapping or ellipsis width in points; nil for one unconstrained line.
        var width: Double?
        /// 0 for one line cut with an ellipsis at `width`; else the most lines wrapped at `width`.
        var maxLines: Int
        var wraps: Bool
    }

    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    private let context: OpaquePointer
    private var layouts: [LayoutKey: OpaquePointer] = [:]
    private var descriptions: [Font: OpaquePointer] = [:]
    private var fontMetrics: [Font: FontMetrics] = [:]
    /// Layouts kept before the cache starts over (a screen shows a few hundred strings at most).
    static let layoutLimit = 2048

    /// Families tried, in order, for characters the font's own family lacks; fontconfig's own
    /// fallback comes after them (emoji find Noto Color Emoji there: naming it here would draw
    /// plain digits, which have emoji forms, from it).
    public static let fallbackFamilies = ["Noto Sans", "Noto Sans Arabic", "Noto Sans Hebrew", "Noto Sans CJK JP"]

    public init() {
        fontMap = pango_cairo_font_map_new()
        context = pango_font_map_create_context(fontMap)
        let options = cairo_font_options_create()
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(pcontext, options)
        cairo_font_options_destroy(options)
        // Positions in fractions of a pixel, as the toy API placed glyphs (no jumping on scale).
        pango_context_set_round_glyph_positions(pcontext, 0)
    }

    /// Held around everything that touches Cairo's scaled fonts (shaping, showing, measuring,
    /// restoring or destroying a context that holds one). Cairo keeps them in one process-wide
    /// cache whatever the font map, and Debian's Cairo 1.16 asserts (`cache_frozen`) when one
    /// thread drops a scaled font another is drawing with: parallel devices crashed the tests.
    static let cairoLock = NSRecursiveLock()

    deinit {
        Self.cairoLock.lock()
        defer { Self.cairoLock.unlock() }
        for layout in layouts.values { g_object_unref(UnsafeMutableRawPointer(layout)) }
        for description in descriptions.values { pango_font_description_free(description) }
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(UnsafeMutableRawPointer(fontMap))
    }

    private var pcontext: OpaquePointer { context }

    /// Which text path every canvas in the process draws with.
    public enum Path: Sendable { case shaped, toy }

    private static let toyText = Atomic<Bool>(false)

    /// `.shaped` (Pango, the default), or `.toy`: the Cairo toy text API text was drawn with
    /// before shaping, kept for `make bench` to measure the difference in one run. Switching
    /// forgets `TextMetrics`' cached sizes.
    public static var path: Path {
        get { toyText.load(ordering: .relaxed) ? .toy : .shaped }
        set {
            toyText.store(newValue == .toy, ordering: .relaxed)
            TextMetrics.forgetSizes()
        }
    }

    /// Idle engines for canvases made without one (captions, title cards): one is taken per
    /// canvas and given back when the canvas goes, so each is used by one thread at a time.
    static let pool = Mutex<[TextEngine]>([])

    static func borrow() -> TextEngine {
        pool.withLock { $0.popLast() } ?? TextEngine()
    }

    static func giveBack(_ engine: TextEngine) {
        pool.withLock { idle in if idle.count < 8 { idle.append(engine) } }
    }

    /// Ascent, descent and line height of the font's own family, in points (fallback fonts do
    /// not move lines: Latin text sits where it always did).
    func metrics(of font: Font) -> FontMetrics {
        if let cached = fontMetrics[font] { return cached }
        let metrics = pango_context_get_metrics(pcontext, description(of: font), nil)
        defer { pango_font_metrics_unref(metrics) }
        let scale = Double(PANGO_SCALE)
        let ascent = Double(pango_font_metrics_get_ascent(metrics)) / scale
        let descent = Double(pango_font_metrics_get_descent(metrics)) / scale
        let height = Double(pango_font_metrics_get_height(metrics)) / scale
        let result = FontMetrics(ascent: ascent, descent: descent, lineHeight: max(height, ascent + descent))
        fontMetrics[font] = result
        return result
    }

    /// A shaped layout for `key`, made on first use.
    func layout(_ key: LayoutKey) -> OpaquePointer {
        if let cached = layouts[key] { return cached }
        if layouts.count >= Self.layoutLimit {
            for layout in layouts.values { g_object_unref(UnsafeMutableRawPointer(layout)) }
            layouts.removeAll(keepingCapacity: true)
        }
        let layout = pango_layout_new(pcontext)!
        pango_layout_set_font_description(layout, description(of: key.font))
        pango_layout_set_text(layout, key.text, -1)
        if let width = key.width {
            pango_layout_set_width(layout, Int32(max(0, width) * Double(PANGO_SCALE)))
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            if key.wraps {
                pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
                // A negative height is a number of lines: the last allowed one gets the ellipsis.
                pango_layout_set_height(layout, key.maxLines > 0 ? -Int32(key.maxLines) : -1_000_000)
            } else {
                pango_layout_set_single_paragraph_mode(layout, 1)
            }
        } else if !key.wraps {
            pango_layout_set_single_paragraph_mode(layout, 1)
        }
        layouts[key] = layout
        return layout
    }

    /// The Pango description of a font: its family first, then the fallback families.
    func description(of font: Font) -> OpaquePointer {
        if let cached = descriptions[font] { return cached }
        let description = pango_font_description_new()!
        let families = ([font.family] + Self.fallbackFamilies).joined(separator: ",")
        pango_font_description_set_family(description, families)
        pango_font_description_set_absolute_size(description, font.size * Double(PANGO_SCALE))
        pango_font_description_set_weight(description, font.weight == .bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL)
        descriptions[font] = description
        return description
    }

    /// How many layouts are kept (for tests of the cache).
    var cachedLayoutCount: Int { layouts.count }
}

/// A laid-out line: where its glyphs start relative to the origin it is drawn at, its advance
/// and its ink, in points.
struct ShapedLine {
    let line: UnsafeMutablePointer<PangoLayoutLine>
    /// Logical box (advance) relative to the line's origin on the baseline.
    let logicalX: Double, width: Double
    /// Ink box relative to the line's origin on the baseline.
    let ink: Rect
    /// The UTF-8 bytes of the source text this line shows.
    let byteRange: Range<Int>

    init(_ line: UnsafeMutablePointer<PangoLayoutLine>) {
        self.line = line
        var inkRect = PangoRectangle(), logical = PangoRectangle()
        pango_layout_line_get_extents(line, &inkRect, &logical)
        let scale = Double(PANGO_SCALE)
        logicalX = Double(logical.x) / scale
        width = Double(logical.width) / scale
        ink = Rect(
            x: Double(inkRect.x) / scale, y: Double(inkRect.y) / scale,
            width: Double(inkRect.width) / scale, height: Double(inkRect.height) / scale)
        let start = Int(line.pointee.start_index)
        byteRange = start..<(start + Int(line.pointee.length))
    }
}

extension TextEngine {
    /// The lines of a layout, first to last.
    func lines(of layout: OpaquePointer) -> [ShapedLine] {
        let count = Int(pango_layout_get_line_count(layout))
        return (0..<count).compactMap { index in pango_layout_get_line_readonly(layout, Int32(index)).map(ShapedLine.init) }
    }
}

// An engine moves between threads whole (the pool, a scene's actor), never used by two at once.
extension TextEngine: @unchecked Sendable {}
