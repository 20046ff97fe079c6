import ShowreelGraphics
import Testing

@Suite("Pixel differences")
struct PixelDifferenceTests {
    @Test("a difference names its pixel count, bounding box and largest channel delta")
    func explainedDifference() throws {
        let a = PixelBuffer(width: 10, height: 10), b = PixelBuffer(width: 10, height: 10)
        b.withUnsafeMutableBytes { bytes in
            bytes[(3 * 10 + 2) * 4 + 2] = 200
            bytes[(5 * 10 + 6) * 4 + 0] = 17
        }
        let difference = try #require(b.difference(from: a))
        #expect(difference.differingPixels == 2)
        #expect(difference.boundingBox.x == 2 && difference.boundingBox.y == 3)
        #expect(difference.boundingBox.width == 5 && difference.boundingBox.height == 3)
        #expect(difference.maxChannelDelta == 200)
        #expect(difference.description.contains("2 of 100 pixels differ"))
        #expect(b.difference(from: a, tolerance: 200) == nil)
        #expect(PixelBuffer(width: 4, height: 4).difference(from: a)?.sizeMismatch != nil)
    }
}
