import Foundation
import ShowreelGraphics

/// Frames waiting, in memory, to be encoded: what lets a recording whose video may be thrown
/// away (a passing test's under `.retainOnFailure`) spend nothing on encoding until it knows.
///
/// A screen mostly changes in places (a key, a caret, a cell), so a frame is kept as the bands
/// of 16 rows that differ from the frame kept before it (a macroblock's height), converted to
/// YUV 4:2:0 band by band: an unchanged band costs a comparison, not a conversion or a copy.
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
        /// Bytes of a band in the spool: its Y rows, then its U rows, then its V rows.
        var bandBytes: Int { Self.bandRows * width + 2 * (Self.bandRows / 2) * chromaWidth }
        /// A whole YUV 4:2:0 frame: the Y plane, then U, then V, rows tightly packed.
        var frameBytes: Int { width * height + 2 * chromaWidth * chromaHeight }
        var planeOffsets: (y: Int, u: Int, v: Int) { (0, width * height, width * height + chromaWidth * chromaHeight) }
    }

    /// One frame: when, whether the encoder should make it a keyframe, and its changed bands.
    struct Entry {
        var pts: Int64
        var keyframe: Bool
        var bands: [(index: Int, bytes: UnsafeMutableRawPointer)]
    }

    /// Chunks of 8 MiB, kept between recordings up to 64 MiB.
    static let memory = MappedMemory(spareLimit: 64 << 20)
    static let chunkBytes = 8 << 20

    let layout: Layout
    private let converter: PixelConverter
    private(set) var entries: [Entry] = []
    private var chunks: [UnsafeMutableRawBufferPointer] = []
    private var usedInLastChunk = 0
    /// The frame kept last, as BGRA, which the next one is compared with band by band.
    private var previous: PixelBuffer?

    /// `converter` turns BGRA bands into YUV (it is the recorder's, used on the same thread).
    init(layout: Layout, converter: PixelConverter) {
        precondition(layout.bandBytes <= Self.chunkBytes, "a \(layout.width)-pixel-wide band does not fit a spool chunk")
        self.layout = layout
        self.converter = converter
    }

    deinit { removeAll() }

    /// Memory held for frames, in bytes (whole chunks).
    var byteCount: Int { chunks.count * Self.chunkBytes }

    /// Keeps `pixels` (BGRA at the layout's size): the bands that differ from the frame kept
    /// before, converted. With `changedRows` (the only rows that may differ from that frame),
    /// the other bands are not even compared. False when a band could not be converted.
    func append(_ pixels: PixelBuffer, pts: Int64, keyframe: Bool, changedRows: RowSet? = nil) -> Bool {
        precondition(pixels.width == layout.width && pixels.height == layout.height, "a spool keeps frames of one size")
        let previous = self.previous ?? PixelBuffer(width: layout.width, height: layout.height, zeroed: false)
        var changed: [(index: Int, bytes: UnsafeMutableRawPointer)] = []
        let rowBytes = layout.width * 4
        let converted = pixels.withUnsafeBytes { new in
            previous.withUnsafeMutableBytes { old in
                for band in 0..<layout.bandCount {
                    let rows = layout.rows(of: band)
                    if self.previous != nil, let changedRows, !changedRows.intersects(rows) { continue }
                    let start = rows.lowerBound * pixels.bytesPerRow
                    let count = (rows.count - 1) * pixels.bytesPerRow + rowBytes
                    if self.previous != nil, memcmp(new.baseAddress! + start, old.baseAddress! + start, count) == 0 { continue }
                    (old.baseAddress! + start).copyMemory(from: new.baseAddress! + start, byteCount: count)
                    let bytes = room(for: layout.bandBytes)
                    guard convert(band, of: new.baseAddress!, bytesPerRow: pixels.bytesPerRow, into: bytes) else { return false }
                    changed.append((band, bytes))
                }
                return true
            }
        }
        self.previous = previous
        entries.append(Entry(pts: pts, keyframe: keyframe, bands: changed))
        return converted
    }

    /// Rebuilds each kept frame (YUV 4:2:0 laid out as `Layout.planeOffsets` says) in order and
    /// hands it to `body`; the frame is valid during the call only.
    func replay<E: Error>(_ body: (UnsafeMutableRawPointer, Entry) throws(E) -> Void) throws(E) {
        let frame = UnsafeMutableRawBufferPointer.allocate(byteCount: layout.frameBytes, alignment: 64)
        defer { frame.deallocate() }
        let base = frame.baseAddress!
        let (width, chromaWidth, offsets) = (layout.width, layout.chromaWidth, layout.planeOffsets)
        for entry in entries {
            for (band, bytes) in entry.bands {
                let rows = layout.rows(of: band), chromaRows = layout.chromaRows(of: band)
                let (y, u) = (bytes, bytes + Layout.bandRows * width)
                let v = u + (Layout.bandRows / 2) * chromaWidth
                (base + offsets.y + rows.lowerBound * width).copyMemory(from: y, byteCount: rows.count * width)
                (base + offsets.u + chromaRows.lowerBound * chromaWidth).copyMemory(from: u, byteCount: chromaRows.count * chromaWidth)
                (base + offsets.v + chromaRows.lowerBound * chromaWidth).copyMemory(from: v, byteCount: chromaRows.count * chromaWidth)
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
        previous = nil
    }

    /// Converts one band of a BGRA frame into spool bytes laid out as `Layout.bandBytes` says.
    private func convert(_ band: Int, of pixels: UnsafeRawPointer, bytesPerRow: Int, into bytes: UnsafeMutableRawPointer) -> Bool {
        let rows = layout.rows(of: band)
        let y = bytes.assumingMemoryBound(to: UInt8.self)
        let u = y + Layout.bandRows * layout.width
        let v = u + (Layout.bandRows / 2) * layout.chromaWidth
        return converter.convertRows(pixels + rows.lowerBound * bytesPerRow, bytesPerRow: bytesPerRow,
                                     width: layout.width, rows: rows.count,
                                     into: (y, layout.width), (u, layout.chromaWidth), (v, layout.chromaWidth))
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
