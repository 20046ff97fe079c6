import ShowreelGraphics

extension Frame {
    /// This frame at `width` x `height`: as it is when it already has that size, else scaled to
    /// fit inside it, centred, the rest black. A video keeps the size it started with, as `simctl
    /// io recordVideo` does: a screen turned on its side mid-recording shows whole, letterboxed.
    package func fitted(width: Int, height: Int) -> Frame {
        guard pixels.width != width || pixels.height != height else { return self }
        let fitted = PixelBuffer(width: width, height: height, zeroed: false)
        let canvas = Canvas(pixels: fitted, scale: 1)
        canvas.clear(.black)
        let factor = min(Double(width) / Double(pixels.width), Double(height) / Double(pixels.height))
        let size = Size(width: (Double(pixels.width) * factor).rounded(), height: (Double(pixels.height) * factor).rounded())
        canvas.draw(
            pixels,
            in: Rect(
                x: ((Double(width) - size.width) / 2).rounded(), y: ((Double(height) - size.height) / 2).rounded(), width: size.width,
                height: size.height))
        canvas.finish()
        // What changed is in the screen's pixels, not the video's: nothing is known of it here.
        return Frame(pixels: fitted, presentationTime: presentationTime)
    }
}
