import ShowreelTesting

/// What ShowreelKit knows of the test running now, kept in the one test context
/// (`TestContext.current` in Swift Testing, `TestContext.testCase` in XCTest): its device, its
/// files once it is recorded, and whether the recording trait booted the device itself.
final class RecordedTestContext: TestContext, @unchecked Sendable {
    let testDevice: TestDevice
    let artifacts: TestArtifacts?
    /// The recording trait was listed before `.device(...)` and booted the device: the device
    /// trait then has nothing to do.
    let deviceProvidedByRecording: Bool

    init(_ testDevice: TestDevice, artifacts: TestArtifacts? = nil, deviceProvidedByRecording: Bool = false) {
        self.testDevice = testDevice
        self.artifacts = artifacts
        self.deviceProvidedByRecording = deviceProvidedByRecording
        super.init(device: testDevice.client)
    }

    /// The context of the test running now, if ShowreelKit set it up.
    static var recorded: RecordedTestContext? { TestContext.active as? RecordedTestContext }

    /// This context with the test's files added.
    func with(artifacts: TestArtifacts) -> RecordedTestContext {
        RecordedTestContext(testDevice, artifacts: artifacts, deviceProvidedByRecording: deviceProvidedByRecording)
    }
}
