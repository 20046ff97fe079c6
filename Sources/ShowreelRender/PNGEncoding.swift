import CCairo

extension PixelBuffer {
    /// The buffer as a PNG file's bytes, through Cairo (lossless, with alpha).
    public func pngData() -> [UInt8] {
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
