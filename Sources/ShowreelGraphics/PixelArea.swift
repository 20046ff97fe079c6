/// A rectangle of a picture in whole pixels: the rows and columns it spans.
public struct PixelArea: Sendable, Equatable, CustomStringConvertible {
    public var rows: Range<Int>
    public var columns: Range<Int>

    public init(rows: Range<Int>, columns: Range<Int>) {
        self.rows = rows
        self.columns = columns
    }

    public var isEmpty: Bool { rows.isEmpty || columns.isEmpty }

    public func contains(row: Int, column: Int) -> Bool { rows.contains(row) && columns.contains(column) }

    /// The smallest area covering both.
    public func union(_ other: PixelArea) -> PixelArea {
        if isEmpty { return other }
        if other.isEmpty { return self }
        return PixelArea(rows: min(rows.lowerBound, other.rows.lowerBound)..<max(rows.upperBound, other.rows.upperBound),
                         columns: min(columns.lowerBound, other.columns.lowerBound)..<max(columns.upperBound, other.columns.upperBound))
    }

    public var description: String {
        "rows \(rows.lowerBound)..<\(rows.upperBound) columns \(columns.lowerBound)..<\(columns.upperBound)"
    }
}
