import Synchronization

/// The pixels that lie outside a device's physical screen (rounded corners, sensor housing).
///
/// A mask is a profile and a pixel size; its shape is drawn and scanned into per-row spans the
/// first time a mask of that profile and size is applied in a process, then every frame gets a
/// cheap span fill. This is what `recordVideo --mask=black` and `screenshot --mask=black` use.
public struct ScreenMask: Hashable, Sendable {
    /// The screen whose shape this is (drawn at `width` x `height`).
    public let profile: DeviceProfile
    public let width: Int
    public let height: Int

    /// The mask of `profile` at its pixel size, or at `width` x `height` for a frame scaled
    /// before masking.
    public init(profile: DeviceProfile, width: Int? = nil, height: Int? = nil) {
        self.profile = profile
        self.width = width ?? profile.pixelWidth
        self.height = height ?? profile.pixelHeight
    }

    /// For each pixel row, the spans [start, end) to paint black.
    private var rows: [[Range<Int>]] {
        if let rows = Self.spans.withLock({ $0[self] }) { return rows }
        let rows = scan()
        Self.spans.withLock { $0[self] = rows }
        return rows
    }

    /// Drawing the shape and scanning every pixel once per profile and size, not per test or flow.
    private static let spans = Mutex<[ScreenMask: [[Range<Int>]]]>([:])

    private func scan() -> [[Range<Int>]] {
        let shape = PixelBuffer(width: width, height: height)
        let canvas = Canvas(pixels: shape, scale: Double(width) / profile.pointSize.width)
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
        return spansByRow
    }

    /// Paints everything outside the screen opaque black (or fully transparent).
    public func apply(to pixels: PixelBuffer, transparent: Bool = false) {
        let fill: UInt32 = transparent ? 0 : 0xFF00_0000  // BGRA little-endian
        precondition(pixels.width == width && pixels.height == height, "mask is \(width)x\(height), frame is \(pixels.width)x\(pixels.height)")
        let rows = self.rows
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
