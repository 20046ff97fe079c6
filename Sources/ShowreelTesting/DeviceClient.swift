import Foundation
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelWire
import Synchronization

/// Drives a device for a test: what `Application` and `Element` use, and what a test can call
/// directly for anything they do not cover. The same actions reach an in-process device
/// directly (`.inProcess`) or an external one over its automation API (`.http`).
public struct DeviceClient: DeviceDriver {
    /// A failed call: the HTTP status (0 when the device did not answer), its sentence, and
    /// the test's line that made the call (ShowreelKit reports the issue there).
    public struct Failure: Error, Sendable, CustomStringConvertible, Equatable {
        public var statusCode: Int
        public var message: String
        public var callSite: CallSite?
        public var description: String { message }

        public init(statusCode: Int, message: String, callSite: CallSite? = nil) {
            self.statusCode = statusCode
            self.message = message
            self.callSite = callSite
        }
    }

    /// How calls reach the device.
    public enum Transport: Sendable {
        /// Straight to a driver in this process (the in-process `Device`): no sockets, no JSON.
        case inProcess(any DeviceDriver)
        /// Over the device's automation API (a device booted with `showreel device boot`).
        case http(URL)
    }

    public let transport: Transport
    /// Why this client cannot reach a device (see `unavailable(_:)`); every call throws it.
    private var unavailableReason: String?
    /// The call site failures are reported at (see `at(_:)`).
    private var callSite: CallSite?
    /// The device time of the last answer over HTTP, shared by this client's copies.
    private let answered = LastDeviceTime()

    /// The device time when the device last answered this client (or a copy of it) over HTTP:
    /// where on the device clock the test is between calls. Nil in process, or before a call.
    package var lastDeviceTime: Duration? { answered.value.withLock { $0 } }

    public init(_ transport: Transport) { self.transport = transport }
    public init(baseURL: URL) { self.init(.http(baseURL)) }

    /// The automation API's address, for a client over HTTP.
    public var baseURL: URL? { if case let .http(url) = transport { url } else { nil } }

    /// A client for no device: every call throws `reason`, a sentence saying how to get one.
    public static func unavailable(_ reason: String) -> DeviceClient {
        var client = DeviceClient(.http(URL(string: "http://127.0.0.1:9")!))
        client.unavailableReason = reason
        return client
    }

    /// This client, with failures reported at `callSite` (the test's line, not the library's).
    public func at(_ callSite: CallSite) -> DeviceClient {
        var client = self
        client.callSite = callSite
        return client
    }

    /// The device `name` (a udid, a name, or `booted`) from the registry.
    public static func named(_ name: String, registry: DeviceRegistry = DeviceRegistry()) throws -> DeviceClient {
        let record = try registry.resolve(name)
        guard let url = record.automationURL.flatMap(URL.init(string:)) else {
            throw Failure(
                statusCode: 0, message: "\(record.name) (\(record.udid)) has no automation API; boot it with `showreel device boot`.")
        }
        return DeviceClient(baseURL: url)
    }

    // MARK: Device and apps

    public func info() async throws -> AutomationAPI.DeviceInfo {
        try await through {
            try await $0.info()
        } http: {
            try await $0.call(Routes.device)
        }
    }

    public func tree() async throws -> [ElementSnapshot] {
        try await through {
            try await $0.tree()
        } http: {
            try await ($0.call(Routes.tree) as AutomationAPI.Tree).elements
        }
    }

    @discardableResult
    public func launch(_ bundleIdentifier: String, arguments: [String] = [], environment: [String: String] = [:]) async throws -> AppStatus
    {
        try await performForApp(.launch(bundle: bundleIdentifier, arguments: arguments, environment: environment))
    }

    @discardableResult
    public func terminate(_ bundleIdentifier: String) async throws -> AppStatus {
        try await performForApp(.terminate(bundle: bundleIdentifier))
    }

    @discardableResult
    public func activate(_ bundleIdentifier: String) async throws -> AppStatus {
        try await performForApp(.activate(bundle: bundleIdentifier))
    }

    /// The text on the device's pasteboard (`simctl pbpaste`); empty when nothing was copied.
    public func pasteboard() async throws -> String {
        try await through {
            try await $0.pasteboard()
        } http: {
            let body: AutomationAPI.PasteboardText = try await $0.call(Routes.pasteboard)
            return body.text
        }
    }

