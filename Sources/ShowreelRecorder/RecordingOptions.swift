import Foundation

/// The video codecs the recorder can encode.
public enum VideoCodec: String, Sendable, CaseIterable {
    case h264, hevc

    /// The libavcodec encoder used for this codec.
    package var encoderName: String {
        switch self {
        case .h264: "libx264"
        case .hevc: "libx265"
        }
    }

    /// The Debian package that provides the encoder library libavcodec links against.
    package var debianPackage: String {
        switch self {
        case .h264: "libx264-164"
        case .hevc: "libx265-199"
        }
    }

    /// How `RecordingOptions.quality` steers the encoder: the encoder option it sets.
    ///
    /// H.264 takes a constant quantizer (x264's `qp`), not a constant rate factor: to steer a
    /// rate factor x264 shrinks every picture to a quarter and searches it for motion, a tenth
    /// of a recorded flow's CPU, while a constant quantizer needs none of that. On the sample
    /// flows quantizer 20 is about as good as rate factor 23 (PSNR against a lossless recording
    /// 52.3 dB against 53.3 at worst, 51.7 against 47.9 at best) in files 2% larger. x265 keeps
    /// its rate factor.
    package var qualityOption: String {
        switch self {
        case .h264: "qp"
        case .hevc: "crf"
        }
    }

    /// The default `quality`: see `qualityOption`.
    package var defaultQuality: Int {
        switch self {
        case .h264: 20
        case .hevc: 28
        }
    }

    /// The presets both x264 and x265 accept, fastest first.
    package static let presets = [
        "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo",
    ]
}

/// The file containers the recorder can write.
public enum VideoContainer: String, Sendable, CaseIterable {
    case mov, mp4

    /// The container for a file name's extension (`.mov` or `.mp4`, any case).
    package init(fileURL: URL) throws(RecorderError) {
        let ext = fileURL.pathExtension.lowercased()
        guard let container = VideoContainer(rawValue: ext) else {
            throw .unsupportedContainer(file: fileURL.path, extension: fileURL.pathExtension)
        }
        self = container
    }

    /// The libavformat muxer name.
    package var muxerName: String { rawValue }

    package var fileExtension: String { rawValue }
}

/// How a recording is encoded.
package struct RecordingOptions: Sendable, Equatable {
    package var codec: VideoCodec
    /// Fragmented MP4/MOV survives a killed recorder; `nil` picks the container's default
    /// (fragmented for `.mp4`, a classic single `moov` for `.mov`).
    package var fragmented: Bool?
    /// 0 (lossless) ... 51 (worst): H.264's constant quantizer, HEVC's constant rate factor
    /// (`VideoCodec.qualityOption`); `nil` uses the codec's default.
    package var quality: Int?
    /// The x264/x265 speed preset (see `VideoCodec.presets`).
    package var preset: String
    /// Output size relative to the screen (0.5 halves width and height); sizes are rounded to even numbers.
    package var scale: Double
    /// The longest time between keyframes; bounds what a killed recorder loses and how far a player seeks.
    package var keyframeInterval: Duration
    /// A libavcodec encoder to use instead of the codec's default (`libx264`/`libx265`),
    /// e.g. `h264_vaapi` or `libopenh264`; nil uses the default.
    package var encoder: String?
    /// Threads the encoder and the colour conversion may use: 0 = one per core (lowest latency
    /// for one recording; a picture is converted while the one before is encoded), 1 = all
    /// work on the recorder's own thread (for several recordings at once, as parallel tests
    /// make: each then leaves the other cores to the devices).
    package var threads: Int
    /// At most this many frames a second, the newest of each refresh (1/rate) kept, as a
    /// display of that rate would show them; nil encodes every frame.
    package var maximumFrameRate: Double?
    /// The maximum frame rates a recording takes, in frames a second.
    package static let maximumFrameRates = 1.0...240.0

    /// The libavcodec encoder this recording uses.
    package var encoderName: String { encoder ?? codec.encoderName }

    package init(
        codec: VideoCodec = .h264,
        fragmented: Bool? = nil,
        quality: Int? = nil,
        preset: String = "ultrafast",
        scale: Double = 1.0,
        keyframeInterval: Duration = .seconds(1),
        encoder: String? = nil,
        threads: Int = 0,
        maximumFrameRate: Double? = nil
    ) {
        self.maximumFrameRate = maximumFrameRate
        self.encoder = encoder
        self.threads = threads
        self.codec = codec
        self.fragmented = fragmented
        self.quality = quality
        self.preset = preset
        self.scale = scale
        self.keyframeInterval = keyframeInterval
    }

    /// Whether output to `container` is fragmented once the default is applied.
    package func isFragmented(in container: VideoContainer) -> Bool {
        fragmented ?? (container == .mp4)
    }

    /// The quantizer (H.264) or rate factor (HEVC) actually used.
    package var effectiveQuality: Int { quality ?? codec.defaultQuality }

    /// The encoded size for a screen of `width` x `height`: scaled, rounded to even numbers, at least 2x2.
    package func outputSize(width: Int, height: Int) -> (width: Int, height: Int) {
        func even(_ value: Int) -> Int {
            let scaled = (Double(value) * scale / 2).rounded()
            return max(2, Int(scaled) * 2)
        }
        return (even(width), even(height))
    }

    /// Every option in range, or `RecorderError.invalidOption` saying which is not and what to use.
    package func validate() throws(RecorderError) {
        guard scale.isFinite, scale > 0, scale <= 8 else {
            throw .invalidOption("scale \(scale) is out of range: use a number above 0 and at most 8 (1 keeps the screen size)")
        }
        if let maximumFrameRate, !Self.maximumFrameRates.contains(maximumFrameRate) {
            throw .invalidOption(
                "maximum frame rate \(maximumFrameRate) is out of range: use 1 to 240 frames a second, or none to keep every frame")
        }
        guard (0...64).contains(threads) else {
            throw .invalidOption("threads \(threads) is out of range: use 0 (one per core), 1 (the recorder's thread only) or up to 64")
        }
        if let quality, !(0...51).contains(quality) {
            throw .invalidOption("quality \(quality) is out of range: use 0 (lossless) to 51 (smallest)")
        }
        guard VideoCodec.presets.contains(preset) else {
            throw .invalidOption("preset '\(preset)' is unknown: use one of \(VideoCodec.presets.joined(separator: ", "))")
        }
        guard keyframeInterval >= .zero else {
            throw .invalidOption("keyframe interval \(keyframeInterval) is negative: use 0 (every frame) or more")
        }
    }
}

/// What a finished recording contains.
package struct RecordingSummary: Sendable, Equatable {
    package var url: URL
    package var codec: VideoCodec
    package var container: VideoContainer
    package var fragmented: Bool
    package var width: Int
    package var height: Int
    /// Frames written to the file.
    package var framesEncoded: Int
    /// Frames received but not written (queue overflow or timestamps that went backwards).
    package var framesDropped: Int
    /// Frames written twice: the held frame encoded again while the screen was idle, so a
    /// killed recorder's file reaches (almost) the moment it was killed.
    package var framesRepeated: Int = 0
    /// Frames not written because a newer one came within the same refresh (`maximumFrameRate`).
    package var framesSuperseded: Int = 0
    /// From the first frame to the stop time.
    package var duration: Duration
    package var fileSize: Int64
    /// The animated preview beside the video, when finishing made one (see `RecordingSession.finish`).
    package var preview: URL? = nil
}
