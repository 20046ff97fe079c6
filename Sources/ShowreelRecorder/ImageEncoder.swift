import CFFmpeg
import Foundation
import ShowreelRender

/// Still-image formats for screenshots.
package enum ImageFormat: String, Sendable, CaseIterable {
    case png, jpeg

    /// The format for a file name's extension: .png, .jpg or .jpeg (any case).
    package init(fileURL: URL) throws(RecorderError) {
        switch fileURL.pathExtension.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        default: throw .unsupportedImageFormat(file: fileURL.path, extension: fileURL.pathExtension)
        }
    }

    package var fileExtension: String {
        switch self {
        case .png: "png"
        case .jpeg: "jpg"
        }
    }
}

/// Encodes a BGRA pixel buffer as a PNG file's bytes with libavcodec, or a JPEG file's with
/// libjpeg-turbo.
package enum ImageEncoder {
    /// PNG keeps every pixel (and alpha); JPEG is lossy, high quality, no alpha.
    package static func encode(_ pixels: PixelBuffer, as format: ImageFormat) throws(RecorderError) -> [UInt8] {
        if format == .jpeg {
            guard let bytes = pixels.jpegData() else {
                throw .imageEncodingFailed(format: "JPEG", message: "libjpeg could not encode a \(pixels.width)x\(pixels.height) picture")
            }
            return bytes
        }
        installFFmpegLogging()
        guard let encoder = avcodec_find_encoder_by_name("png") else {
            throw .imageEncodingFailed(format: "PNG", message: "this FFmpeg build has no png encoder")
        }
        var frame = av_frame_alloc()
        defer { av_frame_free(&frame) }
        guard let frame else { throw .outOfMemory("an image") }
        frame.pointee.format = AV_PIX_FMT_RGBA.rawValue
        frame.pointee.width = Int32(pixels.width)
        frame.pointee.height = Int32(pixels.height)
        let result = av_frame_get_buffer(frame, 0)
        guard result >= 0 else { throw .outOfMemory("a \(pixels.width)x\(pixels.height) image") }
        guard PixelConverter(precise: true).convert(pixels, into: frame, colour: ColourDetails(matrix: SWS_CS_DEFAULT, fullRange: true))
        else {
            throw .imageEncodingFailed(format: "PNG", message: "could not convert the BGRA pixels")
        }
        return try encode(frame, with: encoder, format: "PNG") { _ in }
    }

    /// Encodes `frame` (lent) as one image with `encoder`, opened at the frame's size and pixel
    /// format and set up by `configure`; returns the file's bytes. `format` names the format in errors.
    static func encode(
        _ frame: UnsafeMutablePointer<AVFrame>, with encoder: UnsafePointer<AVCodec>, format name: String,
        configure: (UnsafeMutablePointer<AVCodecContext>) -> Void
    ) throws(RecorderError) -> [UInt8] {
        var codecContext = avcodec_alloc_context3(encoder)
        var packet = av_packet_alloc()
        defer {
            avcodec_free_context(&codecContext)
            av_packet_free(&packet)
        }
        guard let context = codecContext, let packet else { throw .outOfMemory("an image encoder") }
        context.pointee.width = frame.pointee.width
        context.pointee.height = frame.pointee.height
        context.pointee.pix_fmt = AVPixelFormat(frame.pointee.format)
        context.pointee.time_base = AVRational(num: 1, den: 1)
        context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        configure(context)
        var result = avcodec_open2(context, encoder, nil)
        guard result >= 0 else { throw .imageEncodingFailed(format: name, message: ffmpegErrorMessage(result)) }

        frame.pointee.pts = 0
        result = avcodec_send_frame(context, frame)
        guard result >= 0 else { throw .imageEncodingFailed(format: name, message: ffmpegErrorMessage(result)) }
        result = avcodec_send_frame(context, nil)
        guard result >= 0 || result == showreel_averror_eof() else {
            throw .imageEncodingFailed(format: name, message: ffmpegErrorMessage(result))
        }
        var bytes: [UInt8] = []
        while true {
            result = avcodec_receive_packet(context, packet)
            if result == showreel_averror_eof() || result == showreel_averror_eagain() { break }
            guard result >= 0 else { throw .imageEncodingFailed(format: name, message: ffmpegErrorMessage(result)) }
            if let data = packet.pointee.data, packet.pointee.size > 0 {
                bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
            }
            av_packet_unref(packet)
        }
        guard !bytes.isEmpty else { throw .imageEncodingFailed(format: name, message: "the encoder produced no data") }
        return bytes
    }

    /// Encodes `pixels` in the format its extension names and writes the file.
    package static func write(_ pixels: PixelBuffer, to url: URL) throws(RecorderError) {
        let format = try ImageFormat(fileURL: url)
        let bytes = try encode(pixels, as: format)
        do {
            try Data(bytes).write(to: url)
        } catch {
            throw .cannotCreateFile(file: url.path, message: (error as NSError).localizedDescription)
        }
    }
}
