import Foundation
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelRecorder

@Suite("ImageEncoder and MediaProbe")
struct ImageEncoderTests {
    @Test("PNG is lossless and decodable")
    func png() async throws {
        let pixels = makePixels(index: 4, width: 101, height: 57)
        let bytes = try ImageEncoder.encode(pixels, as: .png)
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("shot.png")
            try ImageEncoder.write(pixels, to: url)
            let info = try MediaProbe.probe(url)
            #expect(info.codecName == "png")
            #expect(info.width == 101 && info.height == 57)
            let frames = try await decodedFrames(url)
            #expect(frames.count == 1)
            #expect(frames.first?.pixels.hasSamePixels(as: pixels) == true)
        }
    }

    @Test("JPEG is decodable and close to the original")
    func jpeg() async throws {
        let pixels = makePixels(index: 2, width: 101, height: 57)
        let bytes = try ImageEncoder.encode(pixels, as: .jpeg)
        #expect(Array(bytes.prefix(3)) == [0xFF, 0xD8, 0xFF])
        #expect(Array(bytes.suffix(2)) == [0xFF, 0xD9])
        try await withTemporaryDirectory { directory in
            let url = directory.appendingPathComponent("shot.jpg")
            try Data(bytes).write(to: url)
            let info = try MediaProbe.probe(url)
            #expect(info.codecName == "mjpeg")
            #expect(info.width == 101 && info.height == 57)
            let decoded = try #require(try await decodedFrames(url).first)
            #expect(decoded.pixels.width == 101 && decoded.pixels.height == 57)
            let point = backgroundPoint(width: 101, height: 57)
            #expect(isClose(decoded.pixels.pixel(x: point.x, y: point.y), palette[2], tolerance: 10))
            #expect(isClose(decoded.pixels.pixel(x: 60, y: 30), RGBA(red: 255, green: 255, blue: 255), tolerance: 10))
        }
    }

    @Test("image formats come from file extensions")
    func imageFormats() throws {
        #expect(try ImageFormat(fileURL: URL(fileURLWithPath: "/tmp/a.PNG")) == .png)
        #expect(try ImageFormat(fileURL: URL(fileURLWithPath: "/tmp/a.jpg")) == .jpeg)
        #expect(try ImageFormat(fileURL: URL(fileURLWithPath: "/tmp/a.jpeg")) == .jpeg)
        let error = #expect(throws: RecorderError.self) { try ImageFormat(fileURL: URL(fileURLWithPath: "/tmp/a.gif")) }
        #expect(error?.description.contains(".png") == true)
    }

    @Test("probing something that is not media is a clear error")
    func probeNonMedia() async throws {
        try await withTemporaryDirectory { directory in
            let text = directory.appendingPathComponent("notes.mp4")
            try Data("definitely not a video".utf8).write(to: text)
            #expect(throws: RecorderError.self) { try MediaProbe.probe(text) }
            let missing = directory.appendingPathComponent("missing.mp4")
            let error = #expect(throws: RecorderError.self) { try MediaProbe.probe(missing) }
            #expect(error?.description.contains("missing.mp4") == true)
        }
    }
}
