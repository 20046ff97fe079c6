import CFFmpeg
import Foundation
import ShowreelRender
import ShowreelWire

/// An animated WebP file read chunk by chunk: its canvas, and each frame's place, duration and
/// picture. FFmpeg 5's WebP decoder takes still pictures only, so a frame is decoded on its own,
/// wrapped as a still WebP (which is what an animation frame holds).
package struct AnimatedWebP: Sendable {
    package struct Frame: Sendable, Equatable {
        package var x: Int
        package var y: Int
        package var width: Int
        package var height: Int
        /// Milliseconds.
        package var duration: Int
        /// Where the frame's 24-bit duration field is in the file.
        var durationOffset: Int
        /// The frame's picture chunks (`ALPH`, `VP8 ` or `VP8L`).
        var chunks: Range<Int>
    }

    package let url: URL
    package let width: Int
    package let height: Int
    package let frames: [Frame]
    private let bytes: [UInt8]

    /// Seconds the animation lasts, once through.
    package var duration: Double { Double(frames.reduce(0) { $0 + $1.duration }) / 1000 }

    package init(url: URL) throws(RecorderError) {
        self.url = url
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw .cannotOpenMedia(file: url.path, message: error.localizedDescription) }
        bytes = [UInt8](data)
        guard bytes.count >= 12, String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF",
            String(decoding: bytes[8..<12], as: UTF8.self) == "WEBP"
        else {
            throw .cannotOpenMedia(file: url.path, message: "not a WebP file")
        }
        var width = 0, height = 0
        var frames: [Frame] = []
        for chunk in Self.chunks(in: bytes, from: 12, to: bytes.count) {
            let body = chunk.body
            switch chunk.type {
            case "VP8X" where body.count >= 10:
                width = Self.uint24(bytes, body.lowerBound + 4) + 1
                height = Self.uint24(bytes, body.lowerBound + 7) + 1
            case "ANMF" where body.count >= 16:
                let at = body.lowerBound
                frames.append(
                    Frame(
                        x: 2 * Self.uint24(bytes, at), y: 2 * Self.uint24(bytes, at + 3),
                        width: Self.uint24(bytes, at + 6) + 1, height: Self.uint24(bytes, at + 9) + 1,
                        duration: Self.uint24(bytes, at + 12), durationOffset: at + 12, chunks: at + 16..<body.upperBound))
            default: break
            }
        }
        guard width > 0, !frames.isEmpty else {
            throw .cannotOpenMedia(file: url.path, message: "not an animated WebP (no VP8X canvas or no frames)")
        }
        self.width = width
        self.height = height
        self.frames = frames
    }

    /// The picture of frame `index` (its own rectangle, not the canvas), decoded by libavcodec.
    package func decodeFrame(_ index: Int) throws(RecorderError) -> PixelBuffer {
        let frame = frames[index]
        let pictureChunks = Array(bytes[frame.chunks])
        let hasAlpha = Self.chunks(in: pictureChunks, from: 0, to: pictureChunks.count).contains { $0.type == "ALPH" }
        // VP8X (alpha flag, the frame's size), then the frame's chunks.
        let still = Self.file(
            Self.chunk("VP8X", [hasAlpha ? 0x10 : 0, 0, 0, 0] + Self.uint24LE(frame.width - 1) + Self.uint24LE(frame.height - 1))
                + pictureChunks)
        return try Self.decodeStill(still, file: url.path)
    }

    /// A frame to write: its rectangle on the canvas (`x` and `y` even), how long it shows
    /// (milliseconds), and its picture as the chunks of a still WebP file (`VP8 `, `VP8L`, `ALPH`).
    struct FrameToWrite {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        var duration: Int
        var chunks: [UInt8]
    }

    /// Writes a looping animation of `frames` on a `width` x `height` canvas. Each frame
    /// replaces its rectangle (no blending) and stays until the next (no disposal), so the first
    /// should cover the canvas.
    static func write(width: Int, height: Int, frames: [FrameToWrite], to url: URL) throws(RecorderError) -> Int {
        // VP8X: the animation flag, the canvas; ANIM: a white background, looping for ever.
        var body = chunk("VP8X", [0x02, 0, 0, 0] + uint24LE(width - 1) + uint24LE(height - 1))
        body += chunk("ANIM", [0xFF, 0xFF, 0xFF, 0xFF, 0, 0])
        for frame in frames {
            let header =
                uint24LE(frame.x / 2) + uint24LE(frame.y / 2) + uint24LE(frame.width - 1) + uint24LE(frame.height - 1)
                + uint24LE(min(frame.duration, 0xFF_FFFF)) + [0x02]
            body += chunk("ANMF", header + frame.chunks)
        }
        let bytes = file(body)
        do { try Data(bytes).writeReplacing(url) } catch {
            throw .writeFailed(file: url.path, message: error.localizedDescription)
        }
        return bytes.count
    }

    /// The picture chunks of a still WebP file (what an animation frame holds).
    static func pictureChunks(ofStill file: [UInt8]) -> [UInt8] {
        guard file.count >= 12 else { return [] }
        var picture: [UInt8] = []
        for found in chunks(in: file, from: 12, to: file.count) where ["VP8 ", "VP8L", "ALPH"].contains(found.type) {
            picture += chunk(found.type, Array(file[found.body]))
        }
        return picture
    }

    /// A WebP file of `chunks`: RIFF, its size, WEBP, the chunks.
    private static func file(_ chunks: [UInt8]) -> [UInt8] {
        Array("RIFF".utf8) + uint32LE(4 + chunks.count) + Array("WEBP".utf8) + chunks
    }

    /// A RIFF chunk: its type, size and body, padded to an even size.
    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        Array(type.utf8) + uint32LE(body.count) + body + (body.count % 2 == 1 ? [0] : [])
    }

    private static func decodeStill(_ file: [UInt8], file path: String) throws(RecorderError) -> PixelBuffer {
        guard let decoder = avcodec_find_decoder(AV_CODEC_ID_WEBP) else { throw .decoderUnavailable(file: path, codec: "webp") }
        var context = avcodec_alloc_context3(decoder)
        var packet = av_packet_alloc()
        var frame = av_frame_alloc()
        defer {
            avcodec_free_context(&context)
            av_packet_free(&packet)
            av_frame_free(&frame)
        }
        guard let context, let packet, let frame, av_new_packet(packet, Int32(file.count)) >= 0 else {
            throw .outOfMemory("a WebP decoder")
        }
        packet.pointee.data.update(from: file, count: file.count)
        var result = avcodec_open2(context, decoder, nil)
        if result >= 0 { result = avcodec_send_packet(context, packet) }
        if result >= 0 { result = avcodec_receive_frame(context, frame) }
        guard result >= 0 else { throw .cannotOpenMedia(file: path, message: "a frame does not decode: \(ffmpegErrorMessage(result))") }
        guard let pixels = PixelConverter(precise: true).bgraBuffer(from: frame) else {
            throw .cannotOpenMedia(file: path, message: "a frame's pixels could not be converted")
        }
        return pixels
    }

    private static func chunks(in bytes: [UInt8], from: Int, to: Int) -> [(type: String, body: Range<Int>)] {
        var found: [(String, Range<Int>)] = []
        var offset = from
        while offset + 8 <= to {
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            guard offset + 8 + size <= to else { break }
            found.append((String(decoding: bytes[offset..<offset + 4], as: UTF8.self), offset + 8..<offset + 8 + size))
            offset += 8 + size + (size & 1)  // chunks are padded to an even size
        }
        return found
    }

    private static func uint24(_ bytes: [UInt8], _ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 }
    private static func uint24LE(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)] }
    private static func uint32LE(_ value: Int) -> [UInt8] { uint24LE(value) + [UInt8(value >> 24 & 0xFF)] }
}
