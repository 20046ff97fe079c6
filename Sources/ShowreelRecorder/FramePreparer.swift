import ShowreelRender

/// Gets a recording's frames ready for colour conversion: shrunk to the video's size and masked,
/// in buffers of its own, redoing only what changed. Keeps count of what changed since the frame
/// shrunk last and since the frame kept last (a deferred recording keeps only that). Not
/// thread-safe: it belongs to one `VideoRecorder`.
final class FramePreparer {
    /// The screen size frames arrive at.
    let inputWidth: Int
    let inputHeight: Int
    /// The video's bands, in which the frames' changed areas are counted...
    let bands: FrameSpool.Layout
    /// ...from screen pixels this many times the video's (nil: a size they do not map onto).
    private let changeScale: Int?
    /// Paints what lies outside the screen's shape black before encoding (`--mask=black`).
    private let mask: ScreenMask?
    /// Frames are someone else's (an in-process device's own buffers): mask a copy, kept here
    /// and reused, so the device's screen is untouched and no frame-sized buffer is allocated per frame.
    private let masksCopies: Bool
    private var maskScratch: PixelBuffer?
    /// Frames recorded at a smaller size are shrunk into this buffer first, masked there and
    /// converted 1:1: cheaper than swscale's area filter on the full frame, and the mask touches
    /// the recorder's own buffer, so no copy is needed. Frames that come already shrunk (by a
    /// `RecordingSession`, on the device's thread) go straight to conversion.
    let shrinker: FrameShrinker?
    private let shrinkScratch: PixelBuffer?
    /// What changed (from the frames' `changedAreas`, in the video's pixels; nil: unknown) since
    /// the frame in `shrinkScratch`, so a shrink redoes only that...
    private var changedSinceShrunk: BandSpans?
    /// ...and since the frame kept last, so the spool keeps only that...
    private(set) var changedSinceKept: BandSpans?
    /// ...and since the picture sent to the encoder last, so a screen-sized frame has only that
    /// copied, masked and converted again (see `forEncoder`).
    private var changedSinceSent: BandSpans?

    init(width: Int, height: Int, output: (width: Int, height: Int), options: RecordingOptions, mask: ScreenMask?, masksCopies: Bool) {
        inputWidth = width
        inputHeight = height
        self.mask = mask
        self.masksCopies = masksCopies
        shrinker = FrameShrinker(width: width, height: height, options: options, mask: mask)
        shrinkScratch = shrinker.map { PixelBuffer(width: $0.width, height: $0.height, zeroed: false) }
        bands = FrameSpool.Layout(width: output.width, height: output.height)
        changeScale = if let shrinker { shrinker.shrinksInParts ? 2 : nil } else { 1 }
    }

    func isScreenSized(_ pixels: PixelBuffer) -> Bool {
        pixels.width == inputWidth && pixels.height == inputHeight
    }

    /// `pixels` ready for conversion: shrunk and masked in the recorder's own buffer, or masked.
    func prepared(_ pixels: PixelBuffer) -> PixelBuffer {
        guard let shrinker, let shrinkScratch else { return masked(pixels) }
        if shrinker.isShrunk(pixels) { return pixels }
        guard isScreenSized(pixels) else { return masked(pixels) }
        shrinkIntoScratch(pixels)
        return shrinkScratch
    }

    /// Counts a frame's changed areas towards the next shrink and the next frame kept. A frame
    /// that does not say, or that the video's bands cannot map (not screen-sized, a video not
    /// exactly half or whole size), makes both unknown.
    func noteChanges(of frame: Frame) {
        // A frame a `RecordingSession` shrank says what changed at the video's size already.
        let factor = isScreenSized(frame.pixels) ? changeScale : (shrinker?.isShrunk(frame.pixels) == true ? 1 : nil)
        guard let factor, let areas = frame.changedAreas else {
            (changedSinceShrunk, changedSinceKept, changedSinceSent) = (nil, nil, nil)
            return
        }
        let changed = BandSpans(areas: areas, factor: factor, layout: bands)
        changedSinceShrunk?.formUnion(changed)
        changedSinceKept?.formUnion(changed)
        changedSinceSent?.formUnion(changed)
    }

