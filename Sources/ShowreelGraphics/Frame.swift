/// A rendered screen and the device-clock time at which it became visible.
///
/// `presentationTime` counts from the device's boot on the device clock (real or virtual),
/// so recorders turn it into video timestamps by subtracting their first frame's time.
///
/// `changedRows`, when known, are the only rows that may differ from the frame its source
/// published before (nil: any row may). A recorder that sees every frame of a source uses it
/// to skip unchanged rows; a frame made any other way (a copy, a repeat) leaves it nil.
public struct Frame: Sendable {
    public let pixels: PixelBuffer
    public let presentationTime: Duration
    public let changedRows: RowSet?

    public init(pixels: PixelBuffer, presentationTime: Duration, changedRows: RowSet? = nil) {
        self.pixels = pixels
        self.presentationTime = presentationTime
        self.changedRows = changedRows
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
        return Frame(pixels: pixels, presentationTime: previous + Self.minimumGap, changedRows: changedRows)
    }
}
