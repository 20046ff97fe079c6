import Foundation
import ShowreelDevice
import ShowreelRecorder
import ShowreelReport
import ShowreelTesting
import Testing

/// Records each test into `Recordings/<Suite>/<test>.mov`: started before the test body (with
/// the first frame in), stopped and finalised after it whatever happened (pass, failure,
/// thrown error, time limit, cancellation), holding the last screen for a short tail. Under
/// `.retainOnFailure` a passing test's video is deleted. Each test gets an entry in
/// `Recordings/manifest.json`; a kept video and the last screen are attached to the test.
///
///     @Suite(.device(), .recorded(.retainOnFailure))
///
/// Without an outer `.device()`, it boots the device the test's `.device(...)` trait
/// describes (or the default in-process one) for itself.
public struct RecordingTrait: TestTrait, SuiteTrait, TestScoping {
    public let configuration: RecordingConfiguration

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> RecordingTrait? {
        testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let configuration = try configuration.resolved()
        let policy = configuration.policy
        guard policy != .off else { return try await function() }
        guard let context = RecordedTestContext.recorded else {
            // Listed before `.device(...)`, or alone: boot the device here, and record on it.
            let deviceTrait = test.traits.compactMap { $0 as? DeviceTrait }.first ?? .device()
            return try await DeviceTrait.withDevice(deviceTrait.configuration.resolved(for: testCase), providedByRecording: true) { _ in
                try await record(RecordedTestContext.recorded!, configuration: configuration, test: test, testCase: testCase, function)
            }
        }
        try await record(context, configuration: configuration, test: test, testCase: testCase, function)
    }

    private func record(
        _ context: RecordedTestContext, configuration: RecordingConfiguration, test: Test, testCase: Test.Case?,
        _ function: @Sendable () async throws -> Void
    ) async throws {
        let testDevice = context.testDevice
        let artifacts = TestArtifacts(identity: TestIdentity(test: test, testCase: testCase), root: configuration.folder)
        let video = artifacts.file("." + configuration.container.fileExtension)
        let recording: TestRecording
        do {
            try? FileManager.default.removeItem(at: video)
            recording = try await TestRecording.start(testDevice, to: video, configuration: configuration)
        } catch {
            Issue.record("The recording of \(artifacts.identity.id) could not start: \(ErrorSentence.describe(error))")
            return try await TestContext.$current.withValue(context.with(artifacts: artifacts)) { try await function() }
        }
        let issues = IssueLog(testDevice)
        let outcome = await Result {
            try await TestContext.$current.withValue(context.with(artifacts: artifacts)) {
                try await IssueHandlingTrait.compactMapIssues { issue in
                    issues.note(issue)
                    return issue
                }.provideScope(for: test, testCase: testCase) {
                    try await CallSiteReporting.reportingFailures(function)
                }
            }
        }
        if case let .failure(error) = outcome { issues.note(thrown: error) }

        // Finalise in a task of its own: a cancelled or timed-out test still gets its video.
        let result = await Task {
            await Finalisation.run(
                recording, testDevice: testDevice, artifacts: artifacts, issues: issues,
                configuration: configuration)
        }.value
        if let problem = result.problem { Issue.record(Comment(rawValue: problem)) }
        for file in result.attachments {
            Attachment.record(FileAttachment(source: .file(file)), named: file.lastPathComponent)
        }
        try outcome.get()
    }
}

extension Trait where Self == RecordingTrait {
    /// Records each test (see `RecordingConfiguration` for every option).
    public static func recorded(
        _ policy: RecordingPolicy = .retainOnFailure, codec: VideoCodec = .h264,
        container: VideoContainer = .mov, masksScreenShape: Bool = true, scale: Double = 0.5,
        via transport: RecordingConfiguration.Transport = .inProcess
    ) -> RecordingTrait {
        RecordingTrait(
            configuration: RecordingConfiguration(
                policy, codec: codec, container: container,
                masksScreenShape: masksScreenShape, scale: scale, via: transport))
    }

    /// Records each test as `configuration` says.
    public static func recorded(_ configuration: RecordingConfiguration) -> RecordingTrait {
        RecordingTrait(configuration: configuration)
    }
}
