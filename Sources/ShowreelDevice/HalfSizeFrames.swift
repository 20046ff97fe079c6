import ShowreelGraphics
import ShowreelRender

/// A display stream subscriber's frames at half the screen's size, for a client that asked
/// (a recorder whose video is half the screen): shrunk as the recorder would have shrunk them,
/// with libyuv's box filter, in one buffer of the subscriber's own that is sent and then
/// shrunk again where the next frame changed.
struct HalfSizeFrames {
    /// The last frame sent, at half size; it is written over by the next.
    private var pixels: PixelBuffer?

    /// `frame` at half its size (each side halved, rounded down), valid until the next call.
    /// Given what changed since the frame before, only that is shrunk again, and the half-size
    /// areas redone are what the frame says changed; otherwise all of it, changes unknown.
    mutating func shrunk(_ frame: Frame) -> Frame {
        let source = frame.pixels
        let (width, height) = (max(1, source.width / 2), max(1, source.height / 2))
        if let pixels, pixels.width == width, pixels.height == height, let changed = frame.changedAreas,
            FrameScaler.partFactor(fromWidth: source.width, height: source.height, toWidth: width, height: height) == 2
        {
            let parts = changed.map { FrameScaler.redrawnPart(of: $0.shrunk(by: 2), width: width, height: height) }.filter { !$0.isEmpty }
            for part in parts { FrameScaler.shrink(source, into: pixels, rows: part.rows, columns: part.columns) }
            return Frame(pixels: pixels, presentationTime: frame.presentationTime, changedAreas: parts)
        }
        let whole = PixelBuffer.reusing(pixels, width: width, height: height)
        FrameScaler.shrink(source, into: whole)
        pixels = whole
        return Frame(pixels: whole, presentationTime: frame.presentationTime)
    }
}
