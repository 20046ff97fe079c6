import Synchronization

/// Measures text without a target canvas (for layout before anything is drawn).
public enum TextMetrics {
    private static let scratch = Mutex(Canvas(pixels: PixelBuffer(width: 1, height: 1), scale: 1))

    public static func size(of text: String, font: Font) -> Size {
        scratch.withLock { $0.measure(text, font: font) }
    }
}

extension Canvas: @unchecked Sendable {}
