import CCairo

#if canImport(CYUV)
import CYUV
#endif

/// Shrinks a frame into a smaller buffer: a box filter (each output pixel the average of the
/// source pixels it covers), what swscale's area filter gives, at a fraction of its cost.
///
/// On Linux libyuv's SIMD box filter does it (a 780x1688 frame in about 0.1 ms once in cache,
/// a third of Cairo's bilinear path); elsewhere Cairo's bilinear filter, which down to half
/// size averages each source pixel's neighbourhood the same way. Below half size bilinear
/// would skip pixels, so `canShrink` says no.
public enum FrameScaler {
    /// Whether `shrink` gives a faithful result from `source` to `destination` size.
    public static func canShrink(fromWidth sourceWidth: Int, height sourceHeight: Int, toWidth width: Int, height: Int) -> Bool {
        width <= sourceWidth && height <= sourceHeight && width * 2 >= sourceWidth && height * 2 >= sourceHeight
            && (width, height) != (sourceWidth, sourceHeight)
    }

    /// Whether `shrink(_:into:rows:columns:)` can redo a part of the destination alone: at
    /// exactly half size each output pixel comes from its own 2x2 source pixels and no others.
    public static func shrinksInParts(fromWidth sourceWidth: Int, height sourceHeight: Int, toWidth width: Int, height: Int) -> Bool {
        partFactor(fromWidth: sourceWidth, height: sourceHeight, toWidth: width, height: height) == 2
    }

    /// How many source pixels each way make one destination pixel, when a part of the
    /// destination can be redone alone (each output pixel from its own square of source pixels
    /// and no others): 2 (half size), or 4 (a quarter, libyuv's box filter only); else nil.
    package static func partFactor(fromWidth sourceWidth: Int, height sourceHeight: Int, toWidth width: Int, height: Int) -> Int? {
        // Asked for every changed band of every recorded frame: no array, no closure.
        if sourceWidth == 2 * width, sourceHeight == 2 * height { return 2 }
        #if canImport(CYUV)
        if sourceWidth == 4 * width, sourceHeight == 4 * height { return 4 }
        #endif
        return nil
    }

    /// Shrinks `source` into only `rows` and `columns` of `destination` (in the destination's
    /// pixels), leaving the rest as it is; when it can be done in parts (`partFactor`), else
    /// the whole frame.
    public static func shrink(_ source: PixelBuffer, into destination: PixelBuffer, rows: Range<Int>, columns: Range<Int>) {
        let part = redrawnPart(of: PixelArea(rows: rows, columns: columns), width: destination.width, height: destination.height)
        guard
            let factor = partFactor(fromWidth: source.width, height: source.height, toWidth: destination.width, height: destination.height)
        else {
            return shrink(source, into: destination)
        }
        guard !part.isEmpty else { return }
        shrink(source, factor: factor, area: part, into: destination, at: (part.columns.lowerBound, part.rows.lowerBound))
    }

    /// Shrinks into `part` (a buffer of `area`'s size) the pixels `area` of a `width` x
    /// `height` picture of `source` has: the same pixels `shrink(_:into:rows:columns:)` puts
    /// there. `area` is a `redrawnPart` of that picture, which must be one `source` shrinks into
    /// in parts (`partFactor`).
    package static func shrink(_ source: PixelBuffer, area: PixelArea, ofWidth width: Int, height: Int, into part: PixelBuffer) {
        guard let factor = partFactor(fromWidth: source.width, height: source.height, toWidth: width, height: height) else {
            preconditionFailure("a \(source.width)x\(source.height) frame does not shrink in parts to \(width)x\(height)")
        }
        precondition(part.width == area.columns.count && part.height == area.rows.count, "a part buffer of another size than its area")
        shrink(source, factor: factor, area: area, into: part, at: (0, 0), pictureSize: (width, height))
    }

