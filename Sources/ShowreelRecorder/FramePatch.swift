import ShowreelRender

/// A frame at a video's size, as the parts of it that changed since the picture before, each
/// in a small buffer of its own: what a recording session hands its encoding thread when it
/// shrinks the screen's frames itself (`FrameShrinker.patch`). The recorder pastes the parts
/// over a picture it keeps (`VideoRecorder.append(_:)`), so no frame-sized buffer is filled in
/// on the screen's thread with what an older one lacked. A patch whose first part is the whole
/// picture (`isWhole`) needs no picture before it.
package struct FramePatch: Sendable {
    package struct Part: Sendable {
        /// Where it goes, in the video's pixels.
        package let area: PixelArea
        /// Its pixels, `area`'s size, not masked yet (a whole picture's are).
        package let pixels: PixelBuffer
    }

    package let presentationTime: Duration
    /// Pasted in order: a later part covers an earlier one where they overlap.
    package let parts: [Part]
    package let isWhole: Bool

    /// Where the picture differs from the one before, in the video's pixels.
    package var changedAreas: [PixelArea] { parts.map(\.area) }

    /// A picture given whole (`pixels`, the video's size and masked).
    package init(whole pixels: PixelBuffer, presentationTime: Duration) {
        self.init(
            parts: [Part(area: PixelArea(rows: 0..<pixels.height, columns: 0..<pixels.width), pixels: pixels)],
            presentationTime: presentationTime, isWhole: true)
    }

    package init(parts: [Part], presentationTime: Duration) {
        self.init(parts: parts, presentationTime: presentationTime, isWhole: false)
    }

    private init(parts: [Part], presentationTime: Duration, isWhole: Bool) {
        self.presentationTime = presentationTime
        self.parts = parts
        self.isWhole = isWhole
    }

    /// This patch with `dropped` (the one before it, left out of a full queue) pasted first:
    /// the same picture as both in turn.
    func following(_ dropped: FramePatch) -> FramePatch {
        FramePatch(parts: dropped.parts + parts, presentationTime: presentationTime, isWhole: dropped.isWhole || isWhole)
    }
}