    /// Whether airplane mode is on.
    public func airplaneMode() async throws -> Bool {
        try await through {
            try await $0.airplaneMode()
        } http: {
            let body: AutomationAPI.Network = try await $0.call(Routes.network)
            return body.airplaneMode
        }
    }

    /// How the device is held, and how the app on screen is turned (portrait for an app that
    /// does not support the device's orientation).
    public func orientation() async throws -> AutomationAPI.Orientation {
        try await through {
            try await $0.orientation()
        } http: {
            try await $0.call(Routes.orientation)
        }
    }

    /// Every notification delivered, oldest first.
    public func notifications() async throws -> [SystemNotification] {
        try await through {
            try await $0.notifications()
        } http: {
            let body: AutomationAPI.Notifications = try await $0.call(Routes.notifications)
            return body.notifications
        }
    }

    /// The simulated location; nil while none is set.
    public func location() async throws -> Coordinate? {
        try await through {
            try await $0.location()
        } http: {
            let body: AutomationAPI.Location = try await $0.call(Routes.location)
            return body.location
        }
    }

    /// The services an app was answered for; ones never asked are left out.
    public func permissions(of bundleIdentifier: String) async throws -> [PrivacyService: PermissionStatus] {
        try await through {
            try await $0.permissions(of: bundleIdentifier)
        } http: {
            let body: AutomationAPI.Permissions = try await $0.call(Routes.permissions, bundleIdentifier)
            return body.statuses
        }
    }

    public func status(of bundleIdentifier: String) async throws -> AppStatus {
        try await through {
            try await $0.status(of: bundleIdentifier)
        } http: {
            try await $0.call(Routes.state, bundleIdentifier)
        }
    }

    // MARK: Queries

    public func elements(_ query: ElementQuery) async throws -> [ElementSnapshot] {
        try await through {
            try await $0.elements(query)
        } http: {
            try await ($0.call(Routes.query, body: AutomationAPI.Query(query: query)) as AutomationAPI.QueryResult).elements
        }
    }

    public func element(_ query: ElementQuery) async throws -> ElementSnapshot {
        try await through {
            try await $0.element(query)
        } http: {
            try await $0.call(Routes.element, body: AutomationAPI.Query(query: query))
        }
    }

    /// The screen as PNG bytes.
    public func screenshotPNG() async throws -> Data {
        try await through {
            try await $0.screenshotPNG()
        } http: {
            try await $0.raw(Routes.screenshot, body: nil)
        }
    }

    // MARK: Actions

    /// Performs `action` on the device, in process or over HTTP: the same action either way.
    public func perform(_ action: DeviceAction) async throws -> ActionResult {
        let request = action.request
        return try await through {
            try await $0.perform(action)
        } http: { client in
            let data = try await client.raw(
                request.route, request.bundle.map { [$0] } ?? [],
                body: try request.body.map { try WireJSON.encoder.encode($0) })
            do { return try request.result(from: data) } catch {
                throw Failure(
                    statusCode: 200,
                    message: "\(request.route.method.rawValue) \(request.route.path(request.bundle.map { [$0] } ?? [])): "
                        + "unexpected answer (\(describeDecodingError(error)))", callSite: client.callSite)
            }
        }
    }

    // MARK: Tracing a device in another process

    // What a recording made in this process (or through a tunnel host) of an external device
    // uses for its step trace: the device traces its own actions while a trace is started. Only
    // over HTTP: a device in this process is traced directly (`RecordedSession`).

    /// Starts a step trace of the device for one recording; returns the trace's id (nil from a
    /// device that predates ids), the device time it started at and the first frame's of the
    /// display-stream recording running last (see `AutomationAPI.TraceStarted`). Refused (409)
    /// while a recording in the device's own process traces it.
    package func startTrace() async throws -> (id: String?, time: Duration, recordingStart: Duration?) {
        let started: AutomationAPI.TraceStarted = try await call(Routes.traceStart)
        return (started.id, .seconds(started.time), started.recordingStart.map { .seconds($0) })
    }

    /// Opens a step (a WebDriver command): the device's actions until `endTraceStep` are part
    /// of it.
    package func beginTraceStep(_ title: String) async throws {
        let _: AutomationAPI.OK = try await call(Routes.traceStep, body: AutomationAPI.TraceStep(title: title))
    }

