#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How two images differ, explained for a failing golden-image test: how many pixels,
/// where (bounding box), and by how much (largest channel delta), with the first sample.
public struct PixelDifference: Equatable, Sendable, CustomStringConvertible {
    public var width: Int, height: Int
    public var differingPixels: Int
    /// The smallest rectangle (in pixels) holding every differing pixel.
    public var boundingBox: (x: Int, y: Int, width: Int, height: Int)
    public var maxChannelDelta: Int
    public var firstDifference: (x: Int, y: Int, expected: RGBA, actual: RGBA)?
    /// Set when the sizes differ (nothing else is compared).
    public var sizeMismatch: String?

    public static func == (a: Self, b: Self) -> Bool { a.description == b.description }

    public var description: String {
        if let sizeMismatch { return sizeMismatch }
        let share = Double(differingPixels) / Double(max(width * height, 1)) * 100
        var text =
            "\(differingPixels) of \(width * height) pixels differ (\(String(format2: share))%), "
            + "within x \(boundingBox.x)..<\(boundingBox.x + boundingBox.width), y \(boundingBox.y)..<\(boundingBox.y + boundingBox.height) "
            + "(\(boundingBox.width)x\(boundingBox.height)); largest channel delta \(maxChannelDelta)"
        if let first = firstDifference {
            text += "; first at (\(first.x), \(first.y)): expected \(first.expected), got \(first.actual)"
        }
        return text
    }
}

extension PixelBuffer {
    /// Compares every visible pixel with `expected`; nil when they are identical.
    /// `tolerance` is the largest channel delta that still counts as equal (0: exact).
    public func difference(from expected: PixelBuffer, tolerance: Int = 0) -> PixelDifference? {
        guard width == expected.width, height == expected.height else {
            return PixelDifference(
                width: width, height: height, differingPixels: width * height,
                boundingBox: (0, 0, width, height), maxChannelDelta: 255, firstDifference: nil,
                sizeMismatch: "size differs: expected \(expected.width)x\(expected.height), got \(width)x\(height)")
        }
        var count = 0, maxDelta = 0
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        var first: (x: Int, y: Int, expected: RGBA, actual: RGBA)?
        withUnsafeBytes { mine in
            expected.withUnsafeBytes { theirs in
                for y in 0..<height {
                    let a = mine.baseAddress!.advanced(by: y * bytesPerRow).assumingMemoryBound(to: UInt8.self)
                    let b = theirs.baseAddress!.advanced(by: y * expected.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                    if memcmp(a, b, width * 4) == 0 { continue }
                    for x in 0..<width {
                        var delta = 0
                        for c in 0..<4 { delta = Swift.max(delta, abs(Int(a[x * 4 + c]) - Int(b[x * 4 + c]))) }
                        guard delta > tolerance else { continue }
                        count += 1
                        maxDelta = Swift.max(maxDelta, delta)
                        minX = Swift.min(minX, x); maxX = Swift.max(maxX, x)
                        minY = Swift.min(minY, y); maxY = Swift.max(maxY, y)
                        if first == nil { first = (x, y, expected.pixel(x: x, y: y), pixel(x: x, y: y)) }
                    }
                }
            }
        }
        guard count > 0 else { return nil }
        return PixelDifference(
            width: width, height: height, differingPixels: count,
            boundingBox: (minX, minY, maxX - minX + 1, maxY - minY + 1), maxChannelDelta: maxDelta,
            firstDifference: first, sizeMismatch: nil)
    }

    /// A picture of the difference: differing pixels in red over a faded copy of `self`.
    public func differenceImage(from expected: PixelBuffer) -> PixelBuffer? {
        guard width == expected.width, height == expected.height else { return nil }
        let out = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let a = pixel(x: x, y: y), b = expected.pixel(x: x, y: y)
                let offset = y * out.bytesPerRow + x * 4
                out.withUnsafeMutableBytes { bytes in
                    if a == b {
                        let grey = UInt8((Int(a.red) + Int(a.green) + Int(a.blue)) / 3 / 4 + 191)
                        bytes[offset] = grey; bytes[offset + 1] = grey; bytes[offset + 2] = grey
                    } else {
                        bytes[offset] = 0; bytes[offset + 1] = 0; bytes[offset + 2] = 255
                    }
                    bytes[offset + 3] = 255
                }
            }
        }
        return out
    }
}

extension String {
    init(format2 value: Double) {
        let scaled = (value * 100).rounded() / 100
        self = "\(scaled)"
    }
}

extension PixelBuffer {
    /// A smaller copy: each `factor` x `factor` block averaged into one pixel (for small
    /// golden images of full-resolution renders).
    public func downsampled(by factor: Int) -> PixelBuffer {
        precondition(factor >= 1)
        if factor == 1 { return withUnsafeBytes { PixelBuffer(width: width, height: height, bytesPerRow: bytesPerRow, copying: $0) } }
        let out = PixelBuffer(width: width / factor, height: height / factor)
        let area = factor * factor
        withUnsafeBytes { source in
            out.withUnsafeMutableBytes { target in
                for y in 0..<out.height {
                    for x in 0..<out.width {
                        var sums = (0, 0, 0, 0)
                        for dy in 0..<factor {
                            let row = (y * factor + dy) * bytesPerRow
                            for dx in 0..<factor {
                                let offset = row + (x * factor + dx) * 4
                                sums.0 += Int(source[offset]); sums.1 += Int(source[offset + 1])
                                sums.2 += Int(source[offset + 2]); sums.3 += Int(source[offset + 3])
                            }
                        }
                        let offset = y * out.bytesPerRow + x * 4
                        target[offset] = UInt8((sums.0 + area / 2) / area)
                        target[offset + 1] = UInt8((sums.1 + area / 2) / area)
                        target[offset + 2] = UInt8((sums.2 + area / 2) / area)
                        target[offset + 3] = UInt8((sums.3 + area / 2) / area)
                    }
                }
            }
        }
        return out
    }
}

extension PixelBuffer {
    /// The mean absolute difference per colour channel from a same-sized image, 0...255: how
    /// far a decoded video frame is from the screen it shows (lossy encoding keeps it small).
    /// Samples every 4th pixel of every 4th row (every row of a short band), which is plenty.
    public func meanDifference(from other: PixelBuffer, rows: Range<Int>? = nil) -> Double {
        precondition(width == other.width && height == other.height, "meanDifference needs images of one size")
        let rows = rows ?? 0..<height
        var total = 0
        var count = 0
        for y in stride(from: rows.lowerBound, to: rows.upperBound, by: rows.count < 200 ? 1 : 4) {
            for x in stride(from: 0, to: width, by: 4) {
                let p = pixel(x: x, y: y), q = other.pixel(x: x, y: y)
                total += abs(Int(p.red) - Int(q.red)) + abs(Int(p.green) - Int(q.green)) + abs(Int(p.blue) - Int(q.blue))
                count += 3
            }
        }
        return Double(total) / Double(max(count, 1))
    }
}
