/// A rendered screen and the device-clock time at which it became visible.
///
/// `presentationTime` counts from the device's boot on the device clock (real or virtual),
/// so recorders turn it into video timestamps by subtracting their first frame's time.
public struct Frame: Sendable {
    public let pixels: PixelBuffer
    public let presentationTime: Duration

    public init(pixels: PixelBuffer, presentationTime: Duration) {
        self.pixels = pixels
        self.presentationTime = presentationTime
    }
}
