import Foundation
import ShowreelRecorder
import ShowreelRender

/// Pictures and videos for a photo library, made here rather than kept as fixtures: a picture
/// of two colour bands (a harbour's sky over its water), a JPEG of it, a short MP4.
package enum SampleMedia {
    /// A `width` x `height` picture: `top` over `bottom`, with a sun in the sky.
    package static func picture(
        width: Int = 640, height: Int = 480, top: Color = Color(hex: 0x7EC8E3), bottom: Color = Color(hex: 0x1B4F72)
    )
        -> PixelBuffer
    {
        let pixels = PixelBuffer(width: width, height: height)
        let canvas = Canvas(pixels: pixels, scale: 1)
        canvas.clear(bottom)
        canvas.fill(Rect(x: 0, y: 0, width: Double(width), height: Double(height) * 0.55), color: top)
        canvas.fillCircle(
            center: Point(x: Double(width) * 0.7, y: Double(height) * 0.25), radius: Double(height) * 0.12, color: Color(hex: 0xF9D71C))
        canvas.finish()
        return pixels
    }

    /// A PNG file of `picture()` in `folder`.
    package static func png(in folder: URL, name: String = "harbour.png") throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(picture().pngData()).write(to: url)
        return url
    }

    /// A JPEG file of a sunset version of the picture.
    package static func jpeg(in folder: URL, name: String = "sunset.jpg") throws -> URL {
        let url = folder.appendingPathComponent(name)
        let bytes = try ImageEncoder.encode(picture(top: Color(hex: 0xF39C12), bottom: Color(hex: 0x6C3483)), as: .jpeg)
        try Data(bytes).write(to: url)
        return url
    }

    /// A one-second MP4 of a few frames.
    package static func mp4(in folder: URL, name: String = "waves.mp4") throws -> URL {
        let url = folder.appendingPathComponent(name)
        let recorder = try VideoRecorder(url: url, width: 320, height: 240, options: RecordingOptions(fragmented: false))
        for index in 0..<3 {
            try recorder.append(
                Frame(
                    pixels: picture(width: 320, height: 240, top: Color(hex: 0x48C9B0 + UInt32(index) * 0x10)),
                    presentationTime: .milliseconds(Int64(index) * 300)))
        }
        try recorder.finish(stopTime: .seconds(1))
        return url
    }
}