    /// Closes the step opened with `beginTraceStep`, failed with `error` when it has one.
    package func endTraceStep(error: String?) async throws {
        let _: AutomationAPI.OK = try await call(Routes.traceStepEnd, body: AutomationAPI.TraceStepEnd(error: error))
    }

    /// Stops the trace `id` (nil: the only one running) and returns it as `Trace` (the report's `RunTrace`, which this module
    /// does not know), its times counted from `videoStart` (device time of the video's first
    /// frame), with pictures only when `pictures` (a video that is kept).
    package func endTrace<Trace: Decodable>(
        _ id: String? = nil, videoStart: Duration, pictures: Bool, as type: Trace.Type
    ) async throws -> Trace {
        try await call(Routes.traceEnd, body: AutomationAPI.TraceEnd(videoStart: videoStart.seconds, pictures: pictures, id: id))
    }

    // MARK: Transport

    private typealias Routes = AutomationAPI.Routes

    /// Runs `inProcess` on the driver, or `http` over the automation API; a failure either way
    /// is a `Failure` at the caller's line, with the status an HTTP answer would have had.
    private func through<T>(_ inProcess: (any DeviceDriver) async throws -> T, http: (DeviceClient) async throws -> T) async throws -> T {
        do {
            if let unavailableReason { throw Failure(statusCode: 0, message: unavailableReason, callSite: callSite) }
            switch transport {
            case let .inProcess(driver):
                do { return try await inProcess(driver) } catch let error as Failure { throw error } catch {
                    throw Failure(
                        statusCode: (error as? any HTTPStatusError)?.httpStatus ?? 500, message: String(describing: error),
                        callSite: callSite)
                }
            case .http: return try await http(self)
            }
        } catch let failure as Failure {
            // XCTest learns of a thrown error only as text: the context keeps the failure, so the
            // test case can report it at its call site.
            TestContext.active?.noteFailure(failure)
            throw failure
        }
    }

    /// Calls `route` (its parameters filled with `parameters`) with a JSON body, or none.
    private func call<T: Decodable, B: Encodable>(_ route: Route, _ parameters: String..., body: B? = Optional<AutomationAPI.OK>.none)
        async throws -> T
    {
        let data = try await raw(route, parameters, body: try body.map { try WireJSON.encoder.encode($0) })
        do { return try WireJSON.decoder.decode(T.self, from: data) } catch {
            throw Failure(
                statusCode: 200,
                message: "\(route.method.rawValue) \(route.path(parameters)): unexpected answer (\(describeDecodingError(error)))",
                callSite: callSite)
        }
    }

    private func raw(_ route: Route, _ parameters: [String] = [], body: Data?) async throws -> Data {
        if let unavailableReason { throw Failure(statusCode: 0, message: unavailableReason, callSite: callSite) }
        guard let baseURL else { throw Failure(statusCode: 0, message: "an in-process device has no HTTP API", callSite: callSite) }
        let name = "\(route.method.rawValue) \(route.path(parameters))"
        guard let url = route.url(relativeTo: baseURL, parameters) else {
            throw Failure(statusCode: 0, message: "The device URL \(baseURL.absoluteString) cannot take \(name)", callSite: callSite)
        }
        let request = HTTPExchange(
            route.method.rawValue, url, headers: body == nil ? [] : [("Content-Type", "application/json")], body: body,
            timeout: .seconds(600))
        let response: HTTPExchange.Response
        do { response = try await request.send() } catch {
            throw Failure(
                statusCode: 0, message: "The device at \(baseURL.absoluteString) did not answer \(name): \(ErrorSentence.describe(error))",
                callSite: callSite)
        }
        let status = response.status, data = response.body
        if let time = response.header(AutomationAPI.deviceTimeHeader).flatMap(Double.init) {
            answered.value.withLock { $0 = .seconds(time) }
        }
        guard (200..<300).contains(status) else {
            throw Failure(statusCode: status, message: ErrorBody.message(in: data), callSite: callSite)
        }
        return data
    }
}

/// The device time of a client's last answer (see `DeviceClient.lastDeviceTime`).
private final class LastDeviceTime: Sendable {
    let value = Mutex<Duration?>(nil)
}
