import Foundation
import ShowreelGraphics
import ShowreelRecorder

/// Where two videos of the same flow or test first show different pictures.
package struct FirstDifference: Sendable {
    /// Seconds into the videos.
    package var time: Double
    package var baseline: PixelBuffer
    package var current: PixelBuffer
    /// Where the pictures differ visibly (beyond encoding noise), or at all when only noise does.
    package var difference: PixelDifference
    /// The channel difference `difference` was measured with.
    package var tolerance: Int
}

/// Compares two recordings frame by frame along their timelines. Recordings on the virtual
/// clock are deterministic, so the same journey gives the same frames at the same times, and
/// any difference is a change in the app (or in what the flow did).
///
/// A video is variable frame rate: a frame stays on screen until the next one. So the videos
/// are compared at every time either of them changes picture, each showing its frame of that
/// moment. A first pass keeps only each frame's time and a hash of its pixels (a long video
/// never sits in memory); only frames whose hashes differ are decoded again and compared pixel
/// by pixel, with `threshold` as the largest channel difference that still counts as equal.
package enum VideoComparison {
    package static func firstDifference(baseline: URL, current: URL, threshold: Int) throws(RecorderError) -> FirstDifference? {
        let a = try FrameIndex(baseline)
        let b = try FrameIndex(current)
        let candidates = Self.candidates(a, b)
        // Decoded again in chunks, so a run of near-equal frames (threshold > 0) needs bounded memory.
        var start = 0
        while start < candidates.count {
            let chunk = candidates[start..<min(start + Self.chunk, candidates.count)]
            let framesA = try frames(of: baseline, at: Set(chunk.map(\.a)))
            let framesB = try frames(of: current, at: Set(chunk.map(\.b)))
            for candidate in chunk {
                guard let pictureA = framesA[candidate.a], let pictureB = framesB[candidate.b] else { continue }
                if let difference = pictureB.difference(from: pictureA, tolerance: threshold) {
                    // Once the pictures differ, the encoder's choices for the rest of the frame
                    // differ too (a few levels on every edge): the area is where they differ visibly.
                    let visible = pictureB.difference(from: pictureA, tolerance: max(threshold, Self.encodingNoise))
                    return FirstDifference(
                        time: candidate.time, baseline: pictureA, current: pictureB,
                        difference: visible ?? difference, tolerance: visible == nil ? threshold : max(threshold, Self.encodingNoise))
                }
            }
            start += Self.chunk
        }
        return nil
    }

    /// The channel difference lossy encoding leaves between two encodings of similar pictures.
    static let encodingNoise = 40

    /// Frames compared pixel by pixel per decoding pass (two sides of 1.3 MB each at 390x844).
    static let chunk = 32

    /// The moments, in order, at which the two videos show frames whose hashes differ.
    static func candidates(_ a: FrameIndex, _ b: FrameIndex) -> [(time: Double, a: Int, b: Int)] {
        guard !a.times.isEmpty, !b.times.isEmpty else { return [] }
        let times = Array(Set(a.times + b.times)).sorted()
        var found: [(time: Double, a: Int, b: Int)] = []
        var seen = Set<[Int]>()
        var ia = 0, ib = 0
        for time in times {
            while ia + 1 < a.times.count, a.times[ia + 1] <= time { ia += 1 }
            while ib + 1 < b.times.count, b.times[ib + 1] <= time { ib += 1 }
            guard a.hashes[ia] != b.hashes[ib], seen.insert([ia, ib]).inserted else { continue }
            found.append((time, ia, ib))
        }
        return found
    }

    private static func frames(of url: URL, at indices: Set<Int>) throws(RecorderError) -> [Int: PixelBuffer] {
        var kept: [Int: PixelBuffer] = [:]
        var index = 0
        let last = indices.max() ?? -1
        try FrameDecoder.forEachFrame(url) { frame in
            if indices.contains(index) { kept[index] = frame.pixels }
            index += 1
            return index <= last
        }
        return kept
    }
}

/// Each frame's time and a hash of its pixels, in presentation order.
struct FrameIndex {
    var times: [Double] = []
    var hashes: [UInt64] = []

    init(_ url: URL) throws(RecorderError) {
        var times: [Double] = []
        var hashes: [UInt64] = []
        try FrameDecoder.forEachFrame(url) { frame in
            times.append(frame.time)
            hashes.append(Self.hash(frame.pixels))
            return true
        }
        self.times = times
        self.hashes = hashes
    }

    /// A hash of the visible pixels, a word at a time (a byte at a time costs 8x more, per frame).
    static func hash(_ pixels: PixelBuffer) -> UInt64 {
        var hash: UInt64 = 0x9e37_79b9_7f4a_7c15 ^ UInt64(pixels.width) << 32 ^ UInt64(pixels.height)
        let rowBytes = pixels.width * 4
        pixels.withUnsafeBytes { memory in
            for row in 0..<pixels.height {
                let base = memory.baseAddress!.advanced(by: row * pixels.bytesPerRow)
                var offset = 0
                while offset + 8 <= rowBytes {
                    hash = (hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x100_0000_01b3
                    hash ^= hash >> 29
                    offset += 8
                }
                while offset < rowBytes {
                    hash = (hash ^ UInt64(base.load(fromByteOffset: offset, as: UInt8.self))) &* 0x100_0000_01b3
                    offset += 1
                }
            }
        }
        return hash
    }

    init(times: [Double], hashes: [UInt64]) {
        self.times = times
        self.hashes = hashes
    }
}
