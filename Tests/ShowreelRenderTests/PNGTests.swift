import ShowreelRender
import ShowreelTestSupport
import Testing

@Suite("Image support")
struct ImageSupportTests {
    @Test("PNG bytes read back into the same pixels")
    func pngRoundTrip() throws {
        // A screen's worth of what PNG must keep exactly: flat colour, translucency, anti-aliased text.
        let pixels = makePixels(index: 3, width: 375, height: 667)
        let canvas = Canvas(pixels: pixels, scale: 1)
        canvas.fillCircle(center: Point(x: 180, y: 300), radius: 90, color: Color(hex: 0x3366CC, alpha: 0.6))
        canvas.draw("Hello, Showreel", baselineAt: Point(x: 24, y: 420), font: .headline, color: .black)
        canvas.finish()
        let decoded = try PixelBuffer(pngData: pixels.pngData())
        #expect(decoded.width == pixels.width && decoded.height == pixels.height)
        #expect(decoded.difference(from: pixels) == nil)
        #expect(throws: PNGDecodingError.self) { try PixelBuffer(pngData: [1, 2, 3]) }
    }
}
