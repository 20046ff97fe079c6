import CFFmpeg
import Foundation
import ShowreelRender

#if canImport(CYUV)
import CYUV
#endif

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

    var encoderName: String {
        switch self {
        case .png: "png"
        case .jpeg: "mjpeg"
        }
    }
}

/// Encodes a BGRA pixel buffer as a PNG or JPEG file's bytes with libavcodec.
package enum ImageEncoder {
    /// PNG keeps every pixel (and alpha); JPEG is lossy, high quality, no alpha.
    package static func encode(_ pixels: PixelBuffer, as format: ImageFormat) throws(RecorderError) -> [UInt8] {
        installFFmpegLogging()
        let name = format.rawValue.uppercased()
        guard let encoder = avcodec_find_encoder_by_name(format.encoderName) else {
            throw .imageEncodingFailed(format: name, message: "this FFmpeg build has no \(format.encoderName) encoder")
        }
        var frame = av_frame_alloc()
        defer { av_frame_free(&frame) }
        guard let frame else { throw .outOfMemory("an image") }

        // JPEG: 4:2:0 with full range (JFIF), declared by the range rather than the deprecated YUVJ format.
        let pixelFormat: AVPixelFormat = format == .png ? AV_PIX_FMT_RGBA : AV_PIX_FMT_YUV420P
        frame.pointee.format = pixelFormat.rawValue
        frame.pointee.width = Int32(pixels.width)
        frame.pointee.height = Int32(pixels.height)
        if format == .jpeg {
            frame.pointee.color_range = AVCOL_RANGE_JPEG
            frame.pointee.quality = 2 * FF_QP2LAMBDA
        }
        let result = av_frame_get_buffer(frame, 0)
        guard result >= 0 else { throw .outOfMemory("a \(pixels.width)x\(pixels.height) image") }
        guard convert(pixels, into: frame, as: format) else {
            throw .imageEncodingFailed(format: name, message: "could not convert the BGRA pixels")
        }
        return try encode(frame, with: encoder, format: name) { context in
            if format == .jpeg {
                context.pointee.color_range = AVCOL_RANGE_JPEG
                context.pointee.flags |= AV_CODEC_FLAG_QSCALE
                context.pointee.global_quality = 2 * FF_QP2LAMBDA
            }
        }
    }

    /// Fills `frame` with `pixels`: RGBA for PNG; for JPEG (JFIF), full-range BT.601 4:2:0,
    /// which libyuv's SIMD rows make (a trace's thumbnails) at a fraction of swscale's exact path.
    private static func convert(_ pixels: PixelBuffer, into frame: UnsafeMutablePointer<AVFrame>, as format: ImageFormat) -> Bool {
        #if canImport(CYUV)
        if format == .jpeg {
            let f = frame.pointee
            return pixels.withUnsafeBytes { bytes in
                ARGBToJ420(
                    bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(pixels.bytesPerRow), f.data.0, f.linesize.0,
                    f.data.1, f.linesize.1, f.data.2, f.linesize.2, Int32(pixels.width), Int32(pixels.height)) == 0
            }
        }
        #endif
        return PixelConverter(precise: true).convert(pixels, into: frame, colour: ColourDetails(matrix: SWS_CS_DEFAULT, fullRange: true))
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
