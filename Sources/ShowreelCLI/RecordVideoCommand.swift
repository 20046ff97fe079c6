import ArgumentParser
import Foundation
import ShowreelRecorder
import ShowreelRender
import ShowreelWire
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `showreel io <device> recordVideo`: subscribe to a device's display stream and encode it
/// until SIGINT or SIGTERM, like `xcrun simctl io booted recordVideo`.
struct RecordVideoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recordVideo",
        abstract: "Record the device's screen to a .mov or .mp4 file until interrupted (SIGINT or SIGTERM).",
        usage:
            "showreel io <udid|booted> recordVideo [--codec=h264|hevc] [--mask=ignored|alpha|black] [--force] [options] <file.mov|file.mp4>"
    )

    var device = "booted"

    @Option(help: "Video codec: h264 or hevc.")
    var codec: String = "h264"

    @Option(help: "How to treat pixels outside the screen shape: ignored, alpha (black without alpha support), black.")
    var mask: MaskPolicy = .ignored

    @Flag(help: "Overwrite the output file if it exists.")
    var force = false

    @Flag(inversion: .prefixedNo, help: "Fragmented output that survives a killed recorder (default: on for .mp4, off for .mov).")
    var fragmented: Bool?

    @Option(
        help: "0 (lossless) to 51 (smallest): the constant quantizer for h264 (default 20), the constant rate factor for hevc (default 28)."
    )
    var quality: Int?

    @Option(help: "Encoder speed preset (ultrafast ... veryslow).")
    var preset: String = "ultrafast"

    @Option(help: "Scale the video relative to the screen's pixels, e.g. 0.5.")
    var scale: Double = 1

    @Option(name: .customLong("keyframe-interval"), help: "Longest time between keyframes, in seconds: what a killed recorder can lose.")
    var keyframeInterval: Double = 1

    @Option(help: "A libavcodec encoder to use instead of libx264/libx265 (e.g. h264_vaapi, libopenh264).")
    var encoder: String?

    @Option(
        name: .customLong("max-frame-rate"),
        help: "At most this many frames a second (1 to 240): of the frames within one refresh the newest is kept (default: every frame).")
    var maxFrameRate: Double?

    @Option(help: "Threads the encoder may use: 0 = one per core, 1 = the recorder's own thread (for several recordings at once).")
    var threads: Int = 0

    @Option(
        help: ArgumentHelp(
            "Keep up to this many MiB of frames in memory, unencoded, until the recording ends (1 to 4096; a device on a virtual clock only).",
            discussion:
                "A video that may be dropped (a passing test's) then costs no encoding: when whoever drives the device ends the stream as discarded, nothing is written. Stopped as usual, the frames are encoded then; past the limit, as they come. A recorder killed before it finished loses them."
        ))
    var spool: Int?

    @Argument(help: "The output file: .mov (QuickTime, like simctl) or .mp4.")
    var file: String

    /// Options out of range are usage errors (exit 64), found before anything connects; a
    /// number that cannot become a duration never reaches one.
    func validate() throws {
        if let problem = Self.keyframeIntervalLimit.problem(with: keyframeInterval) {
            throw ValidationError("--keyframe-interval \(problem)")
        }
        // Checked here too, to name the option (the options' own check says "maximum frame rate").
        if let maxFrameRate, !RecordingOptions.maximumFrameRates.contains(maxFrameRate) {
            throw ValidationError(
                "--max-frame-rate \(maxFrameRate) is out of range: use 1 to 240 frames a second, or leave it out to keep every frame")
        }
        if let spool, !(1...4096).contains(spool) {
            throw ValidationError("--spool \(spool) is out of range: use 1 to 4096 MiB, or leave it out to encode frames as they come")
        }
        do { try recordingOptions(codec: .h264).validate() } catch {
            throw ValidationError(error.description)
        }
    }

    /// A keyframe at least every hour: longer only risks more of a killed recording.
    private static let keyframeIntervalLimit = SecondsLimit(max: 3600)

    private func recordingOptions(codec: VideoCodec) -> RecordingOptions {
        RecordingOptions(
            codec: codec, fragmented: fragmented, quality: quality, preset: preset,
            scale: scale, keyframeInterval: .milliseconds(Int64((keyframeInterval * 1000).rounded())),
            encoder: encoder, threads: threads, maximumFrameRate: maxFrameRate)
    }

    func run() async throws {
        try await reportingFailures { try record() }
    }

    private func record() throws {
        // Signals are trapped before anything else: a SIGINT that arrives while the stream is
        // still connecting stops the recording as soon as it starts, instead of killing us.
        let stop = StopRequest()
        let trap = SignalTrap { _ in stop.request() }
        defer { trap.cancel() }
        // A file-size limit (ulimit -f) must be a write error we report, not a silent death.
        signal(SIGXFSZ, SIG_IGN)
        let url = URL(fileURLWithPath: file)
        guard let videoCodec = VideoCodec(rawValue: codec.lowercased()) else {
            throw CLIFailure(message: "Unknown codec '\(codec)'. Use h264 or hevc.", exitCode: CLIFailure.Code.usage)
        }
        do { _ = try VideoContainer(fileURL: url) } catch {
            throw CLIFailure(message: error.description, exitCode: CLIFailure.Code.usage)
        }
        if FileManager.default.fileExists(atPath: url.path), !force {
            throw CLIFailure(
                message: "\(file) already exists. Pass --force to overwrite it, or choose another name.",
                exitCode: CLIFailure.Code.fileExists)
        }
        let source = try openFrameSource(device)
        defer { source.close() }
        // An X display is a plain rectangle: there is no screen shape to mask.
        let masks = mask != .ignored && !(source is X11Source)
        if mask != .ignored, !masks {
            Console.warning("\(source.name) is a plain rectangle with no screen shape: --mask=\(mask.rawValue) has no effect.")
        } else if mask == .alpha {
            Console.warning("\(videoCodec.rawValue) has no alpha channel; --mask=alpha is rendered black, as simctl does.")
        }
        let screenMask = masks ? ScreenMask(profile: source.info.profile) : nil
        let options = recordingOptions(codec: videoCodec)

        stop.attach(source)
        // A write error (a full disk) ends the recording at once: the file keeps what was written.
        let session = try openSession(
            url: url, info: source.info, mask: screenMask, options: options, spoolLimit: spool.map { $0 << 20 },
            onFailure: { _ in stop.request() })
        do { try source.feed(session) { Console.status(DisplayStream.recordingStartedLine) } } catch {
            Console.warning("the display stream failed (\(ErrorSentence.describe(error))); finalising what was captured.")
        }
        if session.endReason == .discarded {
            // Whoever drives the device dropped the video: nothing is encoded, no file is left.
            let spanned = session.discard()
            Console.status(String(format: "%@: %.3f s", DisplayStream.recordingDiscardedLine, spanned.seconds))
            return
        }
        let summary: RecordingSummary
        do { summary = try session.finish() } catch {
            if case .noFrames = error {
                // An empty video is no recording: the session left nothing behind that looks like one.
                if stop.isRequested {
                    // Asked to stop before the first frame came: that is what was asked, not a failure.
                    Console.status("Stopped before the first frame from \(source.name): nothing was recorded, and no file was written.")
                    return
                }
                throw CLIFailure(
                    message: "\(source.name) ended its display stream before the first frame; nothing was recorded.",
                    exitCode: CLIFailure.Code.streamFailed)
            }
            throw CLIFailure(message: error.description, exitCode: CLIFailure.Code.writeFailed)
        }
        switch session.endReason {
        case .deviceShutdown? where source is X11Source: break  // an error, once the file is reported
        case .deviceShutdown?: Console.warning("\(source.name) shut down during the recording; the video ends there.")
        case nil:
            let end = source.info.clock == .real ? "holds its last frame until the recorder noticed" : "ends at its last frame"
            Console.warning("\(source.name) went away without ending the stream; the video \(end).")
        case .stopRequested?, .discarded?: break
        }
        if summary.framesDropped > 0 {
            Console.status("Dropped \(summary.framesDropped) intermediate frames: the encoder fell behind.")
        }
        Console.status(
            String(
                format: "Wrote %@: %.3f s, %d frames, %@ %dx%d",
                summary.url.path, summary.duration.seconds, summary.framesEncoded,
                summary.codec.rawValue, summary.width, summary.height))
        if session.endReason == .deviceShutdown, source is X11Source {
            // Finalised, but not what was asked for: the caller must know the video is cut short.
            throw CLIFailure(
                message: "\(source.name) closed during the recording (the X server exited); the video ends there.",
                exitCode: CLIFailure.Code.streamFailed)
        }
    }

    private func openSession(
        url: URL, info: DisplayInfo, mask: ScreenMask?, options: RecordingOptions, spoolLimit: Int?,
        onFailure: @escaping @Sendable (RecorderError) -> Void
    ) throws -> RecordingSession {
        do {
            // In place: a killed recorder's fragmented file plays where the user asked for it.
            return try RecordingSession(
                url: url, info: info, options: options, mask: mask, spoolLimit: spoolLimit, staged: false, onFailure: onFailure)
        } catch {
            let code: Int32
            switch error {
            case .encoderUnavailable: code = CLIFailure.Code.encoderUnavailable
            case .cannotCreateFile: code = CLIFailure.Code.unwritable
            default: code = CLIFailure.Code.writeFailed
            }
            throw CLIFailure(message: error.description, exitCode: code)
        }
    }
}

/// The first SIGINT/SIGTERM asks the source for its stop time (now, or as soon as the
/// source is open); later signals are ignored so finalisation is never cut short.
final class StopRequest: @unchecked Sendable {
    private let state = Mutex<(requested: Bool, stream: FrameSource?)>((false, nil))

    func request() {
        let stream = state.withLock { state -> FrameSource? in
            guard !state.requested else { return nil }
            state.requested = true
            return state.stream
        }
        stream?.requestStop()
    }

    var isRequested: Bool { state.withLock { $0.requested } }

    func attach(_ stream: FrameSource) {
        let requested = state.withLock { state -> Bool in
            state.stream = stream
            return state.requested
        }
        if requested { stream.requestStop() }
    }
}
