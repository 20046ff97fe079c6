/// A subtitle drawn onto a video frame (not into the app): white text on a dark rounded band
/// near the bottom of the screen, as demo videos caption what happens.
public enum Caption {
    /// Draws `text` onto `pixels` (a screen of `scale` pixels per point), wrapped to at most
    /// three lines, its band ending just above `bottom` (points; default: near the screen's
    /// bottom), so a caption can sit above a keyboard instead of on it. Returns the pixels the
    /// band covers (nil when it lies off the picture): all that drawing it changed.
    @discardableResult
    public static func draw(_ text: String, on pixels: PixelBuffer, scale: Double, bottom: Double? = nil) -> PixelArea? {
        let canvas = Canvas(pixels: pixels, scale: scale)
        let width = Double(pixels.width) / scale, height = Double(pixels.height) / scale
        let font = Font.system(max(15, width / 22), weight: .bold)
        let inset = width * 0.06, padding = font.size * 0.6
        let textWidth = width - 2 * inset - 2 * padding
        let lines = canvas.wrap(text, font: font, width: textWidth, maxLines: 3)
        let lineHeight = canvas.metrics(of: font).lineHeight
        let end = bottom.map { $0 - padding } ?? height * 0.86
        let band = Rect(
            x: inset, y: end - Double(lines.count) * lineHeight - 2 * padding,
            width: width - 2 * inset, height: Double(lines.count) * lineHeight + 2 * padding)
        canvas.fill(band, color: Color(hex: 0x000000, alpha: 0.72), cornerRadius: padding)
        canvas.drawWrapped(
            text, in: Rect(x: band.x + padding, y: band.y + padding, width: textWidth, height: band.height - 2 * padding),
            font: font, color: .white, alignment: .center, maxLines: 3)
        canvas.finish()
        return PixelArea(covering: band, scale: scale, width: pixels.width, height: pixels.height)
    }
}
