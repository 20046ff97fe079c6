import Foundation
import ShowreelRecorder

/// When a test's video is kept.
public enum RecordingPolicy: String, Sendable, CaseIterable {
    /// Every test's video is kept.
    case on
    /// Videos are recorded and kept only for tests that fail (Playwright's `retain-on-failure`).
    case retainOnFailure
    /// Nothing is recorded.
    case off

    /// The policy in force: `SHOWREEL_RECORD=on|failures|off` overrides the code, so a CI job
    /// can record everything (or nothing) without touching the tests.
    public static func resolved(_ policy: RecordingPolicy, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws -> RecordingPolicy
    {
        guard let value = environment["SHOWREEL_RECORD"], !value.isEmpty else { return policy }
        switch value.lowercased() {
        case "on", "all", "always": return .on
        case "failures", "retain-on-failure", "retainonfailure": return .retainOnFailure
        case "off", "none", "never": return .off
        default: throw ShowreelKitError("SHOWREEL_RECORD=\(value) is not a recording policy: use on, failures or off.")
        }
    }
}

/// How tests are recorded: what `.recorded(...)` and `ShowreelTestCase.recordingConfiguration` say.
public struct RecordingConfiguration: Sendable {
    /// Who runs the recorder.
    public enum Transport: Sendable, Equatable {
        /// In the test process, straight off the device's frames (the fast path).
        case inProcess
        /// `showreel io <udid> recordVideo` launched through a tunnel host at this URL and
        /// interrupted in teardown: the iOS workflow, for a recorder that must run elsewhere.
        case tunnelHost(URL, token: String? = nil)
    }

    public var policy: RecordingPolicy
    public var codec: VideoCodec
    public var container: VideoContainer
    /// Paints pixels outside the screen's shape black (simctl's `--mask=black`).
    public var masksScreenShape: Bool
    /// Video size relative to the screen's pixels. Half size by default: a phone is 390x844,
    /// sharp enough to read, and a quarter of the pixels to encode.
    public var scale: Double
    /// How long the last screen is held at the end, so the end state is visible.
    public var tail: Duration
    /// At most this many frames a second: of the frames within one 1/30 s the newest is kept,
    /// as a screen recorder's 30 fps would show them (Playwright records tests at 25). Half the
    /// frames of an animation is half the work; 60 keeps every refresh of the display (a touch
    /// and the state it causes, at the same instant, still become one frame); nil keeps every
    /// frame.
    public var maximumFrameRate: Double?
    /// Under `.retainOnFailure`, the most memory (bytes) one test's frames may take while they
    /// wait, converted but not encoded, for the test's outcome: a passing test's video then
    /// costs no encoding at all, and a failing test's is encoded when the test ends. A test
    /// whose frames outgrow it is encoded as it runs from then on. Only what changed between
    /// frames is kept: 64 MiB holds about 130 whole frames of a 390x844 video (several seconds
    /// of full-screen animation), and far more of typing; 0 encodes as the test runs.
    /// While frames wait, nothing is on disk: a test process that crashes leaves no video.
    public var deferredEncodingLimit: Int
    public var transport: Transport
    /// Where videos go: `SHOWREEL_RECORDINGS`, else `Recordings` in the current directory.
    public var folder: URL

    public static var defaultFolder: URL {
        URL(fileURLWithPath: ProcessInfo.processInfo.environment["SHOWREEL_RECORDINGS"] ?? "Recordings", isDirectory: true)
            .standardizedFileURL
    }

    public init(
        _ policy: RecordingPolicy = .retainOnFailure, codec: VideoCodec = .h264, container: VideoContainer = .mov,
        masksScreenShape: Bool = true, scale: Double = 0.5, tail: Duration = .milliseconds(500),
        maximumFrameRate: Double? = 30, deferredEncodingLimit: Int = 64 << 20,
        via transport: Transport = .inProcess, folder: URL = RecordingConfiguration.defaultFolder
    ) {
        self.maximumFrameRate = maximumFrameRate
        self.deferredEncodingLimit = deferredEncodingLimit
        self.policy = policy
        self.codec = codec
        self.container = container
        self.masksScreenShape = masksScreenShape
        self.scale = scale
        self.tail = tail
        self.transport = transport
        self.folder = folder
    }

    /// Tests run in parallel, each with its own device and recorder: a recorder that keeps to
    /// its own thread leaves the other cores to the devices.
    var recordingOptions: RecordingOptions {
        RecordingOptions(codec: codec, scale: scale, threads: 1, maximumFrameRate: maximumFrameRate)
    }

    /// What a recording may keep unencoded, in this process or as a tunnel host's recorder's
    /// `--spool` (nil: encode as frames come).
    var spoolLimit: Int? {
        policy == .retainOnFailure && deferredEncodingLimit > 0 ? deferredEncodingLimit : nil
    }

    /// The configuration in force: `SHOWREEL_RECORD` overrides the policy and
    /// `SHOWREEL_RECORD_VIA=<tunnel host URL>` (or `in-process`) the transport, so a CI job
    /// can change how the whole suite records without touching the tests.
    public func resolved(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> RecordingConfiguration {
        var resolved = self
        resolved.policy = try RecordingPolicy.resolved(policy, environment: environment)
        if let via = environment["SHOWREEL_RECORD_VIA"], !via.isEmpty {
            if via == "in-process" {
                resolved.transport = .inProcess
            } else if let url = URL(string: via), url.scheme == "http", url.host != nil {
                resolved.transport = .tunnelHost(url, token: environment["SHOWREEL_HOST_TOKEN"])
            } else {
                throw ShowreelKitError("SHOWREEL_RECORD_VIA=\(via) is neither in-process nor a tunnel host URL like http://127.0.0.1:8667.")
            }
        }
        return resolved
    }
}
