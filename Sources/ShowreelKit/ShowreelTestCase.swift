import Foundation
import ShowreelTesting
import XCTest

/// Records every test of an XCTest case: subclass it instead of `XCTestCase`. Each test gets
/// its own device (in-process by default) that `Application("id")` drives, and a video in
/// `Recordings/<Class>/<test>.mov` kept by `recordingConfiguration`'s policy, as the
/// `.device()` and `.recorded()` traits do for Swift Testing.
///
///     final class CountriesXCTests: ShowreelTestCase {
///         override var recordingConfiguration: RecordingConfiguration { RecordingConfiguration(.on) }
///         func testCanadaDetails() async throws { ... }
///     }
///
/// Linux XCTest has no attachments: `attachScreenshot(named:lifetime:)` keeps screenshots in
/// the test's folder instead, with XCTAttachment's lifetimes.
open class ShowreelTestCase: XCTestCase {
    /// The device each test runs on; override to change it.
    open var deviceConfiguration: DeviceConfiguration { DeviceConfiguration() }
    /// How each test is recorded; override to change it (`SHOWREEL_RECORD` overrides the policy).
    open var recordingConfiguration: RecordingConfiguration { RecordingConfiguration() }

    /// The running test's device.
    public private(set) var testDevice: TestDevice?
    private var artifacts: TestArtifacts?
    private var issues: IssueLog?

    open override func setUp() async throws {
        try await super.setUp()
        let testDevice = try await TestDevice.boot(deviceConfiguration)
        self.testDevice = testDevice
        let configuration = try recordingConfiguration.resolved()
        let artifacts = TestArtifacts(identity: identity, root: configuration.folder)
        self.artifacts = artifacts
        TestContext.testCase = RecordedTestContext(testDevice, artifacts: artifacts)
        let issues = IssueLog(testDevice)
        self.issues = issues
        let recording =
            configuration.policy == .off ? nil : await startRecording(testDevice, artifacts: artifacts, configuration: configuration)
        addTeardownBlock {
            if let recording {
                let result = await Finalisation.run(
                    recording, testDevice: testDevice, artifacts: artifacts, issues: issues,
                    configuration: configuration)
                if let problem = result.problem { XCTFail(problem) }
            } else {
                _ = artifacts.settleScreenshots(passed: issues.isEmpty)
            }
            await testDevice.shutdown()
            TestContext.testCase = nil
        }
    }

    open override func tearDown() async throws {
        testDevice = nil
        try await super.tearDown()
    }

    private func startRecording(
        _ testDevice: TestDevice, artifacts: TestArtifacts,
        configuration: RecordingConfiguration
    ) async -> TestRecording? {
        do {
            return try await TestRecording.start(
                testDevice, to: artifacts.file("." + configuration.container.fileExtension),
                configuration: configuration)
        } catch {
            XCTFail("The recording of \(artifacts.identity.id) could not start: \(ErrorSentence.describe(error))")
            return nil
        }
    }

    /// Keeps a screenshot of the device's screen in the test's folder as `<test> <name>.png`
    /// (XCTAttachment's `keepAlways` or `deleteOnSuccess`).
    public func attachScreenshot(named name: String, lifetime: AttachmentLifetime = .deleteOnSuccess) async throws {
        guard let testDevice, let artifacts else {
            throw ShowreelKitError("attachScreenshot(named:) works inside a test, after ShowreelTestCase.setUp().")
        }
        try artifacts.keepScreenshot(try await testDevice.client.screenshotPNG(), named: name, lifetime: lifetime)
    }

    /// A thrown device failure is reported at the test's line that made the call, as the
    /// Swift Testing traits do; every failure goes into the manifest.
    open override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
        expected: Bool
    ) {
        var (description, filePath, lineNumber) = (description, filePath, lineNumber)
        if let site = CallSiteReporting.callSite(for: description, thrown: TestContext.testCase?.lastFailure) {
            (description, filePath, lineNumber) = (TestContext.testCase?.lastFailure?.message ?? description, site.filePath, site.line)
        }
        issues?.note(message: description, file: URL(fileURLWithPath: filePath).lastPathComponent, line: lineNumber)
        super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }

    /// `Class/testName()`, from XCTest's "Class.testName" (or "-[Class testName]").
    private var identity: TestIdentity {
        let parts = name.trimmingCharacters(in: CharacterSet(charactersIn: "-[]")).split(whereSeparator: { $0 == "." || $0 == " " })
        let suite = parts.count > 1 ? String(parts[parts.count - 2]) : String(describing: type(of: self))
        return TestIdentity(suite: suite, name: (parts.last.map(String.init) ?? name) + "()")
    }
}
