import CFFmpeg
import Foundation
import Logging
import ShowreelRender

#if canImport(CYUV)
import CYUV
#endif

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
/// so its messages go to this logger instead, at `debug` (its errors and warnings) and `trace`
/// (the rest): a failure FFmpeg reports reaches the caller as a `RecorderError`, one sentence,
/// and its own lines (`[mov,mp4,m4a,3gp,3g2,mj2 @ 0x...] moov atom not found`) are detail for
/// whoever debugs, not for that sentence's reader. swift-log's default handler shows `info`
/// and above, so they stay out of a command's output; bootstrap swift-log at `debug` to see them.
let ffmpegLogger = Logger(label: "showreel.ffmpeg")

private func ffmpegLogCallback(
    _ context: UnsafeMutableRawPointer?, _ level: Int32, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?
) {
    let mapped: Logger.Level
    switch level {
    case ...AV_LOG_WARNING: mapped = .debug
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
    var matrix: Int32  // SWS_CS_*
    var fullRange: Bool

    /// BT.601, limited range: what video recordings are encoded in.
    static let videoRange601 = ColourDetails(matrix: SWS_CS_ITU601, fullRange: false)
}

/// A reusable swscale context from one size and format to another.
final class PixelConverter {
    private var context: OpaquePointer?
    private var appliedKey: [Int32] = []
    private let extraFlags: Int32
    /// swscale slice threads for BGRA frames (`convert(_:into:colour:)`): 1 = none, 0 = one per core.
    private let threads: Int32
    private var threadedContext: OpaquePointer?
    private var threadedKey: [Int32] = []
    /// A reusable AVFrame shell that borrows a pixel buffer's memory for `sws_scale_frame`.
    private var sourceFrame: UnsafeMutablePointer<AVFrame>?

    /// `precise` trades speed for accuracy (used when decoding for comparisons, not when recording).
    /// `threads` splits BGRA conversions into slices on that many threads (0: one per core), the
    /// way the ffmpeg command line's scale filter does; the output is identical to one thread.
    init(precise: Bool = false, threads: Int = 1) {
        extraFlags = precise ? Int32(SWS_ACCURATE_RND) | Int32(SWS_FULL_CHR_H_INT) : 0
        self.threads = Int32(clamping: max(0, threads))
    }

    deinit {
        sws_freeContext(context)
        sws_freeContext(threadedContext)
        av_frame_free(&sourceFrame)
    }

    /// Converts `source` planes into `destination` planes, (re)creating the context when
    /// sizes, formats or colour details change.
    func convert(
        source: (data: [UnsafePointer<UInt8>?], linesize: [Int32], width: Int32, height: Int32, format: AVPixelFormat),
        sourceColour: ColourDetails,
        destination: (data: [UnsafeMutablePointer<UInt8>?], linesize: [Int32], width: Int32, height: Int32, format: AVPixelFormat),
        destinationColour: ColourDetails
    ) -> Bool {
        let flags: Int32
        if destination.width < source.width || destination.height < source.height {
            flags = Int32(SWS_AREA)
        } else if destination.width == source.width, destination.height == source.height, extraFlags == 0 {
            // Same size: only chroma is resampled, and point sampling does that at 60% of
            // bilinear's cost (frames shrunk by `FrameScaler` already had their pixels averaged).
            flags = Int32(SWS_POINT)
        } else {
            flags = Int32(SWS_BILINEAR)
        }
        let newContext = sws_getCachedContext(
            context, source.width, source.height, source.format,
            destination.width, destination.height, destination.format,
            flags | extraFlags, nil, nil, nil)
        guard let newContext else { return false }
        let key: [Int32] = [
            sourceColour.matrix, sourceColour.fullRange ? 1 : 0,
            destinationColour.matrix, destinationColour.fullRange ? 1 : 0,
        ]
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

    /// Converts `rows` rows of BGRA pixels (an even number, but for a picture's last rows) into
    /// YUV 4:2:0 planes, BT.601 limited range: a band of a frame, as a `FrameSpool` keeps them.
    func convertRows(
        _ bgra: UnsafeRawPointer, bytesPerRow: Int, width: Int, rows: Int,
        into y: (UnsafeMutablePointer<UInt8>, Int), _ u: (UnsafeMutablePointer<UInt8>, Int),
        _ v: (UnsafeMutablePointer<UInt8>, Int)
    ) -> Bool {
        #if canImport(CYUV)
        return ARGBToI420(
            bgra.assumingMemoryBound(to: UInt8.self), Int32(bytesPerRow), y.0, Int32(y.1), u.0, Int32(u.1),
            v.0, Int32(v.1), Int32(width), Int32(rows)) == 0
        #else
        return convert(
            source: (
                [bgra.assumingMemoryBound(to: UInt8.self), nil, nil, nil], [Int32(bytesPerRow), 0, 0, 0],
                Int32(width), Int32(rows), AV_PIX_FMT_BGRA
            ),
            sourceColour: ColourDetails(matrix: ColourDetails.videoRange601.matrix, fullRange: true),
            destination: ([y.0, u.0, v.0, nil], [Int32(y.1), Int32(u.1), Int32(v.1), 0], Int32(width), Int32(rows), AV_PIX_FMT_YUV420P),
            destinationColour: .videoRange601)
        #endif
    }

    private static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// Slices a whole-frame conversion is split into: one per thread `threads` allows, none for
    /// a small picture (below about 256 rows a slice costs more to hand over than it saves).
    private func rowSliceCount(rows: Int) -> Int {
        let wanted = threads == 0 ? Self.cores : Int(threads)
        return max(1, min(wanted, rows / 256))
    }

    /// Converts a BGRA pixel buffer into `frame` (whose format and size are already set). With
    /// `changed`, `frame` holds the picture before and only those bands are converted (when most
    /// bands changed, the whole frame is: its slices go faster than many small bands).
    func convert(
        _ pixels: PixelBuffer, into frame: UnsafeMutablePointer<AVFrame>, colour: ColourDetails, changed: BandSpans? = nil
    ) -> Bool {
        let f = frame.pointee
        if colour == .videoRange601, AVPixelFormat(f.format) == AV_PIX_FMT_YUV420P,
            Int(f.width) == pixels.width, Int(f.height) == pixels.height, let y = f.data.0, let u = f.data.1, let v = f.data.2
        {
            let layout = FrameSpool.Layout(width: pixels.width, height: pixels.height)
            let (yStride, uStride, vStride) = (Int(f.linesize.0), Int(f.linesize.1), Int(f.linesize.2))
            return pixels.withUnsafeBytes { bytes in
                // One rectangle of the picture (rows even-aligned, as bands and slices are).
                func convert(rows: Range<Int>, columns: Range<Int>) -> Bool {
                    let (top, x) = (rows.lowerBound, columns.lowerBound)
                    return convertRows(
                        bytes.baseAddress! + top * pixels.bytesPerRow + x * 4, bytesPerRow: pixels.bytesPerRow,
                        width: columns.count, rows: rows.count, into: (y + top * yStride + x, yStride),
                        (u + top / 2 * uStride + x / 2, uStride), (v + top / 2 * vStride + x / 2, vStride))
                }
                if let changed, changed.changedBandCount * 2 <= layout.bandCount {
                    return changed.changed.allSatisfy { band, columns in convert(rows: layout.rows(of: band), columns: columns) }
                }
                // The whole frame (libyuv where there is one: a tenth of swscale's time), in slices
                // on the cores the encoder idles on meanwhile: x264 waits for this picture.
                let slices = RowSlices(rows: pixels.height, count: rowSliceCount(rows: pixels.height))
                return slices.allSucceed { convert(rows: $0, columns: 0..<pixels.width) }
            }
        }
        if threads != 1, frame.pointee.buf.0 != nil {
            return convertSliced(pixels, into: frame, colour: colour)
        }
        return pixels.withUnsafeBytes { bytes in
            let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let f = frame.pointee
            return convert(
                source: (
                    [UnsafePointer(base), nil, nil, nil], [Int32(pixels.bytesPerRow), 0, 0, 0],
                    Int32(pixels.width), Int32(pixels.height), AV_PIX_FMT_BGRA
                ),
                sourceColour: ColourDetails(matrix: colour.matrix, fullRange: true),
                destination: (
                    [f.data.0, f.data.1, f.data.2, f.data.3],
                    [f.linesize.0, f.linesize.1, f.linesize.2, f.linesize.3],
                    f.width, f.height, AVPixelFormat(f.format)
                ),
                destinationColour: colour)
        }
    }

    /// `convert(_:into:colour:)` on swscale's slice threads: `sws_scale_frame` is the entry point
    /// that uses them (plain `sws_scale` runs on the calling thread whatever the option says).
    private func convertSliced(_ pixels: PixelBuffer, into frame: UnsafeMutablePointer<AVFrame>, colour: ColourDetails) -> Bool {
        let f = frame.pointee
        // FULL_CHR_H_INP reads chroma at full width with swscale's SIMD BGRA input code, then
        // filters it down; without it, swscale averages pixel pairs in plain C first. Same luma,
        // chroma within 1 dB, and the conversion takes about half the time (5.2 -> 2.8 ms a
        // 1170x2532 frame here).
        let flags: Int32 =
            ((Int(f.width) < pixels.width || Int(f.height) < pixels.height)
                ? Int32(SWS_AREA) : Int32(SWS_BILINEAR)) | Int32(SWS_FULL_CHR_H_INP)
        let key: [Int32] = [
            Int32(pixels.width), Int32(pixels.height), f.width, f.height, f.format, flags | extraFlags,
            colour.matrix, colour.fullRange ? 1 : 0,
        ]
        if threadedContext == nil || key != threadedKey {
            sws_freeContext(threadedContext)
            threadedContext = nil
            threadedKey = []
            guard let context = sws_alloc_context() else { return false }
            let raw = UnsafeMutableRawPointer(context)
            av_opt_set_int(raw, "srcw", Int64(pixels.width), 0)
            av_opt_set_int(raw, "srch", Int64(pixels.height), 0)
            av_opt_set_int(raw, "src_format", Int64(AV_PIX_FMT_BGRA.rawValue), 0)
            av_opt_set_int(raw, "dstw", Int64(f.width), 0)
            av_opt_set_int(raw, "dsth", Int64(f.height), 0)
            av_opt_set_int(raw, "dst_format", Int64(f.format), 0)
            av_opt_set_int(raw, "sws_flags", Int64(flags | extraFlags), 0)
            av_opt_set_int(raw, "threads", Int64(threads), 0)
            guard sws_init_context(context, nil, nil) >= 0 else {
                sws_freeContext(context)
                return false
            }
            // Applies to the slice contexts too.
            _ = sws_setColorspaceDetails(
                context, sws_getCoefficients(colour.matrix), 1, sws_getCoefficients(colour.matrix),
                colour.fullRange ? 1 : 0, 0, 1 << 16, 1 << 16)
            threadedContext = context
            threadedKey = key
        }
        if sourceFrame == nil { sourceFrame = av_frame_alloc() }
        guard let context = threadedContext, let source = sourceFrame else { return false }
        return pixels.withUnsafeBytes { bytes -> Bool in
            let base = UnsafeMutablePointer(mutating: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
            // Borrowed, read-only, never freed by FFmpeg: without a buffer, swscale would copy the frame.
            guard let borrowed = av_buffer_create(base, bytes.count, { _, _ in }, nil, Int32(AV_BUFFER_FLAG_READONLY)) else {
                return false
            }
            source.pointee.buf.0 = borrowed
            source.pointee.data.0 = base
            source.pointee.linesize.0 = Int32(pixels.bytesPerRow)
            source.pointee.width = Int32(pixels.width)
            source.pointee.height = Int32(pixels.height)
            source.pointee.format = AV_PIX_FMT_BGRA.rawValue
            let result = sws_scale_frame(context, frame, source)
            av_frame_unref(source)
            return result >= 0
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
                source: (
                    [UnsafePointer(f.data.0), UnsafePointer(f.data.1), UnsafePointer(f.data.2), UnsafePointer(f.data.3)],
                    [f.linesize.0, f.linesize.1, f.linesize.2, f.linesize.3],
                    f.width, f.height, format
                ),
                sourceColour: ColourDetails(matrix: matrix, fullRange: fullRange),
                destination: (
                    [base, nil, nil, nil], [Int32(buffer.bytesPerRow), 0, 0, 0],
                    f.width, f.height, AV_PIX_FMT_BGRA
                ),
                destinationColour: ColourDetails(matrix: SWS_CS_DEFAULT, fullRange: true))
        }
        return ok ? buffer : nil
    }
}
