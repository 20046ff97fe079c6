import ShowreelGraphics

/// Which part of each band of a video frame (`FrameSpool.Layout.bandRows` rows) changed: the
/// columns, or nil for a band that did not. What a deferred recording redoes and keeps of a
/// frame, made from the frame's changed areas.
struct BandSpans {
    private(set) var spans: [Range<Int>?]

    /// Nothing changed.
    init(bandCount: Int) {
        spans = Array(repeating: nil, count: bandCount)
    }

    /// The bands and columns of a `layout`-sized video that `areas` of a source frame `factor`
    /// times its size reach. Columns are widened to multiples of `columnStep` pixels: each
    /// chroma sample covers two, and the SIMD conversions work in runs of sixteen.
    init(areas: [PixelArea], factor: Int, layout: FrameSpool.Layout) {
        self.init(bandCount: layout.bandCount)
        let step = Self.columnStep
        for area in areas where !area.isEmpty {
            let top = area.rows.lowerBound / factor, bottom = (area.rows.upperBound + factor - 1) / factor
            let left = area.columns.lowerBound / factor / step * step
            let right = min(layout.width, ((area.columns.upperBound + factor - 1) / factor + step - 1) / step * step)
            guard top < bottom, left < right, top < layout.height else { continue }
            let columns = left..<right
            for band in (top / FrameSpool.Layout.bandRows)...((min(bottom, layout.height) - 1) / FrameSpool.Layout.bandRows) {
                spans[band] = Self.union(spans[band], columns)
            }
        }
    }

    static let columnStep = 16

    /// How many bands changed at all.
    var changedBandCount: Int { spans.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }

    mutating func formUnion(_ other: BandSpans) {
        for band in spans.indices { spans[band] = Self.union(spans[band], other.spans[band]) }
    }

    private static func union(_ a: Range<Int>?, _ b: Range<Int>?) -> Range<Int>? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a.lowerBound, b.lowerBound)..<max(a.upperBound, b.upperBound)
    }
}
