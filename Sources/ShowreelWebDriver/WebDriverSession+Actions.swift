import Foundation
import ShowreelAccessibility
import ShowreelDevice
import ShowreelGraphics
import ShowreelRender
import ShowreelTesting
import ShowreelUI
import ShowreelWire

/// Everything a WebDriver session asks of its device, and the only place that calls one: an
/// in-process `Device` or, for `appium:udid`, a `DeviceClient` over a booted device's
/// automation API. Requests become these calls; the device does the work (no action is
/// implemented here a second time). Device errors come back as WebDriver errors.
protocol SessionDevice: Sendable {
    var profile: DeviceProfile { get }
    func tree() async throws(WebDriverError) -> [ElementSnapshot]
    func foregroundApp() async throws(WebDriverError) -> String?
    func installedApps() async throws(WebDriverError) -> [String]
    func launch(_ bundle: String, arguments: [String], environment: [String: String]) async throws(WebDriverError)
    func terminate(_ bundle: String) async throws(WebDriverError)
    func activate(_ bundle: String) async throws(WebDriverError)
    func state(of bundle: String) async throws(WebDriverError) -> AppState
    func pressHome() async throws(WebDriverError)
    func tap(_ query: ElementQuery, count: Int) async throws(WebDriverError)
    func press(_ query: ElementQuery, duration: Duration) async throws(WebDriverError)
    func tap(at point: Point, hold: Duration) async throws(WebDriverError)
    func type(_ text: String, into query: ElementQuery?) async throws(WebDriverError)
    func key(_ key: String) async throws(WebDriverError)
    func drag(from: Point, to: Point, duration: Duration) async throws(WebDriverError)
    func swipe(_ query: ElementQuery, _ direction: AutomationAPI.Direction) async throws(WebDriverError)
    func shake() async throws(WebDriverError)
    func keyCommand(_ key: String, modifiers: [String]) async throws(WebDriverError)
    func overrideStatusBar(_ values: StatusBarOverride) async throws(WebDriverError)
    func wait(_ duration: Duration) async throws(WebDriverError)
    func screenshot() async throws(WebDriverError) -> PixelBuffer
    /// Device time now.
    func now() async -> Duration
}

/// A device this server booted for one session (and shuts down when the session ends).
struct InProcessSessionDevice: SessionDevice {
    let device: Device

    var profile: DeviceProfile { device.profile }

    private func run<T>(_ body: () async throws -> T) async throws(WebDriverError) -> T {
        do { return try await body() } catch { throw Self.translate(error) }
    }

    func tree() async throws(WebDriverError) -> [ElementSnapshot] { await device.tree() }
    func foregroundApp() async throws(WebDriverError) -> String? { await device.foregroundApp }
    func installedApps() async throws(WebDriverError) -> [String] { await device.installedApps }
    func launch(_ bundle: String, arguments: [String], environment: [String: String]) async throws(WebDriverError) {
        try await run { try await device.launch(bundle, context: LaunchContext(arguments: arguments, environment: environment)) }
    }
    func terminate(_ bundle: String) async throws(WebDriverError) { await device.terminate(bundle) }
    func activate(_ bundle: String) async throws(WebDriverError) { try await run { try await device.activate(bundle) } }
    func state(of bundle: String) async throws(WebDriverError) -> AppState { await device.status(of: bundle).state }
    func pressHome() async throws(WebDriverError) { await device.pressHome() }
    func tap(_ query: ElementQuery, count: Int) async throws(WebDriverError) { try await run { try await device.tap(query, count: count) } }
    func press(_ query: ElementQuery, duration: Duration) async throws(WebDriverError) {
        try await run { try await device.press(query, duration: duration) }
    }
    func tap(at point: Point, hold: Duration) async throws(WebDriverError) { try await run { try await device.tap(at: point, hold: hold) } }
    func type(_ text: String, into query: ElementQuery?) async throws(WebDriverError) {
        try await run { try await device.typeText(text, into: query) }
    }
    func key(_ key: String) async throws(WebDriverError) { try await run { try await device.tapKey(key) } }
    func drag(from: Point, to: Point, duration: Duration) async throws(WebDriverError) {
        try await run { try await device.drag(from: from, to: to, duration: duration) }
    }
    func swipe(_ query: ElementQuery, _ direction: AutomationAPI.Direction) async throws(WebDriverError) {
        try await run { try await device.swipe(.element(query, direction)) }
    }
    func shake() async throws(WebDriverError) { try await run { try await device.shake() } }
    func keyCommand(_ key: String, modifiers: [String]) async throws(WebDriverError) {
        try await run { try await device.keyCommand(key, modifiers: modifiers) }
    }
    func overrideStatusBar(_ values: StatusBarOverride) async throws(WebDriverError) {
        try await run {
            var current = await device.statusBar
            try values.apply(to: &current)
            await device.overrideStatusBar(current)
        }
    }
    func wait(_ duration: Duration) async throws(WebDriverError) { try await run { try await device.wait(duration) } }
    func screenshot() async throws(WebDriverError) -> PixelBuffer { await device.screenshot() }
    func now() async -> Duration { device.clock.now }

