import Foundation
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelWire
import Synchronization
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Talks to a device's automation API over HTTP: what `Application` and `Element` use, and
/// what a test can call directly for anything they do not cover.
public struct DeviceClient: Sendable {
    /// A failed call: the HTTP status (0 when the device did not answer), its sentence, and
    /// the test's line that made the call (the recording traits report the issue there).
    public struct Failure: Error, Sendable, CustomStringConvertible, Equatable {
        public var statusCode: Int
        public var message: String
        public var sourceLocation: SourceLocation?
        public var description: String { message }

        public init(statusCode: Int, message: String, sourceLocation: SourceLocation? = nil) {
            self.statusCode = statusCode
            self.message = message
            self.sourceLocation = sourceLocation
        }
    }

    public let baseURL: URL
    /// Why this client cannot reach a device (see `unavailable(_:)`); every call throws it.
    private var unavailableReason: String?
    /// The call site failures are reported at (see `at(_:)`).
    private var sourceLocation: SourceLocation?

    public init(baseURL: URL) { self.baseURL = baseURL }

    /// The current test's device, set by the `.device()` trait (ShowreelKit) or an XCTest case
    /// for the test's task: what `Application("id")` drives when given no device.
    @TaskLocal public static var current: DeviceClient?

    /// The device of the XCTest case running now (`ShowreelTestCase` sets it): XCTest runs one
    /// test at a time, and its test methods do not inherit task-local values from `setUp`.
    public static var testCaseDevice: DeviceClient? {
        get { testCaseDeviceStorage.withLock { $0 } }
        set { testCaseDeviceStorage.withLock { $0 = newValue } }
    }

    private static let testCaseDeviceStorage = Mutex<DeviceClient?>(nil)

    /// A client for no device: every call throws `reason`, a sentence saying how to get one.
    public static func unavailable(_ reason: String) -> DeviceClient {
        var client = DeviceClient(baseURL: URL(string: "http://127.0.0.1:9")!)
        client.unavailableReason = reason
        return client
    }

    /// This client, with failures reported at `sourceLocation` (the test's line, not the library's).
    public func at(_ sourceLocation: SourceLocation) -> DeviceClient {
        var client = self
        client.sourceLocation = sourceLocation
        return client
    }

    /// The device `name` (a udid, a name, or `booted`) from the registry.
    public static func named(_ name: String, registry: DeviceRegistry = DeviceRegistry()) throws -> DeviceClient {
        let record = try registry.resolve(name)
        guard let url = record.automationURL.flatMap(URL.init(string:)) else {
            throw Failure(statusCode: 0, message: "\(record.name) (\(record.udid)) has no automation API; boot it with `showreel device boot`.")
        }
        return DeviceClient(baseURL: url)
    }

    // MARK: Device and apps

    public func info() async throws -> AutomationAPI.DeviceInfo { try await call(Routes.device) }
    public func tree() async throws -> [ElementSnapshot] { try await (call(Routes.tree) as AutomationAPI.Tree).elements }

    @discardableResult
    public func launch(_ bundleIdentifier: String, arguments: [String] = [], environment: [String: String] = [:]) async throws -> AppStatus {
        try await call(Routes.launch, bundleIdentifier, body: AutomationAPI.Launch(arguments: arguments, environment: environment))
    }

    @discardableResult
    public func terminate(_ bundleIdentifier: String) async throws -> AppStatus {
        try await call(Routes.terminate, bundleIdentifier, body: AutomationAPI.OK())
    }

    @discardableResult
    public func activate(_ bundleIdentifier: String) async throws -> AppStatus {
        try await call(Routes.activate, bundleIdentifier, body: AutomationAPI.OK())
    }

    public func state(of bundleIdentifier: String) async throws -> AppStatus { try await call(Routes.state, bundleIdentifier) }

    public func wait(for state: AppState, of bundleIdentifier: String, timeout: Double) async throws -> Bool {
        let result: AutomationAPI.WaitResult = try await call(Routes.waitForState, bundleIdentifier,
                                                              body: AutomationAPI.WaitForState(state: state, timeout: timeout))
        return result.matched
    }

    public func pressHome() async throws { let _: AutomationAPI.OK = try await call(Routes.home, body: AutomationAPI.OK()) }

    // MARK: Queries

    public func elements(_ query: ElementQuery) async throws -> [ElementSnapshot] {
        try await (call(Routes.query, body: AutomationAPI.Query(query: query)) as AutomationAPI.QueryResult).elements
    }

