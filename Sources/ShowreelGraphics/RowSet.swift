/// Rows of a picture, as sorted, disjoint, non-adjacent ranges: which rows of a frame may
/// differ from the frame before it (a frame's damage), so work on unchanged rows is skipped.
public struct RowSet: Sendable, Equatable, CustomStringConvertible {
    public private(set) var ranges: [Range<Int>] = []

    public init() {}

    public init(_ range: Range<Int>) { insert(range) }

    public var isEmpty: Bool { ranges.isEmpty }

    /// How many rows are in the set.
    public var count: Int { ranges.reduce(0) { $0 + $1.count } }

    /// Adds `range`, merging it with the ranges it overlaps or touches.
    public mutating func insert(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        var merged = range
        var result: [Range<Int>] = []
        result.reserveCapacity(ranges.count + 1)
        var placed = false
        for existing in ranges {
            if existing.upperBound < merged.lowerBound {
                result.append(existing)
            } else if merged.upperBound < existing.lowerBound {
                if !placed { result.append(merged); placed = true }
                result.append(existing)
            } else {
                merged = min(existing.lowerBound, merged.lowerBound)..<max(existing.upperBound, merged.upperBound)
            }
        }
        if !placed { result.append(merged) }
        ranges = result
    }

    public mutating func formUnion(_ other: RowSet) {
        for range in other.ranges { insert(range) }
    }

    public func union(_ other: RowSet) -> RowSet {
        var result = self
        result.formUnion(other)
        return result
    }

    /// Whether any row of `range` is in the set.
    public func intersects(_ range: Range<Int>) -> Bool {
        ranges.contains { $0.overlaps(range) }
    }

    public func contains(_ row: Int) -> Bool {
        ranges.contains { $0.contains(row) }
    }

    /// The set with every range widened to whole multiples of `step` rows and kept within `0..<limit`.
    public func aligned(to step: Int, limit: Int) -> RowSet {
        var result = RowSet()
        for range in ranges {
            let lower = max(0, range.lowerBound / step * step)
            let upper = min(limit, (range.upperBound + step - 1) / step * step)
            result.insert(lower..<upper)
        }
        return result
    }

    /// The rows of a picture `factor` times smaller that rows of this set land on (a row of the
    /// smaller picture averages rows `factor * y ..< factor * (y + 1)`).
    public func shrunk(by factor: Int, limit: Int) -> RowSet {
        var result = RowSet()
        for range in ranges {
            result.insert(max(0, range.lowerBound / factor)..<min(limit, (range.upperBound + factor - 1) / factor))
        }
        return result
    }

    public var description: String {
        "[" + ranges.map { "\($0.lowerBound)..<\($0.upperBound)" }.joined(separator: ", ") + "]"
    }
}
