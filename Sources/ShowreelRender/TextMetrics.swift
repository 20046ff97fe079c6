import Synchronization

/// Measures text without a target canvas (for layout before anything is drawn).
/// Measurements are cached: layout asks for the same strings on every pass.
public enum TextMetrics {
    private struct Key: Hashable { let text: String; let font: Font }
    private struct State {
        var canvas = Canvas(pixels: PixelBuffer(width: 1, height: 1), scale: 1)
        var sizes: [Key: Size] = [:]
    }
    private static let state = Mutex(State())

    public static func size(of text: String, font: Font) -> Size {
        state.withLock { state in
            let key = Key(text: text, font: font)
            if let size = state.sizes[key] { return size }
            let size = state.canvas.measure(text, font: font)
            if state.sizes.count > 4096 { state.sizes.removeAll(keepingCapacity: true) }
            state.sizes[key] = size
            return size
        }
    }

    /// Forgets the cached sizes (the text path changed).
    static func forgetSizes() {
        state.withLock { $0.sizes.removeAll() }
    }

    /// Ascent, descent and line height of a font.
    public static func metrics(of font: Font) -> FontMetrics {
        state.withLock { $0.canvas.metrics(of: font) }
    }

    /// The lines `text` wraps into at `width` (see `Canvas.drawWrapped`).
    public static func lines(of text: String, font: Font, width: Double, maxLines: Int = 0) -> [String] {
        state.withLock { $0.canvas.wrap(text, font: font, width: width, maxLines: maxLines) }
    }

    /// The size of `text` wrapped at `width`.
    public static func wrappedSize(of text: String, font: Font, width: Double, maxLines: Int = 0, lineSpacing: Double = 0) -> Size {
        let lines = lines(of: text, font: font, width: width, maxLines: maxLines)
        let lineHeight = metrics(of: font).lineHeight
        let widest = lines.map { size(of: $0, font: font).width }.max() ?? 0
        return Size(width: widest, height: Double(lines.count) * (lineHeight + lineSpacing) - lineSpacing)
    }
}

extension Canvas: @unchecked Sendable {}
