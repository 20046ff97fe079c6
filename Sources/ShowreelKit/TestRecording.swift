import Foundation
import Logging
import ShowreelDevice
import ShowreelRecorder
import ShowreelRender
import ShowreelReport
import ShowreelSession
import ShowreelTesting
import ShowreelTrace

/// One test's video in the making: started before the test body, stopped after it. In-process
/// it encodes the device's own frames in the test process (no socket, no copy unless masked);
/// for an external device it reads the display stream; through a tunnel host it runs
/// `showreel io <udid> recordVideo` there, as the iOS workflow does.
final class TestRecording: Sendable {
    let video: URL
    private let stopper: Stopper

    private enum Stopper: Sendable {
        /// An in-process device, its actions traced for the report (`RecordedSession`), or an
        /// external device's display stream, its actions traced in its own process (`StreamedSession`).
        case session(any SessionVideo)
        /// The recorder in the host's process writes in place, so it is given the partial name
        /// and the video takes its own name here once the recorder finished it (this process
        /// claims the partial file meanwhile, so that no cleaning takes it for a killed
        /// writer's once the recorder has exited). The device traces its actions wherever it runs.
        /// `discardStream` ends the recorder's display stream as discarded (a device in this
        /// process), so that a video not kept is never encoded.
        case host(HostRecording, StagedFile, WriterLock?, DeviceTrace?, discardStream: (@Sendable () -> Bool)?)
    }

    private static let logger = Logger(label: "showreel.kit.recording")

    private init(video: URL, stopper: Stopper) {
        self.video = video
        self.stopper = stopper
    }

    /// Starts recording `testDevice` into `video`; returns once the first frame is in.
    static func start(_ testDevice: TestDevice, to video: URL, configuration: RecordingConfiguration) async throws -> TestRecording {
        try FileManager.default.createDirectory(at: video.deletingLastPathComponent(), withIntermediateDirectories: true)
        switch configuration.transport {
        case .inProcess:
            if let device = testDevice.device {
                let mask = configuration.masksScreenShape ? ScreenMask(profile: device.profile) : nil
                // A video that waits for the test's outcome may be dropped with its trace.
                let session = try await RecordedSession(
                    device: device, video: video, options: configuration.recordingOptions, mask: mask,
                    spoolLimit: configuration.spoolLimit, traceIsKept: configuration.policy == .on)
                return TestRecording(video: video, stopper: .session(session))
            }
            let record = try testDevice.registry.resolve(testDevice.udid)
            let session = try await StreamedSession(
                displaySocket: record.displaySocket, client: testDevice.client, video: video, options: configuration.recordingOptions,
                masksScreenShape: configuration.masksScreenShape, spoolLimit: configuration.spoolLimit, logger: Self.logger)
            return TestRecording(video: video, stopper: .session(session))
        case let .tunnelHost(url, token):
            let staging = StagedFile(video)
            // The recorder there keeps to the same options as one here: its size, its thread,
            // its frame rate.
            let options = configuration.recordingOptions
            // A device in this process can end the recorder's stream as discarded, so a video
            // that waits for the test's outcome is not encoded until it is known. One elsewhere
            // cannot: its recorder encodes as it goes, not all at once when it is stopped.
            let device = testDevice.device
            let spool = device == nil ? nil : configuration.spoolLimit
            let argv =
                [
                    ShowreelBinary.path(), "io", testDevice.udid, "recordVideo", "--codec=\(configuration.codec.rawValue)",
                    "--mask=\(configuration.masksScreenShape ? "black" : "ignored")", "--scale=\(options.scale)",
                    "--threads=\(options.threads)",
                ] + (options.maximumFrameRate.map { ["--max-frame-rate=\($0)"] } ?? [])
                + (spool.map { ["--spool=\(max(1, $0 >> 20))"] } ?? []) + ["--force", staging.partial.path]
            let host = TunnelHostClient(baseURL: url, token: token)
            let recording = try await HostRecording.start(
                host: host, argv: argv,
                environment: ["SHOWREEL_HOME": testDevice.registry.home.path])
            let claim = WriterLock(staging.partial, creating: false)
            // The recorder that just said it started is the display's latest subscriber.
            let discardStream = device.flatMap { device in
                device.display.latestRecorder.map { stream in { @Sendable in device.display.discardStream(of: stream.id) } }
            }
            return TestRecording(
                video: video,
                stopper: .host(recording, staging, claim, await startTrace(testDevice), discardStream: discardStream))
        }
    }

