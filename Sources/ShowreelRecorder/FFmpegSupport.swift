import CFFmpeg
import Foundation
import Logging
import ShowreelRender

/// The text FFmpeg gives for an error code (`av_strerror`).
func ffmpegErrorMessage(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    if av_strerror(code, &buffer, buffer.count) < 0 {
        return "FFmpeg error \(code)"
    }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

// MARK: - Routing FFmpeg's own log lines to swift-log

/// FFmpeg (and x264, which logs through it) would print to stderr; libraries here never print,
/// so its messages go to this logger instead. Bootstrap swift-log to see them.
let ffmpegLogger = Logger(label: "showreel.ffmpeg")

private func ffmpegLogCallback(
    _ context: UnsafeMutableRawPointer?, _ level: Int32, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?
) {
    let mapped: Logger.Level
    switch level {
    case ...AV_LOG_FATAL: mapped = .error
    case ...AV_LOG_ERROR: mapped = .error
    case ...AV_LOG_WARNING: mapped = .warning
    case ...AV_LOG_INFO: mapped = .debug
    case ...AV_LOG_VERBOSE: mapped = .trace
    default: return
    }
    guard ffmpegLogger.logLevel <= mapped, let format, let arguments else { return }
    var buffer = [CChar](repeating: 0, count: 1024)
    var printPrefix: Int32 = 1
    let length = av_log_format_line2(context, level, format, arguments, &buffer, Int32(buffer.count), &printPrefix)
    guard length > 0 else { return }
    var line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    while line.last == "\n" || line.last == "\r" { line.removeLast() }
    guard !line.isEmpty else { return }
    ffmpegLogger.log(level: mapped, "\(line)")
}

private let logCallbackInstalled: Bool = {
    av_log_set_callback(ffmpegLogCallback)
    return true
}()

/// Makes sure FFmpeg logs through swift-log; cheap after the first call.
func installFFmpegLogging() {
    _ = logCallbackInstalled
}

// MARK: - Time

extension Duration {
    /// Seconds as a floating-point number.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) * 1e-18
    }

    /// This duration counted in ticks of `1/timescale` seconds, rounded to the nearest tick.
    func ticks(timescale: Int64) -> Int64 {
        let parts = components
        let fraction = (Double(parts.attoseconds) * Double(timescale) * 1e-18).rounded()
        return parts.seconds * timescale + Int64(fraction)
    }

    /// A duration of `ticks` ticks of `1/timescale` seconds.
    static func ticks(_ ticks: Int64, timescale: Int64) -> Duration {
        let whole = ticks / timescale
        let remainder = ticks % timescale
        return .seconds(whole) + .nanoseconds(remainder * 1_000_000_000 / timescale)
    }
}

// MARK: - Pixel conversion

/// Colour matrix and range for a swscale conversion.
struct ColourDetails: Equatable {
    var matrix: Int32   // SWS_CS_*
    var fullRange: Bool
}

/// A reusable swscale context from one size and format to another.
final class PixelConverter {
    private var context: OpaquePointer?
    private var appliedKey: [Int32] = []
    private let extraFlags: Int32

    /// `precise` trades speed for accuracy (used when decoding for comparisons, not when recording).
    init(precise: Bool = false) {
        extraFlags = precise ? Int32(SWS_ACCURATE_RND) | Int32(SWS_FULL_CHR_H_INT) : 0
    }

    deinit { sws_freeContext(context) }

