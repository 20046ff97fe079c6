import CFFmpeg
import ShowreelRender
import Testing

@testable import ShowreelRecorder

/// A whole frame's BGRA -> YUV conversion runs in row slices on several threads (the encoder
/// waits for it): the picture must be the one a single thread makes, byte for byte.
@Suite("Sliced conversion")
struct SlicedConversionTests {
    @Test("row slices cover every row once, in order, each but the first starting on an even row")
    func slicesCoverTheRows() {
        for rows in [1, 2, 3, 255, 512, 1001, 1688, 2532] {
            for count in 1...5 {
                let slices = RowSlices(rows: rows, count: count)
                let ranges = (0..<slices.count).map(slices.slice)
                #expect(ranges.first?.lowerBound == 0)
                #expect(ranges.last?.upperBound == rows)
                #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
                #expect(ranges.allSatisfy { $0.lowerBound.isMultiple(of: 2) && !$0.isEmpty })
            }
        }
    }

    @Test("a frame converted in slices on several threads is the frame converted on one, byte for byte")
    func slicedMatchesOneThread() throws {
        // An odd height: the last slice ends on a row without a partner for its chroma.
        let pixels = noise(width: 390, height: 1001)
        let sliced = try converted(pixels, threads: 4)
        let single = try converted(pixels, threads: 1)
        #expect(sliced.count == 390 * 1001 + 2 * 195 * 501)
        #expect(sliced == single)
    }

    /// Pixels that differ everywhere, so a row converted twice or not at all shows.
    private func noise(width: Int, height: Int) -> PixelBuffer {
        let buffer = PixelBuffer(width: width, height: height)
        var state: UInt32 = 0x1234_5678
        buffer.withUnsafeMutableBytes { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    state = state &* 1_664_525 &+ 1_013_904_223
                    bytes.storeBytes(of: state | 0xFF00_0000, toByteOffset: y * buffer.bytesPerRow + x * 4, as: UInt32.self)
                }
            }
        }
        return buffer
    }

    /// `pixels` converted by a `PixelConverter` with `threads` into a YUV 4:2:0 frame: its planes' rows, packed.
    private func converted(_ pixels: PixelBuffer, threads: Int) throws -> [UInt8] {
        var frame = av_frame_alloc()
        defer { av_frame_free(&frame) }
        let f = try #require(frame)
        f.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        f.pointee.width = Int32(pixels.width)
        f.pointee.height = Int32(pixels.height)
        try #require(av_frame_get_buffer(f, 0) >= 0)
        try #require(PixelConverter(threads: threads).convert(pixels, into: f, colour: .videoRange601))
        let (chromaWidth, chromaHeight) = ((pixels.width + 1) / 2, (pixels.height + 1) / 2)
        let planes = [
            (f.pointee.data.0, f.pointee.linesize.0, pixels.width, pixels.height),
            (f.pointee.data.1, f.pointee.linesize.1, chromaWidth, chromaHeight),
            (f.pointee.data.2, f.pointee.linesize.2, chromaWidth, chromaHeight),
        ]
        var bytes: [UInt8] = []
        for (data, stride, width, height) in planes {
            let base = try #require(data)
            for row in 0..<height { bytes += UnsafeBufferPointer(start: base + row * Int(stride), count: width) }
        }
        return bytes
    }
}