    public func element(_ query: ElementQuery) async throws -> ElementSnapshot {
        try await call(Routes.element, body: AutomationAPI.Query(query: query))
    }

    /// Waits on the device clock for an element to be on screen (`exists: false`: gone from it;
    /// `hittable`: on screen and hittable). True when it happened before the timeout.
    public func waitFor(_ query: ElementQuery, exists: Bool = true, hittable: Bool = false, timeout: Double) async throws -> Bool {
        let body = AutomationAPI.WaitFor(query: query, exists: exists, hittable: hittable ? true : nil, timeout: timeout)
        let result: AutomationAPI.WaitResult = try await call(Routes.waitFor, body: body)
        return result.matched
    }

    // MARK: Events

    public func tap(_ request: AutomationAPI.Tap) async throws { let _: AutomationAPI.OK = try await call(Routes.tap, body: request) }
    public func typeText(_ request: AutomationAPI.TypeText) async throws { let _: AutomationAPI.OK = try await call(Routes.type, body: request) }
    public func tapKey(_ key: String) async throws { let _: AutomationAPI.OK = try await call(Routes.key, body: AutomationAPI.Key(key: key)) }
    public func swipe(_ request: AutomationAPI.Swipe) async throws { let _: AutomationAPI.OK = try await call(Routes.swipe, body: request) }
    public func shake() async throws { let _: AutomationAPI.OK = try await call(Routes.shake, body: AutomationAPI.OK()) }
    public func keyCommand(_ key: String, modifiers: [String]) async throws {
        let _: AutomationAPI.OK = try await call(Routes.keyCommand, body: AutomationAPI.KeyCommand(key: key, modifiers: modifiers))
    }

    @discardableResult
    /// Switches the device to light or dark (`POST /v1/appearance`).
    public func setAppearance(_ appearance: InterfaceStyle) async throws {
        let _: AutomationAPI.Appearance = try await call(Routes.appearance, body: AutomationAPI.Appearance(appearance: appearance))
    }

    public func overrideStatusBar(_ values: StatusBarOverride) async throws -> StatusBarOverride {
        try await call(Routes.overrideStatusBar, body: values)
    }

    @discardableResult
    public func clearStatusBar() async throws -> StatusBarOverride { try await call(Routes.clearStatusBar) }

    /// The screen as PNG bytes.
    public func screenshot() async throws -> Data { try await raw(Routes.screenshot, body: nil) }

    /// Lets device time pass (instant on a virtual clock).
    public func wait(seconds: Double) async throws { let _: AutomationAPI.OK = try await call(Routes.wait, body: AutomationAPI.Wait(seconds: seconds)) }

    // MARK: Transport

    private typealias Routes = AutomationAPI.Routes

    /// Calls `route` (its parameters filled with `parameters`) with a JSON body, or none.
    private func call<T: Decodable, B: Encodable>(_ route: Route, _ parameters: String..., body: B? = Optional<AutomationAPI.OK>.none) async throws -> T {
        let data = try await raw(route, parameters, body: try body.map { try WireJSON.encoder.encode($0) })
        do { return try WireJSON.decoder.decode(T.self, from: data) } catch {
            throw Failure(statusCode: 200, message: "\(route.method.rawValue) \(route.path(parameters)): unexpected answer (\(describeDecodingError(error)))",
                          sourceLocation: sourceLocation)
        }
    }

    private func raw(_ route: Route, _ parameters: [String] = [], body: Data?) async throws -> Data {
        if let unavailableReason { throw Failure(statusCode: 0, message: unavailableReason, sourceLocation: sourceLocation) }
        let name = "\(route.method.rawValue) \(route.path(parameters))"
        guard let url = route.url(relativeTo: baseURL, parameters) else {
            throw Failure(statusCode: 0, message: "The device URL \(baseURL.absoluteString) cannot take \(name)", sourceLocation: sourceLocation)
        }
        var request = URLRequest(url: url)
        request.httpMethod = route.method.rawValue
        request.timeoutInterval = 600
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let data: Data
        let response: URLResponse
        do { (data, response) = try await URLSession.shared.data(for: request) } catch {
            throw Failure(statusCode: 0, message: "The device at \(baseURL.absoluteString) did not answer \(name): \(ErrorSentence.describe(error))",
                          sourceLocation: sourceLocation)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            throw Failure(statusCode: status, message: ErrorBody.message(in: data), sourceLocation: sourceLocation)
        }
        return data
    }
}
