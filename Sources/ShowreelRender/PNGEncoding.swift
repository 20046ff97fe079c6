import CCairo

extension PixelBuffer {
    /// The buffer as a PNG file's bytes (lossless, with alpha).
    ///
    /// An opaque picture (a screen) goes through libpng's simplified writer with its fast
    /// settings: a 780x1688 screenshot in about 11 ms instead of Cairo's 70, for about a tenth
    /// more bytes. One with transparency goes through Cairo, which unpremultiplies its alpha.
    public func pngData() -> [UInt8] {
        isOpaque ? (fastPNGData() ?? cairoPNGData()) : cairoPNGData()
    }

    /// Whether every pixel's alpha is 255 (premultiplied and straight colours are then the same).
    private var isOpaque: Bool {
        withUnsafeBytes { bytes in
            showreel_is_opaque(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(width), Int32(height), Int32(bytesPerRow)) != 0
        }
    }

    /// libpng's fast writer, on BGRA bytes taken as they are; nil when it fails. `room` is
    /// what is set aside for the file at first (libpng's bound unless given).
    package func fastPNGData(room firstRoom: Int? = nil) -> [UInt8]? {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(PNG_FORMAT_BGRA)
        image.flags = UInt32(PNG_IMAGE_FLAG_FAST)
        defer { png_image_free(&image) }
        return withUnsafeBytes { bytes -> [UInt8]? in
            // In components (bytes here) from one row to the next.
            let stride = Int32(bytesPerRow)
            // One pass into room for the largest file this picture can make (libpng's bound),
            // not one to measure and one to write: compressing is the whole cost. Only the pages
            // written to are ever touched, and the file is copied out at its size.
            var room = firstRoom ?? Self.largestPNG(width: width, height: height)
            for _ in 0..<2 {
                let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: room, alignment: 16)
                defer { scratch.deallocate() }
                var size = png_alloc_size_t(room)
                if png_image_write_to_memory(&image, scratch.baseAddress, &size, 0, bytes.baseAddress, stride, nil) != 0 {
                    return [UInt8](UnsafeRawBufferPointer(rebasing: scratch[..<Int(size)]))
                }
                // libpng says how much it needed when the room was too small (a zlib that makes
                // more than zlib's bound); anything else is a failure.
                guard Int(size) > room else { return nil }
                room = Int(size)
                image.warning_or_error = 0
            }
            return nil
        }
    }

    /// libpng's `PNG_IMAGE_PNG_SIZE_MAX` for an 8-bit RGBA image without a colour map: the
    /// rows with their filter bytes, zlib's bound on compressing them, and the chunks around.
    package static func largestPNG(width: Int, height: Int) -> Int {
        let data = height * (width * 4 + 1)
        let compressed = data + (data + 7) >> 3 + (data + 63) >> 6 + 11
        let chunks = 8 + 25 + 16 + 44 + 12 + 12 + 12 * (compressed / 8192)
        return chunks + compressed
    }

    /// Cairo's PNG writer.
    private func cairoPNGData() -> [UInt8] {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        withUnsafeMutableBytes { memory in
            let surface = cairo_image_surface_create_for_data(
                memory.baseAddress!.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                Int32(width), Int32(height), Int32(bytesPerRow))
            defer { cairo_surface_destroy(surface) }
            let closure = Unmanaged.passUnretained(sink).toOpaque()
            cairo_surface_write_to_png_stream(
                surface,
                { closure, data, length in
                    let sink = Unmanaged<Sink>.fromOpaque(closure!).takeUnretainedValue()
                    sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                    return CAIRO_STATUS_SUCCESS
                }, closure)
        }
        return sink.bytes
    }
}
