import CFFmpeg
import Foundation
import ShowreelTestSupport
import Testing

@testable import ShowreelRecorder

/// A recording's preview holds a copy of each picture it is given until the tick it shows at;
/// the encoder says which rows changed, and only those are copied. The preview must be the same
/// file as one made from whole copies.
@Suite("Preview sampling")
struct PreviewSamplingTests {
    /// One picture changed in place, as an encoder's is: a block steps down the picture, and the
    /// rows it leaves are painted back. `rowsFor` says which rows each picture changed.
    private func sample(to url: URL, rowsFor: (_ left: Range<Int>?, _ entered: Range<Int>) -> [Range<Int>]?) throws -> Data {
        let (width, height) = (96, 64)
        var picture = av_frame_alloc()
        defer { av_frame_free(&picture) }
        let frame = try #require(picture)
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        #expect(av_frame_get_buffer(frame, 0) >= 0)
        func paint(_ rows: Range<Int>, luma: UInt8, chroma: UInt8) {
            for row in rows {
                memset(frame.pointee.data.0! + row * Int(frame.pointee.linesize.0), Int32(luma), width)
            }
            for row in rows.lowerBound / 2..<rows.upperBound / 2 {
                memset(frame.pointee.data.1! + row * Int(frame.pointee.linesize.1), Int32(chroma), width / 2)
                memset(frame.pointee.data.2! + row * Int(frame.pointee.linesize.2), Int32(255 - Int(chroma)), width / 2)
            }
        }
        paint(0..<height, luma: 235, chroma: 128)
        let sampler = PreviewSampler(videoWidth: width, videoHeight: height)
        var left: Range<Int>?
        let pictures = 40
        for index in 0..<pictures {
            let top = index * 4 % (height - 8)
            let entered = top..<top + 8
            if let left { paint(left, luma: 235, chroma: 128) }
            paint(entered, luma: UInt8(40 + index * 4), chroma: UInt8(60 + index * 3))
            // 30 pictures a second: three fall in each tick of the preview's ten.
            sampler.add(frame, pts: Int64(index) * FrameTimeline.timescale / 30, changedRows: index == 0 ? nil : rowsFor(left, entered))
            left = entered
        }
        let summary = try #require(try sampler.write(to: url, duration: .milliseconds(pictures * 1000 / 30)))
        #expect(summary.frames > 5)
        return try Data(contentsOf: url)
    }

    @Test("copying only the rows each picture changed makes the same preview as whole copies")
    func changedRowsOnly() async throws {
        try await withTemporaryDirectory { folder in
            let whole = try sample(to: folder.appendingPathComponent("whole.webp")) { _, _ in nil }
            let partial = try sample(to: folder.appendingPathComponent("partial.webp")) { left, entered in
                [left, entered].compactMap { $0 }
            }
            #expect(partial == whole)
            // Rows left out are not copied: the block's trail stays, and the preview differs.
            let trail = try sample(to: folder.appendingPathComponent("trail.webp")) { _, entered in [entered] }
            #expect(trail != whole)
        }
    }
}
