import ShowreelTesting
import ShowreelUI
import Testing

/// Runs each test on its own device: `@Suite(.device())` boots an in-process device per test
/// (a private registry, virtual clock, the clean status bar), makes it the device that
/// `Application("id")` drives, and shuts it down after the test whatever happens. Parallel
/// tests each get their own, so Swift Testing's default parallelism is safe.
///
///     @Suite(.device(), .recorded(.retainOnFailure))
///     struct CountriesUITests { ... }
///
/// `.device(.external("booted"))` borrows a running device instead.
public struct DeviceTrait: TestTrait, SuiteTrait, TestScoping {
    public let configuration: DeviceConfiguration

    public var isRecursive: Bool { true }

    /// Each test case gets a device; a suite does not (its tests do).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> DeviceTrait? {
        testCase == nil ? nil : self
    }

    /// True inside a recording trait that booted this test's device itself (it was listed
    /// first): the device is there already.
    @TaskLocal static var isProvided = false

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        if Self.isProvided { return try await function() }
        try await Self.withDevice(configuration) { _ in try await CallSite.reportingFailures(function) }
    }

    /// Boots the device `configuration` describes, makes it the current one for `body`, and
    /// shuts it down afterwards, even when the test was cancelled or timed out: in a task of its
    /// own, so the cancellation does not cut the shutdown short.
    static func withDevice(_ configuration: DeviceConfiguration,
                           _ body: @Sendable (TestDevice) async throws -> Void) async throws {
        let testDevice = try await TestDevice.boot(configuration)
        let outcome = await Result {
            try await DeviceClient.$current.withValue(testDevice.client) {
                try await TestDevice.$current.withValue(testDevice) { try await body(testDevice) }
            }
        }
        await Task { await testDevice.shutdown() }.value
        try outcome.get()
    }
}

extension Trait where Self == DeviceTrait {
    /// A device for each test: in-process by default (see `DeviceConfiguration`).
    public static func device(_ source: DeviceConfiguration.Source = .inProcess, profile: String = "phone",
                              clock: ClockKind = .virtual,
                              statusBar: StatusBarOverride? = DeviceConfiguration.cleanStatusBar,
                              showsTouches: Bool = true, apps: [AppDefinition] = [],
                              appearance: InterfaceStyle = .light, language: String? = nil) -> DeviceTrait {
        DeviceTrait(configuration: DeviceConfiguration(source, profile: profile, clock: clock, statusBar: statusBar,
                                                       showsTouches: showsTouches, apps: apps, appearance: appearance,
                                                       language: language))
    }
}

extension Result where Failure == any Error {
    /// The outcome of `body`, caught so that cleanup can run before it is rethrown.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

/// Where a failed device call is reported.
enum CallSite {
    /// Runs `body`; a device call that throws is reported as an issue at the test's line that
    /// made the call (not at the `@Test` line) and ends the test there.
    static func reportingFailures(_ body: @Sendable () async throws -> Void) async throws {
        do { try await body() } catch let failure as DeviceClient.Failure {
            if let location = failure.sourceLocation {
                Issue.record(failure, sourceLocation: location)
            } else {
                throw failure
            }
        }
    }
}
