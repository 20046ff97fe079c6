import ShowreelGraphics
import ShowreelRender
import ShowreelWire
import Synchronization

/// Passes a display stream on to a recorder with a caption composited onto each frame: the
/// app never sees it, the video does. Changing the caption re-sends the current screen with
/// the new caption at that moment, since the device sends frames only when its screen changes.
final class CaptionedSink: DisplayStreamSink {
    private let next: any DisplayStreamSink
    private let scale: Double
    private let state = Mutex(State())

    private struct State {
        var caption: String?
        /// Where the caption's band ends, in points (nil: near the bottom of the screen).
        var bottom: Double?
        var screen: Frame?
        var lastTime: Duration?
        var ended = false
        /// The caption on the frame sent last, and where its band ended.
        var sent: (caption: String?, bottom: Double?) = (nil, nil)
        /// The captioned picture sent last and the pixels its caption covers; earlier ones,
        /// drawn into again once the recorder let them go.
        var captioned: (pixels: PixelBuffer, band: PixelArea?)?
        var recycler = FrameRecycler()
    }

    init(next: any DisplayStreamSink, scale: Double) {
        self.next = next
        self.scale = scale
    }

    func receive(_ event: DisplayStreamEvent) {
        state.withLock { state in
            switch event {
            case let .frame(frame):
                state.screen = frame
                send(frame, &state)
            case .end:
                state.ended = true
                next.receive(event)
            }
        }
    }

    /// Shows `text` (nil or empty hides the caption) from device time `now` on, ending above
    /// `bottom` (points) when given.
    func setCaption(_ text: String?, at now: Duration, above bottom: Double? = nil) {
        let caption = text?.isEmpty == false ? text : nil
        state.withLock { state in
            guard caption != state.caption || bottom != state.bottom else { return }
            state.caption = caption
            state.bottom = bottom
            guard !state.ended, let screen = state.screen else { return }
            send(Frame(pixels: screen.pixels, presentationTime: now), &state)
        }
    }

    private func send(_ frame: Frame, _ state: inout State) {
        var frame = frame.stamped(after: state.lastTime)
        // The same caption drawn over the new screen changes only where the screen changed;
        // a caption that came, went or changed may change anywhere.
        let sameCaption = state.sent.caption == state.caption && state.sent.bottom == state.bottom
        let changedAreas = sameCaption ? frame.changedAreas : nil
        if let caption = state.caption {
            // The device's buffer is shared with every subscriber: draw on a picture of our own,
            // a recycled one brought up to date where it is behind (what it missed, what the
            // screen changed) and under the caption, drawn again over the screen there.
            let screen = frame.pixels
            let (pixels, stale) = state.recycler.buffer(width: screen.width, height: screen.height, bytesPerRow: screen.bytesPerRow)
            if let stale, let changed = frame.changedAreas, sameCaption, let band = state.captioned?.band {
                pixels.copyPixels(in: stale.adding(changed).adding([band]), from: screen)
            } else {
                pixels.copyPixels(from: screen)
            }
            let band = Caption.draw(caption, on: pixels, scale: scale, bottom: state.bottom)
            state.recycler.published(changing: changedAreas, replacing: state.captioned?.pixels)
            state.captioned = (pixels, band)
            frame = Frame(pixels: pixels, presentationTime: frame.presentationTime, changedAreas: changedAreas)
        } else if !sameCaption {
            frame = Frame(pixels: frame.pixels, presentationTime: frame.presentationTime)
        }
        state.sent = (state.caption, state.bottom)
        state.lastTime = frame.presentationTime
        next.receive(.frame(frame))
    }
}
