import Foundation
import ShowreelGraphics

/// Frames waiting, in memory, to be encoded: what lets a recording whose video may be thrown
/// away (a passing test's under `.retainOnFailure`) spend nothing on encoding until it knows.
///
/// A screen mostly changes in places (a key, a caret, a cell), so a frame is kept as the parts
/// that changed since the frame kept before it, as its source reported them (`BandSpans`): in
/// each band of 16 rows (a macroblock's height), the columns that changed, converted to YUV
/// 4:2:0; an unchanged band costs nothing. A frame whose changes are unknown is kept whole.
/// `replay` rebuilds every frame in order. The bands sit back to back in chunks taken from a
/// process-wide pool that keeps up to 64 MiB between recordings: fresh memory costs a zeroed
/// page per 4 KiB, reused memory nothing. Not thread-safe: it belongs to one `VideoRecorder`.
final class FrameSpool {
    /// A video frame's size and how it splits into bands.
    struct Layout {
        let width: Int
        let height: Int
        static let bandRows = 16
        var chromaWidth: Int { (width + 1) / 2 }
        var chromaHeight: Int { (height + 1) / 2 }
        var bandCount: Int { (height + Self.bandRows - 1) / Self.bandRows }
        /// Rows of the picture in band `band` (the last one may be shorter).
        func rows(of band: Int) -> Range<Int> { (band * Self.bandRows)..<min(height, (band + 1) * Self.bandRows) }
        func chromaRows(of band: Int) -> Range<Int> {
            let rows = rows(of: band)
            return (rows.lowerBound / 2)..<((rows.upperBound + 1) / 2)
        }
        /// Bytes of a band's `columns` in the spool: Y rows, then U rows, then V rows, each as
        /// wide as the columns.
        func bandBytes(columns: Range<Int>) -> Int { Self.bandRows * columns.count + 2 * (Self.bandRows / 2) * ((columns.count + 1) / 2) }
        /// Where a band's planes start in its spool bytes, and their rows' widths.
        static func bandPlanes(at bytes: UnsafeMutableRawPointer, columns: Range<Int>)
            -> (
                y: UnsafeMutablePointer<UInt8>, u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>, width: Int, chromaWidth: Int
            )
        {
            let (width, chromaWidth) = (columns.count, (columns.count + 1) / 2)
            let y = bytes.assumingMemoryBound(to: UInt8.self)
            let u = y + bandRows * width
            return (y, u, u + (bandRows / 2) * chromaWidth, width, chromaWidth)
        }
        /// A whole YUV 4:2:0 frame: the Y plane, then U, then V, rows tightly packed.
        var frameBytes: Int { width * height + 2 * chromaWidth * chromaHeight }
        var planeOffsets: (y: Int, u: Int, v: Int) { (0, width * height, width * height + chromaWidth * chromaHeight) }
    }

    /// One frame: when, whether the encoder should make it a keyframe, and the changed columns
    /// of its changed bands.
    struct Entry {
        var pts: Int64
        var keyframe: Bool
        var bands: [(index: Int, columns: Range<Int>, bytes: UnsafeMutableRawPointer)]
    }

    /// Chunks of 8 MiB, kept between recordings up to 64 MiB.
    static let memory = MappedMemory(spareLimit: 64 << 20)
    static let chunkBytes = 8 << 20

    let layout: Layout
    private let converter: PixelConverter
    private(set) var entries: [Entry] = []
    private var chunks: [UnsafeMutableRawBufferPointer] = []
    private var usedInLastChunk = 0

    /// `converter` turns BGRA bands into YUV (it is the recorder's, used on the same thread).
    init(layout: Layout, converter: PixelConverter) {
        precondition(
            layout.bandBytes(columns: 0..<layout.width) <= Self.chunkBytes, "a \(layout.width)-pixel-wide band does not fit a spool chunk")
        self.layout = layout
        self.converter = converter
    }

    deinit { removeAll() }

    /// Memory held for frames, in bytes (whole chunks).
    var byteCount: Int { chunks.count * Self.chunkBytes }

