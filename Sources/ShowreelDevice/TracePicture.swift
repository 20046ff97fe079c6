import ShowreelGraphics
import Synchronization

/// A picture of the screen in an `ActionTrace`, as its painter made it: whole, or as the parts
/// of it that differ from the picture made before (`base`). A typed key changes a key cap and
/// the caret, so most of a trace's pictures are a few small parts: each whole copy of a
/// thumbnail took fresh pages, which was the most a passing recorded test paid for its trace.
/// The whole picture is put together only when something asks for it (a trace exported with
/// pictures), and kept from then on.
///
/// Its parts are written once, on the painter, before anyone reads them (after the painter has
/// been waited for); only the picture put together is shared state.
package final class TracePicture: @unchecked Sendable {
    var whole: PixelBuffer?
    var base: TracePicture?
    var parts: [(area: PixelArea, pixels: PixelBuffer)] = []
    /// The picture as the trace's encoder made it, when it encodes them as it goes.
    var encoded: String?
    private let assembled = Mutex<PixelBuffer?>(nil)

    /// A picture to be made on the painter.
    init() {}

    init(whole: PixelBuffer) {
        self.whole = whole
    }

    /// The whole picture; nil when it was never made.
    package var pixels: PixelBuffer? {
        if let known = whole ?? assembled.withLock({ $0 }) { return known }
        // Back to the nearest picture that is whole, then forward, each put together once:
        // iteratively, as a long session's chain may be thousands of pictures.
        var chain = [self]
        var start: PixelBuffer?
        while start == nil, let base = chain[chain.count - 1].base {
            start = base.whole ?? base.assembled.withLock { $0 }
            if start == nil { chain.append(base) }
        }
        guard var pixels = start else { return nil }
        for picture in chain.reversed() {
            let made = pixels.copy()
            for part in picture.parts { made.paste(part.pixels, over: part.area) }
            picture.assembled.withLock { $0 = made }
            pixels = made
        }
        return pixels
    }

    /// A picture of the same pixels (sharing what they are made of), encoded as `encoded`.
    func encoded(as encoded: String?) -> TracePicture {
        let picture = TracePicture()
        (picture.whole, picture.base, picture.parts, picture.encoded) = (whole, base, parts, encoded)
        picture.assembled.withLock { $0 = assembled.withLock { $0 } }
        return picture
    }

    /// Whether it was made whole rather than as parts of the picture before (tests).
    var isWhole: Bool { whole != nil }
}