    /// Starts this recording's trace of the test's device (in this process or its own; other
    /// recordings of the device get theirs): the recording goes on without a trace when it
    /// cannot (a recording that owns the device traces it, or it is a device whose automation
    /// API has no trace routes), and says so in the log.
    private static func startTrace(_ testDevice: TestDevice) async -> DeviceTrace? {
        do {
            if let device = testDevice.device { return try await DeviceTrace.start(device) }
            return try await DeviceTrace.start(testDevice.client)
        } catch {
            logger.warning(
                "the test's steps are not traced: \(ErrorSentence.describe(error))", metadata: ["device": "\(testDevice.udid)"])
            return nil
        }
    }

    /// Stops tracing and returns what was traced, as the report's trace (with its pictures and
    /// element trees only when the video is `kept`, the only case where it is written); nil when
    /// nothing was traced.
    func endTrace(kept: Bool) async -> RunTrace? {
        switch stopper {
        // Times from the device time of the video's first frame: exact.
        case let .session(session): return await session.endTrace(kept: kept)
        case let .host(_, _, _, deviceTrace, _):
            // The host's recorder writes the file (which keeps only times from its own start),
            // so the video's first frame is known from the device: the first frame its display
            // stream sent to the recorder that connected last, when tracing started just after
            // this recorder said "Recording started". That is exact unless another recorder
            // connected to the same device in between. Without one (a device that does not say),
            // tracing's own start stands in: exact on a virtual clock (no time passes between),
            // late on a real one by the HTTP round trip that learns the recorder started, and the next.
            guard let trace = deviceTrace else { return nil }
            do { return try await trace.end(videoStart: trace.recordingStart ?? trace.started, pictures: kept) } catch {
                Self.logger.warning("the test's step trace could not be collected: \(ErrorSentence.describe(error))")
                return nil
            }
        }
    }

    /// Ends a recording whose video will not be kept: in this process (a subscription or a
    /// display stream), without encoding what waits (a deferred recording never wrote a file);
    /// through a tunnel host, by ending its display stream as discarded (the recorder writes
    /// nothing) when the device is in this process, else by stopping it as usual and removing
    /// the file. Returns the seconds of device time the recording spanned.
    func discard() async -> Double {
        switch stopper {
        case let .session(session):
            return await session.discard()
        case let .host(recording, staging, claim, _, discardStream):
            defer {
                staging.abandon()
                claim?.release()
            }
            if let discardStream, discardStream() {
                // Nil: a recorder that predates discarding finished its file instead.
                do { if let seconds = try await recording.discarded() { return seconds } } catch { try? await recording.stop() }
            } else {
                try? await recording.stop()
            }
            return (try? MediaProbe.probe(staging.partial).duration) ?? 0
        }
    }

    /// Ends the recording and waits until the file is complete, with `steps` as its chapters and
    /// subtitles when this process writes it, `trace` beside it and its preview; returns the
    /// video's duration (read back from the file when another process wrote it).
    func stop(steps: [StepMark] = [], trace: TraceFile?, preview: Bool) async throws -> RecordedSession.Outcome {
        switch stopper {
        case let .session(session): return try await session.finish(steps: steps, trace: trace, preview: preview)
        case let .host(recording, staging, claim, _, _):
            // The host's recorder wrote the file: its duration is read back from it.
            try await recording.stop()
            try staging.commit()
            claim?.release()
            let video = self.video
            let duration = try MediaProbe.probe(video).duration
            await trace?.write(besideVideo: video, logger: Self.logger)
            let made = preview ? try? await Blocking.run { AnimatedPreview.make(for: video) } : nil
            return RecordedSession.Outcome(duration: duration, preview: made ?? nil)
        }
    }
}

/// Where the `showreel` executable is, for a recorder launched through a tunnel host: beside
/// the tests, on PATH, or else the bare name `showreel`, which the host finds on its own PATH or
/// runs as itself (a host started by a package's own executable is one).
enum ShowreelBinary {
    static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let path = environment["SHOWREEL_BIN"], !path.isEmpty { return path }
        // `swift build` puts it beside the test bundle.
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let beside = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("showreel").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        for folder in (environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(folder)/showreel"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return "showreel"
    }
}
