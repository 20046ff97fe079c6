import CCairo

/// Shrinks a frame into a smaller buffer with Cairo's bilinear filter (pixman's SIMD path).
///
/// Down to half size, bilinear sampling at pixel centres averages each source pixel's
/// neighbourhood, which at exactly 2:1 is the 2x2 box average swscale's area filter gives, at
/// a fraction of its cost. Below half size bilinear would skip pixels, so `canShrink` says no.
public enum FrameScaler {
    /// Whether `shrink` gives a faithful result from `source` to `destination` size.
    public static func canShrink(fromWidth sourceWidth: Int, height sourceHeight: Int, toWidth width: Int, height: Int) -> Bool {
        width <= sourceWidth && height <= sourceHeight && width * 2 >= sourceWidth && height * 2 >= sourceHeight
            && (width, height) != (sourceWidth, sourceHeight)
    }

    /// Draws `source` scaled to fill `destination`, replacing its pixels.
    public static func shrink(_ source: PixelBuffer, into destination: PixelBuffer) {
        source.withUnsafeBytes { sourceBytes in
            destination.withUnsafeMutableBytes { destinationBytes in
                // Cairo only reads the source surface; it takes a mutable pointer by its C signature.
                let input = cairo_image_surface_create_for_data(
                    UnsafeMutablePointer(mutating: sourceBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)),
                    CAIRO_FORMAT_ARGB32, Int32(source.width), Int32(source.height), Int32(source.bytesPerRow))
                let output = cairo_image_surface_create_for_data(
                    destinationBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                    Int32(destination.width), Int32(destination.height), Int32(destination.bytesPerRow))
                let context = cairo_create(output)
                defer {
                    cairo_destroy(context)
                    cairo_surface_destroy(output)
                    cairo_surface_destroy(input)
                }
                cairo_scale(context, Double(destination.width) / Double(source.width),
                            Double(destination.height) / Double(source.height))
                cairo_set_source_surface(context, input, 0, 0)
                cairo_pattern_set_filter(cairo_get_source(context), CAIRO_FILTER_BILINEAR)
                cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
                cairo_paint(context)
                cairo_surface_flush(output)
            }
        }
    }
}
