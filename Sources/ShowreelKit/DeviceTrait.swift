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

    /// The trait for `configuration` as a whole (with what `.device(...)` does not offer, such
    /// as an external device's registry).
    package init(configuration: DeviceConfiguration) {
        self.configuration = configuration
    }

    public var isRecursive: Bool { true }

    /// Each test case gets a device; a suite does not (its tests do).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> DeviceTrait? {
        testCase == nil ? nil : self
    }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        // Inside a recording trait that booted this test's device itself (it was listed first).
        if RecordedTestContext.recorded?.deviceProvidedByRecording == true { return try await function() }
        try await Self.withDevice(configuration.resolved(for: testCase)) { _ in try await CallSiteReporting.reportingFailures(function) }
    }

    /// Boots the device `configuration` describes, makes it the current one for `body`, and
    /// shuts it down afterwards, even when the test was cancelled or timed out: in a task of its
    /// own, so the cancellation does not cut the shutdown short.
    static func withDevice(
        _ configuration: DeviceConfiguration, providedByRecording: Bool = false,
        _ body: @Sendable (TestDevice) async throws -> Void
    ) async throws {
        let testDevice = try await TestDevice.boot(configuration)
        let context = RecordedTestContext(testDevice, deviceProvidedByRecording: providedByRecording)
        let outcome = await Result {
            try await TestContext.$current.withValue(context) { try await body(testDevice) }
        }
        await Task { await testDevice.shutdown() }.value
        try outcome.get()
    }
}

extension Trait where Self == DeviceTrait {
    /// A device for each test, booted before it and shut down after it whatever happens.
    ///
    ///     @Suite(.device(language: "de", appearance: .dark, profile: .phone69), .recorded(.on))
    ///
    /// - Parameters:
    ///   - source: `.inProcess` (the default) boots one in the test process; `.external("booted")`
    ///     borrows a device started with `showreel device boot`.
    ///   - profile: the screen (`.phone`, `.phoneSmall`, `.tablet`, `.phone69`, ...).
    ///   - clock: `.virtual` (time passes only as the test acts: fast and the same every run) or `.real`.
    ///   - statusBar: applied after boot; the clean 9:41 bar by default, nil for the device's own.
    ///   - showsTouches: draws a circle where the test touches, so the video shows what it did.
    ///   - apps: the user's own apps to install beside the sample apps.
    ///   - language: the language apps launch in (`"de"`, or `.argument`: each case's argument of a
    ///     test parameterised over languages, one video per language named after it); nil for each
    ///     app's source language.
    ///   - appearance: light or dark, from boot.
    ///   - orientation: how an in-process device is held from boot (`.landscapeLeft`: a landscape video).
    ///   - transport: how actions reach an in-process device: directly (the default) or through its
    ///     automation API on loopback HTTP.
    public static func device(
        _ source: DeviceConfiguration.Source = .inProcess, language: DeviceLanguage? = nil,
        appearance: InterfaceStyle = .light, profile: DeviceProfile = .phone, clock: ClockKind = .virtual,
        statusBar: StatusBarOverride? = DeviceConfiguration.cleanStatusBar,
        showsTouches: Bool = true, apps: [AppDefinition] = [],
        transport: DeviceConfiguration.Transport = .inProcess, orientation: DeviceOrientation = .portrait
    ) -> DeviceTrait {
        DeviceTrait(
            configuration: DeviceConfiguration(
                source, profile: profile, clock: clock, statusBar: statusBar,
                showsTouches: showsTouches, apps: apps, transport: transport,
                appearance: appearance, language: language, orientation: orientation))
    }
}

extension DeviceConfiguration {
    /// The configuration with `.argument` turned into the test case's language code.
    func resolved(for testCase: Test.Case?) throws -> DeviceConfiguration {
        var resolved = self
        if let language { resolved.language = .code(try language.resolved(for: testCase)) }
        return resolved
    }

    /// The languages the device boots with.
    var languages: [String] {
        if case let .code(code)? = language { [code] } else { [] }
    }
}

extension Result where Failure == any Error {
    /// The outcome of `body`, caught so that cleanup can run before it is rethrown.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
