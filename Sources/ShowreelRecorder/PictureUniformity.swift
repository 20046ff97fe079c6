import ShowreelRender

/// Whether a picture is one flat colour: a black or blank frame, as a recording that starts
/// before the app has drawn opens with. App Store review refuses a preview whose first frame is
/// not in the app.
package enum PictureUniformity {
    /// How far apart (0-255, any channel) the picture's pixels may be and still count as one
    /// colour: encoding noise, not content.
    static let tolerance = 12

    /// The picture's colour in words ("black", "white", "a single colour") when it is flat,
    /// nil when something is drawn on it.
    package static func flatColour(of pixels: PixelBuffer) -> String? {
        var low = [255, 255, 255], high = [0, 0, 0]
        let flat = pixels.withUnsafeBytes { bytes -> Bool in
            for y in stride(from: 0, to: pixels.height, by: 2) {
                let row = y * pixels.bytesPerRow
                for x in stride(from: 0, to: pixels.width, by: 2) {
                    for channel in 0..<3 {
                        let value = Int(bytes[row + x * 4 + channel])
                        low[channel] = min(low[channel], value)
                        high[channel] = max(high[channel], value)
                    }
                }
                if (0..<3).contains(where: { high[$0] - low[$0] > tolerance }) { return false }
            }
            return true
        }
        guard flat else { return nil }
        if high.allSatisfy({ $0 <= 24 }) { return "black" }
        if low.allSatisfy({ $0 >= 232 }) { return "white" }
        return "a single colour"
    }
}
