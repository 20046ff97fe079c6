/// A rendered screen and the device-clock time at which it became visible.
///
/// `presentationTime` counts from the device's boot on the device clock (real or virtual),
/// so recorders turn it into video timestamps by subtracting their first frame's time.
///
/// `changedAreas`, when known, are the only places where the frame may differ from the one its
/// source published before (nil: anywhere). A recorder that sees every frame of a source uses
/// them to skip what did not change; a frame made any other way (a copy, a repeat) leaves them nil.
public struct Frame: Sendable {
    public let pixels: PixelBuffer
    public let presentationTime: Duration
    public let changedAreas: [PixelArea]?

    public init(pixels: PixelBuffer, presentationTime: Duration, changedAreas: [PixelArea]? = nil) {
        self.pixels = pixels
        self.presentationTime = presentationTime
        self.changedAreas = changedAreas
    }
}

extension Frame {
    /// One refresh of a 60 Hz display: the step at which animations are drawn, time moves
    /// while something moves on a virtual clock, and the shortest a frame lasts in a video.
    public static let refreshInterval: Duration = .nanoseconds(16_666_667)

    /// The smallest step between two frames' timestamps (a millisecond, the video time base).
    public static let minimumGap: Duration = .milliseconds(1)

    /// This frame, moved to just after `previous` when it is not later: two changes at one
    /// instant (a touch landing as an animation ends) stay two frames, in order, and the same
    /// run stamps them the same way. The one place where timestamps are made to increase.
    public func stamped(after previous: Duration?) -> Frame {
        guard let previous, presentationTime <= previous else { return self }
        return Frame(pixels: pixels, presentationTime: previous + Self.minimumGap, changedAreas: changedAreas)
    }

    /// This frame, said to have changed `areas` as well (nil: anything): what a frame changed
    /// since the one before the frame skipped before it.
    package func changing(also areas: [PixelArea]?) -> Frame {
        guard let changedAreas, let areas else { return Frame(pixels: pixels, presentationTime: presentationTime) }
        return Frame(pixels: pixels, presentationTime: presentationTime, changedAreas: changedAreas + areas)
    }
}