    /// Shrinks the source pixels of `area` (of a picture `factor` times smaller than `source`)
    /// into `destination`, whose pixel (`x`, `y`) is the area's corner; `pictureSize` is that
    /// picture's (nil: `destination` is the whole picture).
    private static func shrink(
        _ source: PixelBuffer, factor: Int, area: PixelArea, into destination: PixelBuffer, at corner: (x: Int, y: Int),
        pictureSize: (width: Int, height: Int)? = nil
    ) {
        let (rows, columns) = (area.rows, area.columns)
        #if canImport(CYUV)
        source.withUnsafeBytes { sourceBytes in
            destination.withUnsafeMutableBytes { destinationBytes in
                let from =
                    sourceBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    + factor * rows.lowerBound * source.bytesPerRow + factor * columns.lowerBound * 4
                let to =
                    destinationBytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
                    + corner.y * destination.bytesPerRow + corner.x * 4
                _ = ARGBScale(
                    from, Int32(source.bytesPerRow), Int32(factor * columns.count), Int32(factor * rows.count),
                    to, Int32(destination.bytesPerRow), Int32(columns.count), Int32(rows.count), kFilterBox)
            }
        }
        #else
        let size = pictureSize ?? (width: destination.width, height: destination.height)
        paintScaled(
            source, into: destination, rows: rows, columns: columns, pictureSize: size,
            origin: (columns.lowerBound - corner.x, rows.lowerBound - corner.y))
        #endif
    }

    /// The pixels of a `width` x `height` destination that shrinking `area` of it in parts
    /// writes: the area on the picture, widened to whole steps of 4 columns. libyuv's SIMD rows
    /// take 4 pixels at a time and leave the rest of a row to C code that rounds differently: a
    /// part starting and ending on those steps (or at the row's end) gets each pixel from the
    /// same code as a whole shrink, so the same bytes.
    package static func redrawnPart(of area: PixelArea, width: Int, height: Int) -> PixelArea {
        PixelArea(
            rows: area.rows.clamped(to: 0..<height),
            columns: (max(0, area.columns.lowerBound) & ~3)..<min(width, (area.columns.upperBound + 3) & ~3))
    }

    /// Draws `source` scaled to fill `destination`, replacing its pixels.
    public static func shrink(_ source: PixelBuffer, into destination: PixelBuffer) {
        #if canImport(CYUV)
        source.withUnsafeBytes { sourceBytes in
            destination.withUnsafeMutableBytes { destinationBytes in
                _ = ARGBScale(
                    sourceBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(source.bytesPerRow),
                    Int32(source.width), Int32(source.height),
                    destinationBytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(destination.bytesPerRow),
                    Int32(destination.width), Int32(destination.height), kFilterBox)
            }
        }
        #else
        paintScaled(
            source, into: destination, rows: 0..<destination.height, columns: 0..<destination.width,
            pictureSize: (destination.width, destination.height))
        #endif
    }

    #if !canImport(CYUV)
    /// Cairo's bilinear path, painting only `rows` and `columns` of a `pictureSize` picture
    /// of `source`, into `destination`, which holds that picture from `origin` on.
    private static func paintScaled(
        _ source: PixelBuffer, into destination: PixelBuffer, rows: Range<Int>, columns: Range<Int>,
        pictureSize: (width: Int, height: Int), origin: (x: Int, y: Int) = (0, 0)
    ) {
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
                cairo_translate(context, Double(-origin.x), Double(-origin.y))
                cairo_rectangle(context, Double(columns.lowerBound), Double(rows.lowerBound), Double(columns.count), Double(rows.count))
                cairo_clip(context)
                cairo_scale(
                    context, Double(pictureSize.width) / Double(source.width),
                    Double(pictureSize.height) / Double(source.height))
                cairo_set_source_surface(context, input, 0, 0)
                cairo_pattern_set_filter(cairo_get_source(context), CAIRO_FILTER_BILINEAR)
                cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
                cairo_paint(context)
                cairo_surface_flush(output)
            }
        }
    }
    #endif
}
