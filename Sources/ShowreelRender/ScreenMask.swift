import Synchronization

/// The pixels that lie outside a device's physical screen (rounded corners, sensor housing).
///
/// Built once per profile, then applied to every frame with a cheap per-row span fill,
/// which is what `recordVideo --mask=black` and `screenshot --mask=black` use.
public struct ScreenMask: Sendable {
    /// For each pixel row, the spans [start, end) to paint black.
    private let rows: [[Range<Int>]]
    public let width: Int
    public let height: Int

    /// The mask of `profile`, built once per profile in a process: building it draws the
    /// shape and scans every pixel, which every test and flow would otherwise repeat.
    public static func of(_ profile: DeviceProfile) -> ScreenMask {
        if let mask = cache.withLock({ $0[profile] }) { return mask }
        let mask = ScreenMask(profile: profile)
        cache.withLock { $0[profile] = mask }
        return mask
    }

    private static let cache = Mutex<[DeviceProfile: ScreenMask]>([:])

    public init(profile: DeviceProfile) {
        width = profile.pixelWidth
        height = profile.pixelHeight
        let shape = PixelBuffer(width: width, height: height)
        let canvas = Canvas(pixels: shape, scale: Double(profile.scale))
        canvas.fill(Rect(x: 0, y: 0, width: profile.pointSize.width, height: profile.pointSize.height),
                    color: .white, cornerRadius: profile.cornerRadius)
        if let housing = profile.sensorHousing {
            canvas.fill(housing, color: .black, cornerRadius: housing.height / 2)
        }
        canvas.finish()
        // A pixel is outside the screen when the shape left it less than half white.
        var spansByRow: [[Range<Int>]] = []
        spansByRow.reserveCapacity(height)
        let (width, height, bytesPerRow) = (self.width, self.height, shape.bytesPerRow)
        shape.withUnsafeBytes { bytes in
            // Red is the third byte of a BGRA pixel.
            let red = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + 2
            for y in 0..<height {
                var spans: [Range<Int>] = []
                var start: Int?
                let row = red + y * bytesPerRow
                for x in 0..<width {
                    let outside = row[x * 4] < 128
                    if outside, start == nil { start = x }
                    if !outside, let s = start { spans.append(s..<x); start = nil }
                }
                if let s = start { spans.append(s..<width) }
                spansByRow.append(spans)
            }
        }
        rows = spansByRow
    }

    /// Paints everything outside the screen opaque black (or fully transparent).
    public func apply(to pixels: PixelBuffer, transparent: Bool = false) {
        let fill: UInt32 = transparent ? 0 : 0xFF00_0000  // BGRA little-endian
        precondition(pixels.width == width && pixels.height == height, "mask is \(width)x\(height), frame is \(pixels.width)x\(pixels.height)")
        pixels.withUnsafeMutableBytes { bytes in
            for (y, spans) in rows.enumerated() where !spans.isEmpty {
                let row = bytes.baseAddress!.advanced(by: y * pixels.bytesPerRow).assumingMemoryBound(to: UInt32.self)
                for span in spans {
                    (row + span.lowerBound).update(repeating: fill, count: span.count)
                }
            }
        }
    }

    /// True when (x, y) lies outside the screen's shape.
    public func masks(x: Int, y: Int) -> Bool { rows[y].contains { $0.contains(x) } }
}
