import ShowreelRender

/// Brings a screen-sized frame down to a recording's video size, masked there: the step before
/// colour conversion when a video is at most half size smaller (`FrameScaler.canShrink`).
///
/// Done where the frame was just drawn, it reads the frame from the drawing core's cache; on
/// another core the same 5 MB come from memory, about four times slower here. So a recording
/// session shrinks on the source's thread (`patch(_:afterPicture:)`, into buffers it hands on), and a
/// `VideoRecorder` fed screen-sized frames shrinks into a buffer of its own (`shrink(_:into:)`).
package struct FrameShrinker: Sendable {
    package let width: Int
    package let height: Int
    /// The screen's shape at the video's size, painted black after shrinking.
    package let mask: ScreenMask?
    /// Whether the video is exactly half the screen, so that changed parts of a frame can be
    /// shrunk alone (`shrink(_:into:spans:)`).
    let shrinksInParts: Bool
    /// The video's bands, for `spans`.
    private let bands: FrameSpool.Layout

    /// A shrinker from `width` x `height` frames to `options`' video size, or nil when the video
    /// is not smaller by up to half (swscale's area filter scales those during conversion).
    package init?(width: Int, height: Int, options: RecordingOptions, mask: ScreenMask?) {
        let output = options.outputSize(width: width, height: height)
        guard FrameScaler.canShrink(fromWidth: width, height: height, toWidth: output.width, height: output.height) else { return nil }
        self.width = output.width
        self.height = output.height
        self.mask = mask.map { ScreenMask(profile: $0.profile, width: output.width, height: output.height) }
        shrinksInParts = FrameScaler.shrinksInParts(fromWidth: width, height: height, toWidth: output.width, height: output.height)
        bands = FrameSpool.Layout(width: output.width, height: output.height)
    }

    /// Shrinks `pixels` into `destination` (of the video's size) and masks it.
    package func shrink(_ pixels: PixelBuffer, into destination: PixelBuffer) {
        FrameScaler.shrink(pixels, into: destination)
        mask?.apply(to: destination)
    }

    /// Shrinks into `destination`, which holds a frame shrunk before, only the parts of it that
    /// `spans` (of the destination, nil: all of it) say changed since.
    func shrink(_ pixels: PixelBuffer, into destination: PixelBuffer, spans: BandSpans?) {
        guard let spans, shrinksInParts else { return shrink(pixels, into: destination) }
        for (band, columns) in spans.changed {
            let rows = bands.rows(of: band)
            FrameScaler.shrink(pixels, into: destination, rows: rows, columns: columns)
            mask?.apply(to: destination, rows: rows)
        }
    }

    /// `frame` at the video's size, as a patch over the picture of the frame before it when
    /// there is one (`afterPicture`) and `frame` says what changed since: those parts alone,
    /// each shrunk into a buffer of its own (band by band, as `shrink(_:into:spans:)` redoes
    /// them), not masked. A frame that changed over half its bands, or does not say what
    /// changed, is shrunk whole into a buffer of its own, masked.
    package func patch(_ frame: Frame, afterPicture: Bool) -> FramePatch {
        if afterPicture, shrinksInParts, let changed = frame.changedAreas {
            let spans = BandSpans(areas: changed, factor: 2, layout: bands)
            if spans.changedBandCount * 2 <= bands.bandCount {
                let parts = spans.changed.compactMap { band, columns -> FramePatch.Part? in
                    let area = FrameScaler.redrawnPart(
                        of: PixelArea(rows: bands.rows(of: band), columns: columns), width: width, height: height)
                    guard !area.isEmpty else { return nil }
                    let part = PixelBuffer(width: area.columns.count, height: area.rows.count, zeroed: false)
                    FrameScaler.shrink(frame.pixels, area: area, ofWidth: width, height: height, into: part)
                    return FramePatch.Part(area: area, pixels: part)
                }
                return FramePatch(parts: parts, presentationTime: frame.presentationTime)
            }
        }
        let pixels = PixelBuffer(width: width, height: height, zeroed: false)
        shrink(frame.pixels, into: pixels)
        return FramePatch(whole: pixels, presentationTime: frame.presentationTime)
    }

    /// Whether `pixels` are already at the video's size (shrunk and masked by a shrinker).
    func isShrunk(_ pixels: PixelBuffer) -> Bool {
        pixels.width == width && pixels.height == height
    }
}
