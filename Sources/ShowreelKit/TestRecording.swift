import Foundation
import ShowreelDevice
import ShowreelRecorder
import ShowreelRender
import ShowreelReport
import ShowreelTesting
import ShowreelTrace

/// One test's video in the making: started before the test body, stopped after it. In-process
/// it encodes the device's own frames in the test process (no socket, no copy unless masked);
/// for an external device it reads the display stream; through a tunnel host it runs
/// `showreel io <udid> recordVideo` there, as the iOS workflow does.
final class TestRecording: Sendable {
    let video: URL
    private let stopper: Stopper
    /// The test's actions on an in-process device, traced for the report (see `ActionTrace`).
    let trace: StepTrace?

    struct StepTrace: Sendable {
        let device: Device
        let actions: ActionTrace
        /// The device time of the video's first frame: trace times count from there.
        let videoStart: Duration
    }

    private enum Stopper: Sendable {
        case subscription(DisplaySubscription, RecordingSession)
        case stream(DisplayStreamClient, RecordingSession, DispatchSemaphore)
        /// The recorder in the host's process writes in place, so it is given the partial name
        /// and the video takes its own name here once the recorder finished it.
        case host(HostRecording, StagedFile)
    }

    private init(video: URL, stopper: Stopper, trace: StepTrace?) {
        self.video = video
        self.stopper = stopper
        self.trace = trace
    }

    /// Starts recording `testDevice` into `video`; returns once the first frame is in.
    static func start(_ testDevice: TestDevice, to video: URL, configuration: RecordingConfiguration) async throws -> TestRecording {
        try FileManager.default.createDirectory(at: video.deletingLastPathComponent(), withIntermediateDirectories: true)
        let recording = try await startRecording(testDevice, to: video, configuration: configuration)
        guard let device = testDevice.device else { return recording }
        let actions = ActionTrace()
        await device.setActionTrace(actions)
        let start = recording.sessionStart ?? device.clock.now
        return TestRecording(video: video, stopper: recording.stopper,
                             trace: StepTrace(device: device, actions: actions, videoStart: start))
    }

    /// The device time of the first frame, when this process records.
    private var sessionStart: Duration? {
        switch stopper {
        case let .subscription(_, session), let .stream(_, session, _): session.startTime
        case .host: nil
        }
    }

    /// Stops tracing and returns what was traced, as the report's trace (with its pictures only
    /// when the video is kept, the only case where it is written).
    func endTrace(pictures: Bool) async -> RunTrace? {
        guard let trace else { return nil }
        await trace.device.setActionTrace(nil)
        return TraceExport.trace(of: trace.actions.entries, screen: trace.device.profile.pointSize, videoStart: trace.videoStart,
                                 pictures: pictures)
    }

    private static func startRecording(_ testDevice: TestDevice, to video: URL, configuration: RecordingConfiguration) async throws -> TestRecording {
        switch configuration.transport {
        case .inProcess:
            if let device = testDevice.device {
                let mask = configuration.masksScreenShape ? ScreenMask(profile: device.profile) : nil
                let session = try RecordingSession(url: video, info: device.display.info, options: configuration.recordingOptions,
                                                   mask: mask, framesAreShared: true, spoolLimit: configuration.spoolLimit)
                return TestRecording(video: video, stopper: .subscription(device.display.subscribe(session), session), trace: nil)
            }
            let record = try testDevice.registry.resolve(testDevice.udid)
            let stream = try DisplayStreamClient(socketPath: record.displaySocket)
            let mask = configuration.masksScreenShape ? ScreenMask(profile: stream.info.profile) : nil
            let session = try RecordingSession(url: video, info: stream.info, options: configuration.recordingOptions, mask: mask,
                                               spoolLimit: configuration.spoolLimit)
            let done = DispatchSemaphore(value: 0)
            let reader = Thread {
                try? session.consume(stream)
                done.signal()
            }
            reader.name = "showreel.test-recording"
            reader.start()
            return TestRecording(video: video, stopper: .stream(stream, session, done), trace: nil)
        case let .tunnelHost(url, token):
            let staging = StagedFile(video)
            let argv = [try ShowreelBinary.path(), "io", testDevice.udid, "recordVideo", "--codec=\(configuration.codec.rawValue)",
                        "--mask=\(configuration.masksScreenShape ? "black" : "ignored")", "--scale=\(configuration.scale)",
                        "--force", staging.partial.path]
            let host = TunnelHostClient(baseURL: url, token: token)
            let recording = try await HostRecording.start(host: host, argv: argv,
                                                          environment: ["SHOWREEL_HOME": testDevice.registry.home.path])
            return TestRecording(video: video, stopper: .host(recording, staging), trace: nil)
        }
    }

    /// Ends a recording whose video will not be kept: in this process (a subscription or a
    /// display stream), without encoding what waits (a deferred recording never wrote a file);
    /// through a tunnel host, by stopping it as usual and removing the file. Returns the
    /// seconds of device time the recording spanned.
    func discard() async -> Double {
        switch stopper {
        case let .subscription(subscription, session):
            subscription.stop()
            return (try? await Blocking.run { session.discard().seconds }) ?? 0
        case let .stream(stream, session, done):
            try? stream.requestStop()
            return (try? await Blocking.run {
                _ = done.wait(timeout: .now() + 30)
                stream.close()
                return session.discard().seconds
            }) ?? 0
        case let .host(recording, staging):
            defer { staging.abandon() }
            try? await recording.stop()
            return (try? MediaProbe.probe(staging.partial).duration) ?? 0
        }
    }

    /// Ends the recording and waits until the file is complete, with `steps` as its chapters and
    /// subtitles when this process writes it; returns the video's duration in seconds (read back
    /// from the file when another process wrote it).
    func stop(steps: [StepMark] = []) async throws -> Double {
        switch stopper {
        case let .subscription(subscription, session):
            subscription.stop()
            return try await Blocking.run { try session.finish(steps: steps).duration.seconds }
        case let .stream(stream, session, done):
            try? stream.requestStop()
            return try await Blocking.run {
                _ = done.wait(timeout: .now() + 30)
                stream.close()
                return try session.finish(steps: steps).duration.seconds
            }
        case let .host(recording, staging):
            try await recording.stop()
            try staging.commit()
            return try MediaProbe.probe(video).duration
        }
    }
}

/// Runs blocking work (finalising a video waits for its encoder thread) on a thread of its
/// own, not on the few threads Swift's concurrency pool shares between parallel tests.
enum Blocking {
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.name = "showreel.finalise"
            thread.start()
        }
    }
}

/// Where the `showreel` executable is, for a recorder launched through a tunnel host.
enum ShowreelBinary {
    static func path(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        if let path = environment["SHOWREEL_BIN"], !path.isEmpty { return path }
        // `swift build` puts it beside the test bundle.
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let beside = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("showreel").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        for folder in (environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(folder)/showreel"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw ShowreelKitError("Recording through a tunnel host needs the showreel executable: build it with "
            + "`swift build --product showreel`, or set SHOWREEL_BIN to its path.")
    }
}