    /// Converts `source` planes into `destination` planes, (re)creating the context when
    /// sizes, formats or colour details change.
    func convert(
        source: (data: [UnsafePointer<UInt8>?], linesize: [Int32], width: Int32, height: Int32, format: AVPixelFormat),
        sourceColour: ColourDetails,
        destination: (data: [UnsafeMutablePointer<UInt8>?], linesize: [Int32], width: Int32, height: Int32, format: AVPixelFormat),
        destinationColour: ColourDetails
    ) -> Bool {
        let flags: Int32 = (destination.width < source.width || destination.height < source.height)
            ? Int32(SWS_AREA) : Int32(SWS_BILINEAR)
        let newContext = sws_getCachedContext(
            context, source.width, source.height, source.format,
            destination.width, destination.height, destination.format,
            flags | extraFlags, nil, nil, nil)
        guard let newContext else { return false }
        let key: [Int32] = [sourceColour.matrix, sourceColour.fullRange ? 1 : 0,
                            destinationColour.matrix, destinationColour.fullRange ? 1 : 0]
        if newContext != context || key != appliedKey {
            context = newContext
            appliedKey = key
            _ = sws_setColorspaceDetails(
                newContext,
                sws_getCoefficients(sourceColour.matrix), sourceColour.fullRange ? 1 : 0,
                sws_getCoefficients(destinationColour.matrix), destinationColour.fullRange ? 1 : 0,
                0, 1 << 16, 1 << 16)
        }
        let result = sws_scale(
            newContext, source.data, source.linesize, 0, source.height,
            destination.data, destination.linesize)
        return result > 0
    }

    /// Converts a BGRA pixel buffer into `frame` (whose format and size are already set).
    func convert(_ pixels: PixelBuffer, into frame: UnsafeMutablePointer<AVFrame>, colour: ColourDetails) -> Bool {
        pixels.withUnsafeBytes { bytes in
            let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let f = frame.pointee
            return convert(
                source: ([UnsafePointer(base), nil, nil, nil], [Int32(pixels.bytesPerRow), 0, 0, 0],
                         Int32(pixels.width), Int32(pixels.height), AV_PIX_FMT_BGRA),
                sourceColour: ColourDetails(matrix: colour.matrix, fullRange: true),
                destination: ([f.data.0, f.data.1, f.data.2, f.data.3],
                              [f.linesize.0, f.linesize.1, f.linesize.2, f.linesize.3],
                              f.width, f.height, AVPixelFormat(f.format)),
                destinationColour: colour)
        }
    }

    /// Converts a decoded frame into a new BGRA pixel buffer of the same size.
    func bgraBuffer(from frame: UnsafeMutablePointer<AVFrame>) -> PixelBuffer? {
        let f = frame.pointee
        guard f.width > 0, f.height > 0 else { return nil }
        // The deprecated full-range "J" formats are their plain twins with full range.
        var format = AVPixelFormat(f.format)
        var fullRange = f.color_range == AVCOL_RANGE_JPEG
        switch format {
        case AV_PIX_FMT_YUVJ420P: format = AV_PIX_FMT_YUV420P; fullRange = true
        case AV_PIX_FMT_YUVJ422P: format = AV_PIX_FMT_YUV422P; fullRange = true
        case AV_PIX_FMT_YUVJ444P: format = AV_PIX_FMT_YUV444P; fullRange = true
        case AV_PIX_FMT_YUVJ440P: format = AV_PIX_FMT_YUV440P; fullRange = true
        default: break
        }
        let matrix: Int32
        switch f.colorspace {
        case AVCOL_SPC_BT709: matrix = SWS_CS_ITU709
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: matrix = SWS_CS_BT2020
        case AVCOL_SPC_SMPTE240M: matrix = SWS_CS_SMPTE240M
        case AVCOL_SPC_FCC: matrix = SWS_CS_FCC
        default: matrix = SWS_CS_DEFAULT
        }
        let buffer = PixelBuffer(width: Int(f.width), height: Int(f.height))
        let ok = buffer.withUnsafeMutableBytes { bytes -> Bool in
            let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return convert(
                source: ([UnsafePointer(f.data.0), UnsafePointer(f.data.1), UnsafePointer(f.data.2), UnsafePointer(f.data.3)],
                         [f.linesize.0, f.linesize.1, f.linesize.2, f.linesize.3],
                         f.width, f.height, format),
                sourceColour: ColourDetails(matrix: matrix, fullRange: fullRange),
                destination: ([base, nil, nil, nil], [Int32(buffer.bytesPerRow), 0, 0, 0],
                              f.width, f.height, AV_PIX_FMT_BGRA),
                destinationColour: ColourDetails(matrix: SWS_CS_DEFAULT, fullRange: true))
        }
        return ok ? buffer : nil
    }
}