    /// `pixels` ready for an encoder that keeps its last picture, and the bands of it to convert
    /// again (nil: all). A frame recorded at its own size (`--scale 1`) changes in places, as
    /// the screen does: only the bands that changed since the picture sent last are copied onto
    /// the masked screen kept here (when the frame is shared) and converted, not the whole frame
    /// twice. Counts from this frame on, as the one sent.
    func forEncoder(_ pixels: PixelBuffer) -> (pixels: PixelBuffer, spans: BandSpans?) {
        let spans = changedSinceSent
        changedSinceSent = BandSpans(bandCount: bands.bandCount)
        // Shrunk (here or by the session), the picture is the recorder's own, masked: only the
        // bands that changed since the picture sent last are converted again.
        if shrinker != nil { return (prepared(pixels), spans) }
        guard isScreenSized(pixels), bands.width == inputWidth, bands.height == inputHeight else {
            return (prepared(pixels), nil)
        }
        guard let spans, let mask, masksCopies, mask.width == pixels.width, mask.height == pixels.height,
            let scratch = maskScratch, scratch.bytesPerRow == pixels.bytesPerRow, scratch.byteCount == pixels.byteCount
        else {
            return (masked(pixels), spans)
        }
        // The masked screen is in `maskScratch` as of the picture sent last: bring the changed bands up to date.
        for (band, columns) in spans.changed {
            let rows = bands.rows(of: band)
            scratch.copyPixels(in: PixelArea(rows: rows, columns: columns), from: pixels)
            mask.apply(to: scratch, rows: rows)
        }
        return (scratch, spans)
    }

    /// The encoder's picture is no longer the last one `forEncoder` prepared (a deferred
    /// recording's spool gave it its pictures): the next is converted whole.
    func forgetSent() {
        changedSinceSent = nil
    }

    /// The frame just kept: what changes from now on is counted from it.
    func noteKept() {
        changedSinceKept = BandSpans(bandCount: bands.bandCount)
    }

    /// The frame to hold until its refresh is over, shrunk at once while the source's thread
    /// still has it in cache, and so that the source's buffer is not held (one more buffer the
    /// source would draw into cold). Only a frame that changed all over (an animation's step)
    /// and that a newer frame `mayBeReplaced` in its refresh is held as it is, and shrunk only
    /// if it is not replaced: a whole shrink is worth saving, a few bands are not.
    func holding(_ frame: Frame, mayBeReplaced: Bool) -> Frame {
        guard let shrinkScratch, isScreenSized(frame.pixels) else { return frame }
        if mayBeReplaced, changedSinceShrunk.map({ $0.changedBandCount * 2 > bands.bandCount }) ?? true { return frame }
        shrinkIntoScratch(frame.pixels)
        return Frame(pixels: shrinkScratch, presentationTime: frame.presentationTime)
    }

    /// Shrinks a screen-sized frame into `shrinkScratch`: only what changed since the frame
    /// there, when every frame in between said what.
    private func shrinkIntoScratch(_ pixels: PixelBuffer) {
        guard let shrinker, let shrinkScratch else { return }
        shrinker.shrink(pixels, into: shrinkScratch, spans: changedSinceShrunk)
        changedSinceShrunk = BandSpans(bandCount: bands.bandCount)
    }

    /// `pixels` with the mask applied: in place, or on the scratch copy when they are shared.
    private func masked(_ pixels: PixelBuffer) -> PixelBuffer {
        guard let mask, mask.width == pixels.width, mask.height == pixels.height else { return pixels }
        guard masksCopies else {
            mask.apply(to: pixels)
            return pixels
        }
        if maskScratch?.byteCount != pixels.byteCount || maskScratch?.bytesPerRow != pixels.bytesPerRow {
            maskScratch = PixelBuffer(width: pixels.width, height: pixels.height, bytesPerRow: pixels.bytesPerRow, zeroed: false)
        }
        let scratch = maskScratch!
        pixels.withUnsafeBytes { source in scratch.withUnsafeMutableBytes { $0.copyMemory(from: source) } }
        mask.apply(to: scratch)
        return scratch
    }
}
