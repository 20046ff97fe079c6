/// A rectangle of a picture in whole pixels: the rows and columns it spans.
public struct PixelArea: Sendable, Equatable, CustomStringConvertible {
    public var rows: Range<Int>
    public var columns: Range<Int>

    public init(rows: Range<Int>, columns: Range<Int>) {
        self.rows = rows
        self.columns = columns
    }

    /// The pixels of a `width` x `height` picture that `rect` (in points, `scale` pixels to the
    /// point) touches, widened by one pixel each way for antialiasing; nil when it lies off the
    /// picture.
    public init?(covering rect: Rect, scale: Double = 1, width: Int, height: Int) {
        func pixels(_ from: Double, _ to: Double, limit: Int) -> Range<Int>? {
            let (lower, upper) = (max(0, Int((from * scale).rounded(.down)) - 1), min(limit, Int((to * scale).rounded(.up)) + 1))
            return lower < upper ? lower..<upper : nil
        }
        guard let rows = pixels(rect.minY, rect.maxY, limit: height), let columns = pixels(rect.minX, rect.maxX, limit: width) else {
            return nil
        }
        self.init(rows: rows, columns: columns)
    }

    public var isEmpty: Bool { rows.isEmpty || columns.isEmpty }

    /// How many pixels the area holds.
    package var pixelCount: Int { rows.count * columns.count }

    /// The pixels of a picture `factor` times smaller each way that this area's pixels are
    /// shrunk into: each of those takes a `factor` x `factor` square, and the area touches it.
    package func shrunk(by factor: Int) -> PixelArea {
        PixelArea(
            rows: rows.lowerBound / factor..<(rows.upperBound + factor - 1) / factor,
            columns: columns.lowerBound / factor..<(columns.upperBound + factor - 1) / factor)
    }

    /// Whether every pixel of `other` is in this area.
    package func contains(_ other: PixelArea) -> Bool {
        other.isEmpty
            || (rows.lowerBound <= other.rows.lowerBound && other.rows.upperBound <= rows.upperBound
                && columns.lowerBound <= other.columns.lowerBound && other.columns.upperBound <= columns.upperBound)
    }

    /// The smallest area covering both.
    public func union(_ other: PixelArea) -> PixelArea {
        if isEmpty { return other }
        if other.isEmpty { return self }
        return PixelArea(
            rows: min(rows.lowerBound, other.rows.lowerBound)..<max(rows.upperBound, other.rows.upperBound),
            columns: min(columns.lowerBound, other.columns.lowerBound)..<max(columns.upperBound, other.columns.upperBound))
    }

    public var description: String {
        "rows \(rows.lowerBound)..<\(rows.upperBound) columns \(columns.lowerBound)..<\(columns.upperBound)"
    }
}

extension [PixelArea] {
    /// These areas and `others`, leaving out each one another covers: a spot that changed in
    /// frame after frame (a caret, a fading highlight) is one area to copy or shrink again,
    /// not one per frame. Past `coverageChecks` areas the rest are added as they are: each
    /// check looks at every area so far, and a render waits for this.
    package func adding(_ others: [PixelArea]) -> [PixelArea] {
        var result = self
        for area in others where !area.isEmpty {
            if result.count < Self.coverageChecks {
                if result.contains(where: { $0.contains(area) }) { continue }
                result.removeAll { area.contains($0) }
            }
            result.append(area)
        }
        return result
    }

    package static var coverageChecks: Int { 32 }
}
