import ShowreelAccessibility
import Foundation
import ShowreelRender
import ShowreelWire
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Talks to a device's automation API over HTTP: what `Application` and `Element` use, and
/// what a test can call directly for anything they do not cover.
public struct DeviceClient: Sendable {
    /// A failed call: the HTTP status (0 when the device did not answer) and its sentence.
    public struct Failure: Error, Sendable, CustomStringConvertible, Equatable {
        public var statusCode: Int
        public var message: String
        public var description: String { message }
    }

    public let baseURL: URL

    public init(baseURL: URL) { self.baseURL = baseURL }

    /// The device `name` (a udid, a name, or `booted`) from the registry.
    public static func named(_ name: String, registry: DeviceRegistry = DeviceRegistry()) throws -> DeviceClient {
        let record = try registry.resolve(name)
        guard let url = record.automationURL.flatMap(URL.init(string:)) else {
            throw Failure(statusCode: 0, message: "\(record.name) (\(record.udid)) has no automation API; boot it with `showreel device boot`.")
        }
        return DeviceClient(baseURL: url)
    }

    // MARK: Device and apps

    public func info() async throws -> AutomationAPI.DeviceInfo { try await get("v1/device") }
    public func tree() async throws -> [ElementSnapshot] { try await (get("v1/tree") as AutomationAPI.Tree).elements }

    @discardableResult
    public func launch(_ bundleIdentifier: String, arguments: [String] = [], environment: [String: String] = [:]) async throws -> AppStatus {
        try await post("v1/apps/\(bundleIdentifier)/launch", AutomationAPI.Launch(arguments: arguments, environment: environment))
    }

    @discardableResult
    public func terminate(_ bundleIdentifier: String) async throws -> AppStatus {
        try await post("v1/apps/\(bundleIdentifier)/terminate", AutomationAPI.OK())
    }

    @discardableResult
    public func activate(_ bundleIdentifier: String) async throws -> AppStatus {
        try await post("v1/apps/\(bundleIdentifier)/activate", AutomationAPI.OK())
    }

    public func state(of bundleIdentifier: String) async throws -> AppStatus { try await get("v1/apps/\(bundleIdentifier)/state") }

    public func wait(for state: AppState, of bundleIdentifier: String, timeout: Double) async throws -> Bool {
        let result: AutomationAPI.WaitResult = try await post("v1/apps/\(bundleIdentifier)/wait-for-state",
                                                              AutomationAPI.WaitForState(state: state, timeout: timeout))
        return result.matched
    }

    public func pressHome() async throws { let _: AutomationAPI.OK = try await post("v1/home", AutomationAPI.OK()) }

    // MARK: Queries

    public func elements(_ query: ElementQuery) async throws -> [ElementSnapshot] {
        try await (post("v1/query", AutomationAPI.Query(query: query)) as AutomationAPI.QueryResult).elements
    }

    public func element(_ query: ElementQuery) async throws -> ElementSnapshot {
        try await post("v1/element", AutomationAPI.Query(query: query))
    }

    public func waitFor(_ query: ElementQuery, exists: Bool = true, timeout: Double) async throws -> Bool {
        let result: AutomationAPI.WaitResult = try await post("v1/wait-for", AutomationAPI.WaitFor(query: query, exists: exists, timeout: timeout))
        return result.matched
    }

    // MARK: Events

    public func tap(_ request: AutomationAPI.Tap) async throws { let _: AutomationAPI.OK = try await post("v1/tap", request) }
    public func typeText(_ request: AutomationAPI.TypeText) async throws { let _: AutomationAPI.OK = try await post("v1/type", request) }
    public func tapKey(_ key: String) async throws { let _: AutomationAPI.OK = try await post("v1/key", AutomationAPI.Key(key: key)) }
    public func swipe(_ request: AutomationAPI.Swipe) async throws { let _: AutomationAPI.OK = try await post("v1/swipe", request) }
    public func shake() async throws { let _: AutomationAPI.OK = try await post("v1/shake", AutomationAPI.OK()) }
    public func keyCommand(_ key: String, modifiers: [String]) async throws {
        let _: AutomationAPI.OK = try await post("v1/key-command", AutomationAPI.KeyCommand(key: key, modifiers: modifiers))
    }

    @discardableResult
    public func overrideStatusBar(_ values: StatusBarOverride) async throws -> StatusBarOverride {
        try await send("PUT", "v1/status-bar", body: values)
    }

    @discardableResult
    public func clearStatusBar() async throws -> StatusBarOverride { try await send("DELETE", "v1/status-bar", body: Optional<AutomationAPI.OK>.none) }

    /// The screen as PNG bytes.
    public func screenshot() async throws -> Data { try await raw("GET", "v1/screenshot", body: nil) }

    /// Lets device time pass (instant on a virtual clock).
    public func wait(seconds: Double) async throws { let _: AutomationAPI.OK = try await post("v1/wait", AutomationAPI.Wait(seconds: seconds)) }

    // MARK: Transport

    private func get<T: Decodable>(_ path: String) async throws -> T { try await send("GET", path, body: Optional<AutomationAPI.OK>.none) }
    private func post<T: Decodable, B: Encodable>(_ path: String, _ body: B) async throws -> T { try await send("POST", path, body: body) }

    private func send<T: Decodable, B: Encodable>(_ method: String, _ path: String, body: B?) async throws -> T {
        let data = try await raw(method, path, body: try body.map { try JSONEncoder().encode($0) })
        do { return try JSONDecoder().decode(T.self, from: data) } catch {
            throw Failure(statusCode: 200, message: "\(method) /\(path): unexpected answer (\(describeDecodingError(error)))")
        }
    }

    private func raw(_ method: String, _ path: String, body: Data?) async throws -> Data {
        var request = URLRequest(url: baseURL.appendingPathComponent(path))
        request.httpMethod = method
        request.timeoutInterval = 600
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let data: Data
        let response: URLResponse
        do { (data, response) = try await URLSession.shared.data(for: request) } catch {
            throw Failure(statusCode: 0, message: "The device at \(baseURL.absoluteString) did not answer \(method) /\(path): \(error.localizedDescription)")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            let message = (try? JSONDecoder().decode(AutomationAPI.ErrorBody.self, from: data).error)
                ?? String(decoding: data, as: UTF8.self)
            throw Failure(statusCode: status, message: message)
        }
        return data
    }
}
