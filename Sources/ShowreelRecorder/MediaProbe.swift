import CFFmpeg
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a video (or image) file holds, as libavformat reads it.
package struct MediaInfo: Sendable, Equatable {
    /// The video codec's FFmpeg name: "h264", "hevc", "png", "mjpeg"...
    package var codecName: String
    package var width: Int
    package var height: Int
    /// The container's duration in seconds (0 when the container does not know it).
    package var duration: Double
    /// The video stream's own duration in seconds, when the container records one.
    package var streamDuration: Double?
    /// Video packets (frames) actually present and readable.
    package var frameCount: Int
    /// Presentation times of those frames in seconds, in presentation order.
    package var frameTimestamps: [Double]
    /// Presentation times of the keyframes in seconds.
    package var keyframeTimestamps: [Double]
    /// The demuxer's name, e.g. "mov,mp4,m4a,3gp,3g2,mj2".
    package var containerFormat: String
    /// False when reading stopped at damaged or missing data (a truncated file).
    package var readToEnd: Bool
}

/// Reads a media file's streams and packets without decoding them.
package enum MediaProbe {
    /// Opens `url` with libavformat and reads every packet of its first video stream.
    /// Works on a truncated fragmented file (what a killed recorder leaves): it reports the
    /// frames that are present.
    package static func probe(_ url: URL) throws(RecorderError) -> MediaInfo {
        let input = try MediaInput(url: url)
        let stream = input.stream
        let parameters = stream.pointee.codecpar.pointee
        let timeBase = av_q2d(stream.pointee.time_base)
        let nopts = showreel_nopts_value()

        var timestamps: [Double] = []
        var keyframes: [Double] = []
        var lastEnd: Double = 0
        guard let packet = av_packet_alloc() else { throw .outOfMemory("a packet") }
        var packetPointer: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&packetPointer) }
        var readToEnd = true
        while true {
            let result = av_read_frame(input.format, packet)
            if result < 0 {
                readToEnd = result == showreel_averror_eof()
                break
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream.pointee.index else { continue }
            let raw = packet.pointee.pts != nopts ? packet.pointee.pts : packet.pointee.dts
            let time = raw == nopts ? Double(timestamps.count) : Double(raw) * timeBase
            timestamps.append(time)
            if packet.pointee.flags & AV_PKT_FLAG_KEY != 0 { keyframes.append(time) }
            lastEnd = max(lastEnd, time + Double(packet.pointee.duration) * timeBase)
        }
        timestamps.sort()
        keyframes.sort()

        let format = input.format.pointee
        var duration: Double
        if format.duration != nopts, format.duration > 0 {
            duration = Double(format.duration) / Double(AV_TIME_BASE)
        } else if stream.pointee.duration != nopts, stream.pointee.duration > 0 {
            duration = Double(stream.pointee.duration) * timeBase
        } else {
            duration = lastEnd
        }
        if duration.isNaN { duration = 0 }
        let streamDuration =
            stream.pointee.duration != nopts && stream.pointee.duration > 0
            ? Double(stream.pointee.duration) * timeBase : nil

        return MediaInfo(
            codecName: String(cString: avcodec_get_name(parameters.codec_id)),
            width: Int(parameters.width),
            height: Int(parameters.height),
            duration: duration,
            streamDuration: streamDuration,
            frameCount: timestamps.count,
            frameTimestamps: timestamps,
            keyframeTimestamps: keyframes,
            containerFormat: format.iformat.map { String(cString: $0.pointee.name) } ?? "",
            readToEnd: readToEnd)
    }
}

/// An opened input file and its best video stream.
final class MediaInput {
    let url: URL
    private(set) var format: UnsafeMutablePointer<AVFormatContext>
    let stream: UnsafeMutablePointer<AVStream>

    /// `probing`: FFmpeg decodes the first packets to learn what the container does not say
    /// (`avformat_find_stream_info`). A file this recorder wrote says all that copying its
    /// packets needs, and probing it took most of the time of copying it.
    init(url: URL, probing: Bool = true) throws(RecorderError) {
        installFFmpegLogging()
        self.url = url
        let path = url.path
        let context = try Self.open(path)
        format = context
        let result = probing ? avformat_find_stream_info(context, nil) : 0
        if result < 0 {
            var owned: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&owned)
            throw .cannotOpenMedia(file: path, message: ffmpegErrorMessage(result))
        }
        let index = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard index >= 0, let streams = context.pointee.streams, let stream = streams[Int(index)] else {
            var owned: UnsafeMutablePointer<AVFormatContext>? = context
            avformat_close_input(&owned)
            throw .noVideoStream(file: path)
        }
        self.stream = stream
    }

    deinit {
        var owned: UnsafeMutablePointer<AVFormatContext>? = format
        avformat_close_input(&owned)
    }

    /// Opens `path` for reading with libavformat, once it is known to be a regular file (symbolic
    /// links followed): FFmpeg opens whatever it is given, and a FIFO with no writer would block
    /// the open, and the command, forever. A missing file is left to FFmpeg's own error.
    static func open(_ path: String) throws(RecorderError) -> UnsafeMutablePointer<AVFormatContext> {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            throw .notARegularFile(file: path, kind: Self.kind(of: info.st_mode))
        }
        var context: UnsafeMutablePointer<AVFormatContext>?
        let result = avformat_open_input(&context, path, nil, nil)
        guard result >= 0, let context else { throw .cannotOpenMedia(file: path, message: ffmpegErrorMessage(result)) }
        return context
    }

    /// What a file that is not a regular one is, in words.
    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFDIR: "a folder"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "not a regular file"
        }
    }
}
