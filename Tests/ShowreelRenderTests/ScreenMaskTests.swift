import ShowreelRender
import ShowreelTestSupport
import Testing

/// The mask visits only the ends of rows and the sensor housing; every pixel of its result must
/// still match the shape drawn and read in full.
@Suite struct ScreenMaskTests {
    @Test(arguments: DeviceProfile.all)
    func matchesTheShapeEverywhere(profile: DeviceProfile) async throws {
        // Every pixel of two full screens, off the cooperative pool (long enough to hold one of
        // its threads); the expectations are checked here, where the test is known.
        let sizes = [(profile.pixelWidth, profile.pixelHeight), (profile.pixelWidth / 2, profile.pixelHeight / 2)]
        for (width, height) in sizes {
            let result = try await offPool { Self.compare(profile, width: width, height: height) }
            #expect(result.mismatches == 0, "\(profile.name) at \(width)x\(height)")
            if profile.cornerRadius > 0 { #expect(result.masksCorner) }
            #expect(!result.masksCentre)
        }
    }

    /// Pixels where the mask's result differs from the shape drawn, and what it says of a
    /// corner and of the centre.
    private static func compare(_ profile: DeviceProfile, width: Int, height: Int) -> (
        mismatches: Int, masksCorner: Bool, masksCentre: Bool
    ) {
        let shape = PixelBuffer(width: width, height: height)
        let canvas = Canvas(pixels: shape, scale: Double(width) / profile.pointSize.width)
        canvas.fill(
            Rect(x: 0, y: 0, width: profile.pointSize.width, height: profile.pointSize.height),
            color: .white, cornerRadius: profile.cornerRadius)
        if let housing = profile.sensorHousing { canvas.fill(housing, color: .black, cornerRadius: housing.height / 2) }
        canvas.finish()

        let frame = PixelBuffer(width: width, height: height, zeroed: false)
        frame.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0xFF) }
        let mask = ScreenMask(profile: profile, width: width, height: height)
        mask.apply(to: frame)
        var mismatches = 0
        for y in 0..<height {
            for x in 0..<width {
                let outside = shape.pixel(x: x, y: y).red < 128
                let painted = frame.pixel(x: x, y: y) == RGBA(red: 0, green: 0, blue: 0)
                if outside != painted || outside != mask.masks(x: x, y: y) { mismatches += 1 }
            }
        }
        return (mismatches, mask.masks(x: 0, y: 0), mask.masks(x: width / 2, y: height / 2))
    }
}
