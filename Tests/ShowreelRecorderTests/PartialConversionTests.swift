import CFFmpeg
import Foundation
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelRecorder

/// A frame recorded at its own size that says what changed has only that copied, masked and
/// converted again: the pictures x264 gets must be those of whole conversions.
@Suite("Partial conversion")
struct PartialConversionTests {
    /// A square that moves over a fixed background (each frame saying where it was and is now),
    /// with a background change between that says nothing (all of it is converted again).
    func frames(width: Int = 320, height: Int = 240, saying: Bool) -> [Frame] {
        (0..<10).map { index in
            let background = index < 6 ? 0 : 1
            let pixels = makePixels(index: background, width: width, height: height)
            let square = { (step: Int) in PixelArea(rows: 20..<60, columns: (step * 23 % (width - 40))..<(step * 23 % (width - 40) + 40)) }
            pixels.withUnsafeMutableBytes { bytes in
                let area = square(index)
                for y in area.rows {
                    for x in area.columns {
                        bytes.storeBytes(of: 0xFFFF_FFFF, toByteOffset: y * pixels.bytesPerRow + x * 4, as: UInt32.self)
                    }
                }
            }
            let changed = saying && index > 0 && index != 6 ? [square(index - 1), square(index)] : nil
            return Frame(pixels: pixels, presentationTime: clockOrigin + .milliseconds(40 * index), changedAreas: changed)
        }
    }

    @Test("frames that say what changed, masked on a copy, make the video that whole conversions make")
    func sameVideoAsWholeConversions() async throws {
        try await withTemporaryDirectory { directory in
            // The phone's corners and sensor housing at 320x240: the square passes under them.
            let mask = ScreenMask(profile: .phone, width: 320, height: 240)
            func record(saying: Bool) throws -> URL {
                let url = directory.appendingPathComponent(saying ? "partial.mov" : "whole.mov")
                let recorder = try VideoRecorder(
                    url: url, width: 320, height: 240, options: RecordingOptions(threads: 1), mask: mask, masksCopies: true)
                let frames = frames(saying: saying)
                for frame in frames { try recorder.append(frame) }
                try recorder.finish(stopTime: clockOrigin + .seconds(1))
                // The frames are the caller's: masking worked on a copy, the corner keeps its colour.
                #expect(mask.masks(x: 0, y: 0))
                #expect(
                    frames.allSatisfy {
                        isClose($0.pixels.pixel(x: 0, y: 0), palette[0]) || isClose($0.pixels.pixel(x: 0, y: 0), palette[1])
                    })
                return url
            }
            let partial = try await decodedFrames(try record(saying: true))
            let whole = try await decodedFrames(try record(saying: false))
            #expect(partial.count == 10 && whole.count == 10)
            for (a, b) in zip(partial, whole) {
                #expect(a.time == b.time)
                #expect(a.pixels.hasSamePixels(as: b.pixels), "frame at \(a.time) s differs")
            }
        }
    }

    @Test("converting only the changed bands into the picture before gives the whole conversion, byte for byte")
    func changedBandsMatchWholeConversion() throws {
        let before = frames(width: 390, height: 844, saying: true)
        let converter = PixelConverter(threads: 1)
        var frame = av_frame_alloc()
        defer { av_frame_free(&frame) }
        let picture = try #require(frame)
        picture.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        picture.pointee.width = 390
        picture.pointee.height = 844
        try #require(av_frame_get_buffer(picture, 0) >= 0)
        let layout = FrameSpool.Layout(width: 390, height: 844)
        try #require(converter.convert(before[0].pixels, into: picture, colour: .videoRange601))
        let changed = BandSpans(areas: try #require(before[1].changedAreas), factor: 1, layout: layout)
        #expect(changed.changedBandCount * 2 <= layout.bandCount, "few bands: the partial path")
        try #require(converter.convert(before[1].pixels, into: picture, colour: .videoRange601, changed: changed))
        let partial = planes(of: picture)
        try #require(converter.convert(before[1].pixels, into: picture, colour: .videoRange601))
        #expect(partial == planes(of: picture))
    }

    /// A YUV 4:2:0 picture's planes, rows packed.
    private func planes(of picture: UnsafeMutablePointer<AVFrame>) -> [UInt8] {
        let (width, height) = (Int(picture.pointee.width), Int(picture.pointee.height))
        let planes = [
            (picture.pointee.data.0!, Int(picture.pointee.linesize.0), width, height),
            (picture.pointee.data.1!, Int(picture.pointee.linesize.1), (width + 1) / 2, (height + 1) / 2),
            (picture.pointee.data.2!, Int(picture.pointee.linesize.2), (width + 1) / 2, (height + 1) / 2),
        ]
        return planes.flatMap { base, stride, width, height in
            (0..<height).flatMap { row in Array(UnsafeBufferPointer(start: base + row * stride, count: width)) }
        }
    }
}
