import CXCB
import ShowreelGraphics

#if canImport(Glibc)
import Glibc
#endif

/// The pointer as the X server shows it (XFIXES' cursor image: premultiplied ARGB with its hot
/// spot), drawn onto captured frames: the root window's pixels never include it.
struct PointerImage {
    let x: Int
    let y: Int
    let width: Int
    let height: Int
    let pixels: [UInt32]

    /// Where the pointer is and what it looks like now; nil when it is hidden or the
    /// connection broke.
    static func current(_ connection: X11Connection) -> PointerImage? {
        let cookie = xcb_xfixes_get_cursor_image(connection.connection)
        guard let reply = xcb_xfixes_get_cursor_image_reply(connection.connection, cookie, nil) else { return nil }
        defer { free(reply) }
        let header = reply.pointee
        let count = Int(header.width) * Int(header.height)
        guard count > 0, let image = xcb_xfixes_get_cursor_image_cursor_image(reply) else { return nil }
        return PointerImage(
            x: Int(header.x) - Int(header.xhot), y: Int(header.y) - Int(header.yhot),
            width: Int(header.width), height: Int(header.height),
            pixels: Array(UnsafeBufferPointer(start: image, count: count)))
    }

    /// Draws the pointer over `buffer` (source-over, premultiplied), clipped to it.
    func draw(on buffer: PixelBuffer) {
        let left = max(0, x), top = max(0, y)
        let right = min(buffer.width, x + width), bottom = min(buffer.height, y + height)
        guard left < right, top < bottom else { return }
        buffer.withUnsafeMutableBytes { bytes in
            for row in top..<bottom {
                let line = (bytes.baseAddress! + row * buffer.bytesPerRow).assumingMemoryBound(to: UInt32.self)
                for column in left..<right {
                    let source = pixels[(row - y) * width + (column - x)]
                    let alpha = source >> 24
                    guard alpha > 0 else { continue }
                    line[column] = alpha == 255 ? source : Self.blend(source, over: line[column], alpha: alpha)
                }
            }
        }
    }

    /// Premultiplied source-over for one BGRA pixel; the result is opaque.
    private static func blend(_ source: UInt32, over destination: UInt32, alpha: UInt32) -> UInt32 {
        let keep = 255 - alpha
        var result: UInt32 = 0xFF00_0000
        for shift in stride(from: 0, through: 16, by: 8) {
            let channel = ((source >> UInt32(shift)) & 0xFF) + (((destination >> UInt32(shift)) & 0xFF) * keep + 127) / 255
            result |= min(channel, 255) << UInt32(shift)
        }
        return result
    }
}
