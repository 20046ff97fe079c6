import CCairo

/// Why a PNG could not be read.
public struct PNGDecodingError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

extension PixelBuffer {
    /// Reads a PNG file's bytes (through Cairo) into a BGRA buffer. Opaque PNGs get alpha 255;
    /// PNGs with alpha come back premultiplied, as Cairo stores them (and as `pngData()` wrote them).
    public convenience init(pngData: [UInt8]) throws {
        final class Source { let bytes: [UInt8]; var offset = 0; init(_ bytes: [UInt8]) { self.bytes = bytes } }
        let source = Source(pngData)
        let closure = Unmanaged.passUnretained(source).toOpaque()
        let surface = cairo_image_surface_create_from_png_stream(
            { closure, data, length in
                let source = Unmanaged<Source>.fromOpaque(closure!).takeUnretainedValue()
                let count = Int(length)
                guard source.offset + count <= source.bytes.count else { return CAIRO_STATUS_READ_ERROR }
                source.bytes.withUnsafeBufferPointer { buffer in
                    data!.update(from: buffer.baseAddress! + source.offset, count: count)
                }
                source.offset += count
                return CAIRO_STATUS_SUCCESS
            }, closure)
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PNGDecodingError(description: "not a readable PNG (\(String(cString: cairo_status_to_string(status))))")
        }
        cairo_surface_flush(surface)
        let format = cairo_image_surface_get_format(surface)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24, width > 0, height > 0,
            let data = cairo_image_surface_get_data(surface)
        else {
            throw PNGDecodingError(description: "unsupported PNG pixel format")
        }
        self.init(width: width, height: height)
        let opaque = format == CAIRO_FORMAT_RGB24
        withUnsafeMutableBytes { target in
            for row in 0..<height {
                let from = UnsafeRawPointer(data + row * stride)
                let to = target.baseAddress! + row * bytesPerRow
                to.copyMemory(from: from, byteCount: width * 4)
                if opaque {
                    let pixels = to.assumingMemoryBound(to: UInt8.self)
                    for x in 0..<width { pixels[x * 4 + 3] = 255 }
                }
            }
        }
    }
}
