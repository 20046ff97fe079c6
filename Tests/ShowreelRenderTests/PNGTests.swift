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

    @Test("an opaque screen goes through libpng's fast writer, a translucent picture through Cairo's; both read back the same")
    func opaqueAndTranslucentPictures() throws {
        let screen = makePixels(index: 1, width: 780, height: 1688)
        let canvas = Canvas(pixels: screen, scale: 2)
        canvas.draw("Opaque, every pixel", baselineAt: Point(x: 24, y: 120), font: .headline, color: .black)
        canvas.finish()
        let fast = screen.pngData()
        #expect(try PixelBuffer(pngData: fast).difference(from: screen) == nil)
        // libpng's simplified writer marks its output sRGB; Cairo's writes no such chunk.
        #expect(fast.containsChunk("sRGB"))

        let translucent = PixelBuffer(width: 200, height: 120)
        let layer = Canvas(pixels: translucent, scale: 1)
        layer.fillCircle(center: Point(x: 100, y: 60), radius: 50, color: Color(hex: 0xCC3366, alpha: 0.5))
        layer.finish()
        let cairo = translucent.pngData()
        #expect(try PixelBuffer(pngData: cairo).difference(from: translucent) == nil)
        #expect(!cairo.containsChunk("sRGB"))

        // One translucent pixel is enough, wherever it is: in a step of eight pixels, or in the
        // four a 780-pixel row has after its last step.
        for (x, y) in [(779, 5), (3, 1687), (776, 0), (0, 0)] {
            let almost = screen.copy()
            almost.withUnsafeMutableBytes { bytes in
                for channel in 0..<4 { bytes[y * almost.bytesPerRow + x * 4 + channel] = channel == 3 ? 128 : 64 }
            }
            let file = almost.pngData()
            #expect(!file.containsChunk("sRGB"), "the pixel at (\(x), \(y)) was taken as opaque")
            #expect(try PixelBuffer(pngData: file).difference(from: almost) == nil)
        }
    }

    @Test("libpng's writer makes a file in one pass, and in two when the room set aside is too small")
    func onePassAndTooLittleRoom() throws {
        // Noise does not compress (its colours; the opaque alpha does): the file nears the bound.
        var generator = SystemRandomNumberGenerator()
        let noise = PixelBuffer(width: 240, height: 160)
        noise.withUnsafeMutableBytes { bytes in
            for index in bytes.indices { bytes[index] = index % 4 == 3 ? 255 : UInt8.random(in: 0...255, using: &generator) }
        }
        let file = try #require(noise.fastPNGData())
        #expect(try PixelBuffer(pngData: file).difference(from: noise) == nil)
        #expect(file.count > 240 * 160 * 3 && file.count <= PixelBuffer.largestPNG(width: 240, height: 160))
        // Too little room: libpng says how much it needs, and the second pass makes the same file.
        #expect(noise.fastPNGData(room: 1000) == file)
    }
}

extension [UInt8] {
    fileprivate func containsChunk(_ type: String) -> Bool {
        let name = Array(type.utf8)
        return indices.dropLast(3).contains { self[$0..<$0 + 4].elementsEqual(name) }
    }
}

extension ImageSupportTests {
    @Test("a JPEG is a whole JFIF file; a picture libjpeg refuses (wider than 65500) is nil, its error caught, not an exit")
    func jpegFiles() {
        let bytes = makePixels(index: 2, width: 195, height: 422).jpegData()
        #expect(bytes.map { Array($0.prefix(4)) } == [0xFF, 0xD8, 0xFF, 0xE0], "a JFIF header")
        #expect(bytes.map { Array($0.suffix(2)) } == [0xFF, 0xD9])
        #expect(PixelBuffer(width: 70_000, height: 1).jpegData() == nil)
    }
}
