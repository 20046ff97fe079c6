import Synchronization

/// The test running now: its device, as the `.device()` trait (ShowreelKit) or an XCTest case
/// set it up. `Application("id")` without a `device:` drives this one. ShowreelKit's traits
/// keep what else they know of the test (its files, its recording) in a subclass.
open class TestContext: @unchecked Sendable {
    /// The device the test's `Application`s drive.
    public let device: DeviceClient

    public init(device: DeviceClient) { self.device = device }

    /// The current test's context in Swift Testing: the traits set it for the test's task.
    @TaskLocal public static var current: TestContext?

    /// The context of the XCTest case running now: XCTest runs one test at a time, and its test
    /// methods do not inherit task-local values from `setUp`.
    public static var testCase: TestContext? {
        get { testCaseStorage.withLock { $0 } }
        set { testCaseStorage.withLock { $0 = newValue } }
    }

    private static let testCaseStorage = Mutex<TestContext?>(nil)

    /// The context of the test running now, Swift Testing's or XCTest's; nil outside a test.
    public static var active: TestContext? { current ?? testCase }

    private let failures = Mutex<DeviceClient.Failure?>(nil)

    /// Remembers the device call that failed last in this test.
    func noteFailure(_ failure: DeviceClient.Failure) { failures.withLock { $0 = failure } }

    /// The device call that failed last in this test, if any.
    public var lastFailure: DeviceClient.Failure? { failures.withLock { $0 } }
}