    static func translate(_ error: any Error) -> WebDriverError {
        if let error = error as? WebDriverError { return error }
        switch error as? DeviceError {
        case .elementNotFound?: return WebDriverError(.noSuchElement, "\(error)")
        case .elementNotHittable?: return WebDriverError(.elementNotInteractable, "\(error)")
        case .unknownApp?, .invalidRequest?: return .invalidArgument("\(error)")
        case .appNotRunning?: return WebDriverError(.invalidElementState, "\(error)")
        case .appCrashed?, .shutDown?, nil: return WebDriverError(.unknownError, ErrorSentence.describe(error))
        }
    }
}

/// A device booted with `showreel device boot`, driven over its automation API (`appium:udid`).
struct AttachedSessionDevice: SessionDevice {
    let client: DeviceClient
    let profile: DeviceProfile

    private func run<T>(_ body: () async throws -> T) async throws(WebDriverError) -> T {
        do { return try await body() } catch { throw Self.translate(error) }
    }

    func tree() async throws(WebDriverError) -> [ElementSnapshot] { try await run { try await client.tree() } }
    func foregroundApp() async throws(WebDriverError) -> String? { try await run { try await client.info().foregroundApp } }
    func installedApps() async throws(WebDriverError) -> [String] { try await run { try await client.info().installedApps } }
    func launch(_ bundle: String, arguments: [String], environment: [String: String]) async throws(WebDriverError) {
        try await run { _ = try await client.launch(bundle, arguments: arguments, environment: environment) }
    }
    func terminate(_ bundle: String) async throws(WebDriverError) { try await run { _ = try await client.terminate(bundle) } }
    func activate(_ bundle: String) async throws(WebDriverError) { try await run { _ = try await client.activate(bundle) } }
    func state(of bundle: String) async throws(WebDriverError) -> AppState { try await run { try await client.state(of: bundle).state } }
    func pressHome() async throws(WebDriverError) { try await run { try await client.pressHome() } }
    func tap(_ query: ElementQuery, count: Int) async throws(WebDriverError) {
        try await run { try await client.tap(AutomationAPI.Tap(query: query, count: count)) }
    }
    func press(_ query: ElementQuery, duration: Duration) async throws(WebDriverError) {
        try await run { try await client.tap(AutomationAPI.Tap(query: query, duration: duration.seconds)) }
    }
    func tap(at point: Point, hold: Duration) async throws(WebDriverError) {
        try await run { try await client.tap(AutomationAPI.Tap(point: point, duration: hold.seconds)) }
    }
    func type(_ text: String, into query: ElementQuery?) async throws(WebDriverError) {
        try await run { try await client.typeText(AutomationAPI.TypeText(text: text, query: query)) }
    }
    func key(_ key: String) async throws(WebDriverError) { try await run { try await client.tapKey(key) } }
    func drag(from: Point, to: Point, duration: Duration) async throws(WebDriverError) {
        try await run { try await client.swipe(AutomationAPI.Swipe(from: from, to: to, duration: duration.seconds)) }
    }
    func swipe(_ query: ElementQuery, _ direction: AutomationAPI.Direction) async throws(WebDriverError) {
        try await run { try await client.swipe(AutomationAPI.Swipe(query: query, direction: direction)) }
    }
    func shake() async throws(WebDriverError) { try await run { try await client.shake() } }
    func keyCommand(_ key: String, modifiers: [String]) async throws(WebDriverError) {
        try await run { try await client.keyCommand(key, modifiers: modifiers) }
    }
    func overrideStatusBar(_ values: StatusBarOverride) async throws(WebDriverError) {
        try await run { _ = try await client.overrideStatusBar(values) }
    }
    func wait(_ duration: Duration) async throws(WebDriverError) { try await run { try await client.wait(seconds: duration.seconds) } }
    func screenshot() async throws(WebDriverError) -> PixelBuffer {
        try await run { try PixelBuffer(pngData: Array(try await client.screenshot())) }
    }
    func now() async -> Duration { .seconds((try? await client.info().time) ?? 0) }

    static func translate(_ error: any Error) -> WebDriverError {
        if let error = error as? WebDriverError { return error }
        guard let failure = error as? DeviceClient.Failure else { return WebDriverError(.unknownError, ErrorSentence.describe(error)) }
        switch failure.statusCode {
        case 404: return failure.message.hasPrefix("No app") ? .invalidArgument(failure.message) : WebDriverError(.noSuchElement, failure.message)
        case 409: return WebDriverError(.elementNotInteractable, failure.message)
        case 400: return .invalidArgument(failure.message)
        default: return WebDriverError(.unknownError, failure.message)
        }
    }
}
