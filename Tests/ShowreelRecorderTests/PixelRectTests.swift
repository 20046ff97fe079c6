import CFFmpeg
import Testing

@testable import ShowreelRecorder

/// A preview encodes only the rectangle that changed between two pictures: it must hold every
/// changed pixel of every plane, and nothing more than that (on even coordinates).
@Suite("Changed rectangle of two pictures")
struct PixelRectTests {
    /// Two YUV 4:2:0 pictures of `width` x `height`, the same but where `changes` (luma or
    /// chroma bytes: plane, column, row) differ.
    static func pictures(width: Int, height: Int, changes: [(plane: Int, column: Int, row: Int)])
        -> (UnsafeMutablePointer<AVFrame>, UnsafeMutablePointer<AVFrame>)
    {
        let frames = (av_frame_alloc()!, av_frame_alloc()!)
        for frame in [frames.0, frames.1] {
            frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
            frame.pointee.width = Int32(width)
            frame.pointee.height = Int32(height)
            _ = av_frame_get_buffer(frame, 0)
            _ = av_frame_make_writable(frame)
        }
        for plane in 0..<3 {
            let rows = plane == 0 ? height : (height + 1) / 2
            for frame in [frames.0, frames.1] {
                let (data, stride) = Self.plane(plane, of: frame)
                for row in 0..<rows {
                    (data + row * stride).initialize(repeating: UInt8(truncatingIfNeeded: 17 * plane + row), count: stride)
                }
            }
        }
        for change in changes {
            let (data, stride) = Self.plane(change.plane, of: frames.1)
            data[change.row * stride + change.column] &+= 1
        }
        return frames
    }

    static func free(_ pictures: UnsafeMutablePointer<AVFrame>...) {
        for picture in pictures {
            var owned: UnsafeMutablePointer<AVFrame>? = picture
            av_frame_free(&owned)
        }
    }

    static func plane(_ plane: Int, of frame: UnsafeMutablePointer<AVFrame>) -> (UnsafeMutablePointer<UInt8>, Int) {
        let f = frame.pointee
        return switch plane {
        case 0: (f.data.0!, Int(f.linesize.0))
        case 1: (f.data.1!, Int(f.linesize.1))
        default: (f.data.2!, Int(f.linesize.2))
        }
    }

    /// The rectangle the changes make, pixel by pixel: each changed byte's pixels, on even coordinates.
    static func expected(width: Int, height: Int, changes: [(plane: Int, column: Int, row: Int)]) -> PixelRect? {
        guard !changes.isEmpty else { return nil }
        var (left, top, right, bottom) = (Int.max, Int.max, -1, -1)
        for change in changes {
            let scale = change.plane == 0 ? 1 : 2
            left = min(left, change.column * scale)
            top = min(top, change.row * scale)
            right = max(right, min(width, (change.column + 1) * scale) - 1)
            bottom = max(bottom, min(height, (change.row + 1) * scale) - 1)
        }
        let (x, y) = (left & ~1, top & ~1)
        return PixelRect(x: x, y: y, width: right + 1 - x, height: bottom + 1 - y)
    }

    /// Changes close together in one row, at its ends and in its middle: a scan from either side
    /// must stop at the outermost.
    static let sameRow: [[(plane: Int, column: Int, row: Int)]] = [
        [(0, 5, 3), (0, 9, 3)], [(0, 389, 7), (0, 386, 7)], [(0, 0, 0), (0, 3, 0)], [(0, 200, 9), (0, 210, 9), (0, 190, 9)],
        [(1, 194, 2), (1, 190, 2)], [(2, 0, 421), (2, 7, 421)],
    ]

    @Test("the rectangle holds every changed luma and chroma byte's pixels and no more, for changes anywhere in a row")
    func matchesEveryChange() {
        for changes in Self.sameRow {
            let (a, b) = Self.pictures(width: 390, height: 844, changes: changes)
            #expect(PixelRect.changed(between: a, and: b) == Self.expected(width: 390, height: 844, changes: changes), "\(changes)")
            Self.free(a, b)
        }
        // A fixed sequence (a linear congruential one), so a failure is seen again.
        var state: UInt64 = 42
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for (width, height) in [(390, 844), (97, 61), (2, 2), (33, 1)] {
            for round in 0..<60 {
                let count = round % 7
                let changes = (0..<count).map { _ -> (plane: Int, column: Int, row: Int) in
                    let plane = next(3)
                    let (w, h) = plane == 0 ? (width, height) : ((width + 1) / 2, (height + 1) / 2)
                    // Often at a row's ends, where the scans from either side stop.
                    let column = [0, w - 1, next(w)][next(3)]
                    return (plane, column, next(h))
                }
                let (a, b) = Self.pictures(width: width, height: height, changes: changes)
                #expect(
                    PixelRect.changed(between: a, and: b) == Self.expected(width: width, height: height, changes: changes),
                    "\(width)x\(height), changes \(changes)")
                Self.free(a, b)
            }
        }
    }
}
