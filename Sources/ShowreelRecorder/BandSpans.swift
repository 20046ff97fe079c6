import ShowreelGraphics

/// Which part of each band of a video frame (`FrameSpool.Layout.bandRows` rows) changed: the
/// columns, or nil for a band that did not. What a deferred recording redoes and keeps of a
/// frame, made from the frame's changed areas.
struct BandSpans {
    private var spans: [Range<Int>?]
    /// The bands outside which none changed: a frame changes in a few places, and every frame's
    /// spans are made, merged and walked several times, so those walks skip the rest.
    private var touched: Range<Int> = 0..<0
    /// How many bands changed at all.
    private(set) var changedBandCount = 0

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
                widen(band, to: columns)
            }
        }
    }

    static let columnStep = 16

    /// Each changed band, top down, with its changed columns.
    var changed: [(band: Int, columns: Range<Int>)] {
        var changed: [(band: Int, columns: Range<Int>)] = []
        changed.reserveCapacity(changedBandCount)
        for band in touched {
            if let columns = spans[band] { changed.append((band, columns)) }
        }
        return changed
    }

    /// The rows of the changed bands of a `layout`-sized video, neighbouring bands as one range.
    func changedRows(in layout: FrameSpool.Layout) -> [Range<Int>] {
        var rows: [Range<Int>] = []
        for band in touched where spans[band] != nil {
            let next = layout.rows(of: band)
            if let last = rows.last, last.upperBound == next.lowerBound {
                rows[rows.count - 1] = last.lowerBound..<next.upperBound
            } else {
                rows.append(next)
            }
        }
        return rows
    }

    mutating func formUnion(_ other: BandSpans) {
        for band in other.touched { if let columns = other.spans[band] { widen(band, to: columns) } }
    }

    private mutating func widen(_ band: Int, to columns: Range<Int>) {
        if let known = spans[band] {
            spans[band] = min(known.lowerBound, columns.lowerBound)..<max(known.upperBound, columns.upperBound)
        } else {
            spans[band] = columns
            changedBandCount += 1
            touched = touched.isEmpty ? band..<(band + 1) : min(touched.lowerBound, band)..<max(touched.upperBound, band + 1)
        }
    }
}
