import ShowreelGraphics
import Testing

/// A device draws each frame into a buffer a recorder has given back, copying in only what
/// changed since that buffer's frame; while a recorder holds many frames (x264 behind, its queue
/// full), the buffers must still come back, and once nobody holds them most are let go.
@Suite("Frame recycler")
struct FrameRecyclerTests {
    /// Publishes `count` frames, each changing one small area, while a consumer holds the
    /// last `held` of them; returns the buffers made, weakly, and how many frames came from
    /// a fresh buffer or with their stale areas unknown.
    private func publish(
        _ count: Int, holding held: Int, recycler: inout FrameRecycler, latest: inout PixelBuffer?, made: inout [Weak]
    ) -> (fresh: Int, unknownStale: Int) {
        var holder: [PixelBuffer] = []
        var (fresh, unknownStale) = (0, 0)
        for index in 0..<count {
            let (pixels, stale) = recycler.buffer(width: 64, height: 48)
            if !made.contains(where: { $0.buffer === pixels }) {
                made.append(Weak(buffer: pixels))
                fresh += 1
            } else if stale == nil {
                unknownStale += 1
            }
            let changed = PixelArea(rows: index % 40..<index % 40 + 4, columns: 0..<8)
            recycler.published(changing: [changed], replacing: latest)
            latest = pixels
            holder.append(pixels)
            if holder.count > held { holder.removeFirst() }
        }
        return (fresh, unknownStale)
    }

    final class Weak {
        weak var buffer: PixelBuffer?
        init(buffer: PixelBuffer) { self.buffer = buffer }
    }

    @Test("frames a recorder holds (a queue of 24, one encoding, one held) come back, stale only where they changed")
    func heldFramesComeBack() {
        var recycler = FrameRecycler()
        var latest: PixelBuffer?
        var made: [Weak] = []
        let result = publish(200, holding: 26, recycler: &recycler, latest: &latest, made: &made)
        // The held frames, the latest and the one being drawn: no buffer beyond those, and
        // every recycled buffer knows what it lacks.
        #expect(result.fresh <= 28, "\(result.fresh) buffers made for 200 frames")
        #expect(result.unknownStale == 0)
    }

    @Test("of the buffers given back, the latest frame's is drawn into next: the least to copy in")
    func newestSpareFirst() {
        var recycler = FrameRecycler()
        var frames: [PixelBuffer?] = []
        for index in 0..<4 {
            let (pixels, _) = recycler.buffer(width: 64, height: 48)
            // Areas far apart, so that none merge.
            recycler.published(changing: [PixelArea(rows: index * 10..<index * 10 + 1, columns: 0..<8)], replacing: frames.last ?? nil)
            frames.append(pixels)
        }
        // Frames 0 and 2 given back, 1 still held, 3 the latest.
        let second = ObjectIdentifier(frames[2]!)
        frames[0] = nil
        frames[2] = nil
        let (pixels, stale) = recycler.buffer(width: 64, height: 48)
        #expect(ObjectIdentifier(pixels) == second)
        #expect(stale == [PixelArea(rows: 30..<31, columns: 0..<8)])
    }

    @Test("once nobody holds them, most spare frames are let go")
    func freeSparesAreLetGo() {
        var recycler = FrameRecycler()
        var latest: PixelBuffer?
        var made: [Weak] = []
        _ = publish(100, holding: 10, recycler: &recycler, latest: &latest, made: &made)
        let madeWhileHeld = made.count
        // Idle (nobody holds a frame) for a while: the spares beyond a few are released.
        _ = publish(20, holding: 0, recycler: &recycler, latest: &latest, made: &made)
        #expect(made.count == madeWhileHeld, "an idle device made new buffers")
        let alive = made.filter { $0.buffer != nil }.count
        #expect(alive <= 5, "\(alive) of \(made.count) buffers still alive")
    }
}
