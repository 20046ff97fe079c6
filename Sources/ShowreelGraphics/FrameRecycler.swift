/// Frames published earlier, drawn into again once nobody else holds them: a new frame then
/// starts from a picture only a few changes old, and only those changes are copied in from the
/// latest frame, instead of a fresh buffer (page faults) and a whole-screen copy. A device
/// draws its frames this way, and a display stream client rebuilds them this way from patches.
package struct FrameRecycler {
    /// Frames published before the latest, oldest first, with the number of each.
    private var spares: [(pixels: PixelBuffer, number: Int)] = []
    /// What each recent frame changed (nil: anything), newest last; `changes.last` is the latest frame's.
    private var changes: [[PixelArea]?] = []
    private var latestNumber = 0
    /// Enough for the frames a recorder holds (its queue of 24 half-size frames, as a tunnel
    /// host's recorder rebuilds them from its display stream, the one encoding, one held to the
    /// end of its refresh, the latest) to come back: with fewer, a frame was drawn into a fresh
    /// buffer and the whole picture copied in first while x264 held the rest (a tenth of a
    /// `--scale 1` flow's CPU; a fifth of a test's half-size frames when they were recycled).
    private static let spareLimit = 28
    /// Free spares beyond this many go back to the memory pool: a device nobody is recording
    /// keeps few frames.
    private static let freeSpareLimit = 3
    /// Changes of frames further back than a spare can be make its stale areas unknown.
    private static let changeLimit = spareLimit + 4

    package init() {}

    /// A buffer of `width` x `height` (rows `bytesPerRow` apart; nil: tightly packed) to draw
    /// the next frame into, and where it differs from the latest frame (nil: anywhere, as a
    /// fresh buffer does). The newest spare nobody holds: the fewest changes behind.
    package mutating func buffer(width: Int, height: Int, bytesPerRow: Int? = nil) -> (pixels: PixelBuffer, stale: [PixelArea]?) {
        let bytesPerRow = bytesPerRow ?? width * 4
        releaseFreeSparesBeyondLimit()
        for index in spares.indices.reversed()
        where spares[index].pixels.width == width && spares[index].pixels.height == height
            && spares[index].pixels.bytesPerRow == bytesPerRow
        {
            guard isKnownUniquelyReferenced(&spares[index].pixels) else { continue }
            let spare = spares.remove(at: index)
            let behind = latestNumber - spare.number
            guard behind > 0, behind <= changes.count else { return (spare.pixels, nil) }
            var stale: [PixelArea] = []
            for areas in changes.suffix(behind) {
                guard let areas else { return (spare.pixels, nil) }
                stale = stale.adding(areas)
            }
            return (spare.pixels, stale)
        }
        return (PixelBuffer(width: width, height: height, bytesPerRow: bytesPerRow, zeroed: false), nil)
    }

    /// Keeps the newest `freeSpareLimit` free spares and lets go of older free ones (nobody
    /// holds them, so the memory goes back to the pool), in one walk from the newest.
    private mutating func releaseFreeSparesBeyondLimit() {
        guard spares.count > Self.freeSpareLimit else { return }
        var free = 0
        for index in spares.indices.reversed() where isKnownUniquelyReferenced(&spares[index].pixels) {
            free += 1
            if free > Self.freeSpareLimit { spares.remove(at: index) }
        }
    }

    /// Notes a new latest frame, which changed `areas` from the one before; `previous` (the
    /// frame it replaces) becomes a spare.
    package mutating func published(changing areas: [PixelArea]?, replacing previous: PixelBuffer?) {
        if let previous {
            spares.append((previous, latestNumber))
            if spares.count > Self.spareLimit { spares.removeFirst() }
        }
        latestNumber += 1
        changes.append(areas)
        if changes.count > Self.changeLimit { changes.removeFirst() }
    }
}
