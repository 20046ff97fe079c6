import Foundation

/// Everything that can go wrong while recording, probing or encoding images; each description
/// says what was wrong and what to do, so it can be shown to a user as it is.
package enum RecorderError: Error, CustomStringConvertible, Equatable, Sendable {
    case unsupportedContainer(file: String, extension: String)
    case unsupportedImageFormat(file: String, extension: String)
    case invalidDimensions(width: Int, height: Int)
    case invalidOption(String)
    case encoderUnavailable(codec: VideoCodec, encoder: String, package: String)
    case encoderOpenFailed(encoder: String, message: String)
    case cannotCreateFile(file: String, message: String)
    case muxerFailed(file: String, step: String, message: String)
    case writeFailed(file: String, message: String)
    case encodeFailed(file: String, message: String)
    case alreadyFinished(file: String)
    case noFrames(file: String)
    case cannotOpenMedia(file: String, message: String)
    /// A FIFO, a folder, a socket or a device where a media file was to be read.
    case notARegularFile(file: String, kind: String)
    case noVideoStream(file: String)
    case decoderUnavailable(file: String, codec: String)
    case imageEncodingFailed(format: String, message: String)
    case outOfMemory(String)

    package var description: String {
        switch self {
        case let .unsupportedContainer(file, ext):
            let shown = ext.isEmpty ? "no extension" : "the extension '.\(ext)'"
            return "Cannot record to \(file): \(shown) is not a supported video container. Use a file name ending in .mov or .mp4."
        case let .unsupportedImageFormat(file, ext):
            let shown = ext.isEmpty ? "no extension" : "the extension '.\(ext)'"
            return
                "Cannot save an image to \(file): \(shown) is not a supported image format. Use a file name ending in .png, .jpg or .jpeg."
        case let .invalidDimensions(width, height):
            return "Cannot record a \(width)x\(height) screen: width and height must be positive."
        case let .invalidOption(message):
            return "Invalid recording option: \(message)."
        case let .encoderUnavailable(codec, encoder, package):
            return "The \(encoder) encoder needed for \(codec.rawValue.uppercased()) is not in this FFmpeg build (libavcodec). "
                + "On Debian install \(package) with the distribution's libavcodec (apt-get install \(package) libavcodec59), "
                + "or record with another codec."
        case let .encoderOpenFailed(encoder, message):
            return "Could not start the \(encoder) encoder: \(message). Check the quality, preset and size options."
        case let .cannotCreateFile(file, message):
            return "Cannot create the video file \(file): \(message). Check that the folder exists and is writable."
        case let .muxerFailed(file, step, message):
            return "Could not \(step) for \(file): \(message)."
        case let .writeFailed(file, message):
            return "Writing the video file \(file) failed: \(message). The recording is incomplete; "
                + "free some disk space or record to another location."
        case let .encodeFailed(file, message):
            return "Encoding a frame for \(file) failed: \(message). The recording is incomplete."
        case let .alreadyFinished(file):
            return "The recording to \(file) is already finished; start a new recorder to record again."
        case let .noFrames(file):
            return "The recording to \(file) received no frames, so the video is empty. "
                + "Check that the display stream is sending frames before stopping the recorder."
        case let .cannotOpenMedia(file, message):
            return "Cannot open \(file) as a media file: \(message). Check the path and that the file is a video or image."
        case let .notARegularFile(file, kind):
            return "\(file) is \(kind), not a regular file: name a video or sound file (reading from a pipe is not supported)."
        case let .noVideoStream(file):
            return "\(file) has no video stream to read."
        case let .decoderUnavailable(file, codec):
            return "Cannot decode \(file): this FFmpeg build has no decoder for \(codec)."
        case let .imageEncodingFailed(format, message):
            return "Could not encode the \(format) image: \(message)."
        case let .outOfMemory(what):
            return "Out of memory while allocating \(what)."
        }
    }
}
