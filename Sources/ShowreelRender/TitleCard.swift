/// The card shown before each flow in a demo reel: the flow's name, large, and a subtitle.
public enum TitleCard {
    /// A `width` x `height` pixel card; text is sized from the width so any video size works.
    public static func render(title: String, subtitle: String?, width: Int, height: Int) -> PixelBuffer {
        let pixels = PixelBuffer(width: width, height: height, zeroed: false)
        let canvas = Canvas(pixels: pixels, scale: 1)
        let w = Double(width), h = Double(height)
        canvas.fillGradient(Rect(x: 0, y: 0, width: w, height: h), from: Color(hex: 0x1C1C3A), to: Color(hex: 0x0A0A12))
        let titleFont = Font.system(max(12, w / 13), weight: .bold)
        let margin = w * 0.08
        let area = Rect(x: margin, y: h * 0.3, width: w - 2 * margin, height: h * 0.3)
        canvas.drawWrapped(
            title, in: area, font: titleFont, color: .white, alignment: .center, maxLines: 4,
            lineSpacing: titleFont.size * 0.2, centered: true)
        if let subtitle {
            let font = Font.system(max(8, w / 28))
            canvas.drawWrapped(
                subtitle, in: Rect(x: margin, y: h * 0.62, width: w - 2 * margin, height: h * 0.1),
                font: font, color: Color(hex: 0xB0B0C8), alignment: .center, maxLines: 2)
        }
        canvas.finish()
        return pixels
    }
}
