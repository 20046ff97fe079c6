import ShowreelGraphics
import ShowreelRender
import Testing

/// Where a canvas says drawing landed (what a recorder converts again): every pixel the
/// drawing set lies inside it, also under a rotation (a turning screen's).
@Suite("Ink areas")
struct InkAreaTests {
    @Test("a square filled under a 45-degree turn: its ink area holds every pixel it set")
    func rotatedFill() throws {
        let pixels = PixelBuffer(width: 200, height: 200)
        let canvas = Canvas(pixels: pixels, scale: 1)
        canvas.clear(.black)
        let area = canvas.inkArea {
            canvas.withState {
                canvas.translate(x: 100, y: 100)
                canvas.rotate(by: .pi / 4)
                canvas.fill(Rect(x: -40, y: -40, width: 80, height: 80), color: .white)
            }
        }
        canvas.finish()
        let ink = try #require(area)
        // The turned square reaches 40 * sqrt(2) = 56.6 pixels from the centre: its corners'
        // pixels, outside the box of two of its corners, count too.
        #expect(ink.rows.lowerBound <= 44 && ink.rows.upperBound >= 156, "\(ink)")
        #expect(ink.columns.lowerBound <= 44 && ink.columns.upperBound >= 156, "\(ink)")
        var outside = 0
        pixels.withUnsafeBytes { bytes in
            for row in 0..<pixels.height {
                for column in 0..<pixels.width where bytes[row * pixels.bytesPerRow + column * 4 + 1] != 0 {
                    if !ink.rows.contains(row) || !ink.columns.contains(column) { outside += 1 }
                }
            }
        }
        #expect(outside == 0, "\(outside) pixels set outside \(ink)")
    }
}
