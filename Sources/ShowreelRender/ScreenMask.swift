import Synchronization

/// The pixels that lie outside a device's physical screen (rounded corners, sensor housing).
///
/// A mask is a profile and a pixel size; its shape is drawn and scanned into runs of pixels
/// the first time a mask of that profile and size is used in a process, then every frame gets
/// a cheap fill of those runs. This is what `recordVideo --mask=black` and `screenshot
/// --mask=black` use.
public struct ScreenMask: Hashable, Sendable {
    /// The screen whose shape this is (drawn at `width` x `height`).
    public let profile: DeviceProfile
    public let width: Int
    public let height: Int
    private let shape: Shape

    /// The mask of `profile` at its pixel size, or at `width` x `height` for a frame scaled
    /// before masking.
    public init(profile: DeviceProfile, width: Int? = nil, height: Int? = nil) {
        self.profile = profile
        self.width = width ?? profile.pixelWidth
        self.height = height ?? profile.pixelHeight
        shape = Shape()
    }

    public static func == (lhs: ScreenMask, rhs: ScreenMask) -> Bool {
        lhs.profile == rhs.profile && lhs.width == rhs.width && lhs.height == rhs.height
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(profile)
        hasher.combine(width)
        hasher.combine(height)
    }

    /// Paints everything outside the screen opaque black (or fully transparent): in every row,
    /// or in `rows` only (those a shrink just redid).
    public func apply(to pixels: PixelBuffer, rows: Range<Int>? = nil, transparent: Bool = false) {
        precondition(
            pixels.width == width && pixels.height == height, "mask is \(width)x\(height), frame is \(pixels.width)x\(pixels.height)")
        let runs = self.runs
        runs.fill(pixels, with: transparent ? runs.transparentRow : runs.blackRow, rows: (rows ?? 0..<height).clamped(to: 0..<height))
    }

    /// True when (x, y) lies outside the screen's shape.
    public func masks(x: Int, y: Int) -> Bool { runs.contains(x: x, y: y) }

    private var runs: Runs {
        shape.resolved { Runs.cached(profile: profile, width: width, height: height) }
    }
}

/// A mask's runs once first needed: a mask made but never applied (a recorder that masks its
/// frames after shrinking them) draws nothing.
private final class Shape: Sendable {
    private let runs = Mutex<Runs?>(nil)

    func resolved(_ make: () -> Runs) -> Runs {
        runs.withLock { runs in
            if let runs { return runs }
            let made = make()
            runs = made
            return made
        }
    }
}

/// A mask's shape as runs of pixels (row, first column, length), with a row of each fill
/// colour to copy from: a frame's fill is a few hundred `memcpy`s, whatever the build.
private final class Runs: Sendable {
    /// (y, x, count) for each run, flat, top to bottom.
    let triples: [Int]
    /// Where each row's runs begin in `triples` (one more entry than rows: the end).
    let rowStarts: [Int]
    let blackRow: [UInt32]
    let transparentRow: [UInt32]

    init(triples: [Int], width: Int, height: Int) {
        self.triples = triples
        var rowStarts = [Int](repeating: triples.count, count: height + 1)
        for index in stride(from: triples.count - 3, through: 0, by: -3) { rowStarts[triples[index]] = index }
        for y in stride(from: height - 1, through: 0, by: -1) where rowStarts[y] == triples.count { rowStarts[y] = rowStarts[y + 1] }
        self.rowStarts = rowStarts
        blackRow = Array(repeating: 0xFF00_0000, count: width)  // BGRA little-endian
        transparentRow = Array(repeating: 0, count: width)
    }

    /// Drawing the shape and scanning every pixel once per profile and size, not per test or flow.
    private static let cache = Mutex<[Key: Runs]>([:])

    private struct Key: Hashable {
        let profile: DeviceProfile, width: Int, height: Int
    }

    static func cached(profile: DeviceProfile, width: Int, height: Int) -> Runs {
        let key = Key(profile: profile, width: width, height: height)
        if let runs = cache.withLock({ $0[key] }) { return runs }
        let runs = scan(profile: profile, width: width, height: height)
        cache.withLock { $0[key] = runs }
        return runs
    }

    private static func scan(profile: DeviceProfile, width: Int, height: Int) -> Runs {
        let shape = PixelBuffer(width: width, height: height)
        let canvas = Canvas(pixels: shape, scale: Double(width) / profile.pointSize.width)
        canvas.fill(
            Rect(x: 0, y: 0, width: profile.pointSize.width, height: profile.pointSize.height),
            color: .white, cornerRadius: profile.cornerRadius)
        if let housing = profile.sensorHousing {
            canvas.fill(housing, color: .black, cornerRadius: housing.height / 2)
        }
        canvas.finish()
        // A pixel is outside the screen when the shape left it less than half white. The outside
        // is what runs in from each end of a row (the corners) and what lies in the sensor
        // housing, so only those pixels are visited: a frame-sized scan costs milliseconds.
        let housing = profile.sensorHousing.flatMap {
            PixelArea(covering: $0, scale: Double(width) / profile.pointSize.width, width: width, height: height)
        }
        var triples: [Int] = []
        let bytesPerRow = shape.bytesPerRow
        shape.withUnsafeBytes { bytes in
            // Red is the third byte of a BGRA pixel.
            let red = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + 2
            for y in 0..<height {
                let row = red + y * bytesPerRow
                func outside(_ x: Int) -> Bool { row[x * 4] < 128 }
                var left = 0
                while left < width, outside(left) { left += 1 }
                if left > 0 { triples += [y, 0, left] }
                guard left < width else { continue }
                var right = width
                while right > left, outside(right - 1) { right -= 1 }
                if let housing, housing.rows.contains(y) {
                    var start: Int?
                    let end = min(right, housing.columns.upperBound)
                    for x in max(left, housing.columns.lowerBound)..<max(left, end) {
                        if outside(x), start == nil { start = x }
                        if !outside(x), let s = start { triples += [y, s, x - s]; start = nil }
                    }
                    if let s = start { triples += [y, s, end - s] }
                }
                if right < width { triples += [y, right, width - right] }
            }
        }
        return Runs(triples: triples, width: width, height: height)
    }

    /// Fills the runs of `rows` (within the mask's height) with `row`'s pixels.
    func fill(_ pixels: PixelBuffer, with row: [UInt32], rows: Range<Int>) {
        let bytesPerRow = pixels.bytesPerRow
        // Most rows of a screen have no corner or notch to mask: nothing to reach for then.
        guard !rows.isEmpty, rowStarts[rows.lowerBound] < rowStarts[rows.upperBound] else { return }
        row.withUnsafeBytes { source in
            triples.withUnsafeBufferPointer { triples in
                pixels.withUnsafeMutableBytes { bytes in
                    let base = bytes.baseAddress!
                    var index = rowStarts[rows.lowerBound]
                    let end = rowStarts[rows.upperBound]
                    while index < end {
                        let (y, x, count) = (triples[index], triples[index + 1], triples[index + 2])
                        (base + y * bytesPerRow + x * 4).copyMemory(from: source.baseAddress!, byteCount: count * 4)
                        index += 3
                    }
                }
            }
        }
    }

    func contains(x: Int, y: Int) -> Bool {
        guard (0..<rowStarts.count - 1).contains(y) else { return false }
        return stride(from: rowStarts[y], to: rowStarts[y + 1], by: 3).contains { index in
            (triples[index + 1]..<(triples[index + 1] + triples[index + 2])).contains(x)
        }
    }
}