    /// Keeps `pixels` (BGRA at the layout's size): what `spans` say changed since the frame
    /// kept before (nil: all of it), converted. False when a band could not be converted.
    func append(_ pixels: PixelBuffer, pts: Int64, keyframe: Bool, spans: BandSpans?) -> Bool {
        precondition(pixels.width == layout.width && pixels.height == layout.height, "a spool keeps frames of one size")
        var changed: [(index: Int, columns: Range<Int>, bytes: UnsafeMutableRawPointer)] = []
        let columnsByBand = spans?.changed ?? (0..<layout.bandCount).map { ($0, 0..<layout.width) }
        let converted = pixels.withUnsafeBytes { source in
            for (band, columns) in columnsByBand {
                let bytes = room(for: (layout.bandBytes(columns: columns) + 63) & ~63)
                guard convert(band, columns: columns, of: source.baseAddress!, bytesPerRow: pixels.bytesPerRow, into: bytes) else {
                    return false
                }
                changed.append((band, columns, bytes))
            }
            return true
        }
        entries.append(Entry(pts: pts, keyframe: keyframe, bands: changed))
        return converted
    }

    /// Keeps the frame kept before once more, at `pts`: nothing changed, so no bands.
    func appendRepeat(pts: Int64, keyframe: Bool) {
        entries.append(Entry(pts: pts, keyframe: keyframe, bands: []))
    }

    /// Rebuilds each kept frame (YUV 4:2:0 laid out as `Layout.planeOffsets` says) in order and
    /// hands it to `body`; the frame is valid during the call only.
    func replay<E: Error>(_ body: (UnsafeMutableRawPointer, Entry) throws(E) -> Void) throws(E) {
        let frame = UnsafeMutableRawBufferPointer.allocate(byteCount: layout.frameBytes, alignment: 64)
        defer { frame.deallocate() }
        let base = frame.baseAddress!
        let (width, chromaWidth, offsets) = (layout.width, layout.chromaWidth, layout.planeOffsets)
        for entry in entries {
            for (band, columns, bytes) in entry.bands {
                let planes = Layout.bandPlanes(at: bytes, columns: columns)
                let x = columns.lowerBound
                for (index, row) in layout.rows(of: band).enumerated() {
                    (base + offsets.y + row * width + x).copyMemory(from: planes.y + index * planes.width, byteCount: planes.width)
                }
                for (index, row) in layout.chromaRows(of: band).enumerated() {
                    let (from, to) = (index * planes.chromaWidth, row * chromaWidth + x / 2)
                    (base + offsets.u + to).copyMemory(from: planes.u + from, byteCount: planes.chromaWidth)
                    (base + offsets.v + to).copyMemory(from: planes.v + from, byteCount: planes.chromaWidth)
                }
            }
            try body(base, entry)
        }
    }

    /// Drops every frame and gives the memory back to the pool.
    func removeAll() {
        entries.removeAll()
        for chunk in chunks { Self.memory.deallocate(chunk) }
        chunks.removeAll()
        usedInLastChunk = 0
    }

    /// Converts `columns` of one band of a BGRA frame into spool bytes laid out as
    /// `Layout.bandBytes` says.
    private func convert(
        _ band: Int, columns: Range<Int>, of pixels: UnsafeRawPointer, bytesPerRow: Int,
        into bytes: UnsafeMutableRawPointer
    ) -> Bool {
        let rows = layout.rows(of: band)
        let planes = Layout.bandPlanes(at: bytes, columns: columns)
        return converter.convertRows(
            pixels + rows.lowerBound * bytesPerRow + columns.lowerBound * 4, bytesPerRow: bytesPerRow,
            width: planes.width, rows: rows.count,
            into: (planes.y, planes.width), (planes.u, planes.chromaWidth), (planes.v, planes.chromaWidth))
    }

    private func room(for byteCount: Int) -> UnsafeMutableRawPointer {
        if chunks.isEmpty || usedInLastChunk + byteCount > Self.chunkBytes {
            chunks.append(Self.memory.allocate(byteCount: Self.chunkBytes).0)
            usedInLastChunk = 0
        }
        defer { usedInLastChunk += byteCount }
        return chunks[chunks.count - 1].baseAddress! + usedInLastChunk
    }
}
