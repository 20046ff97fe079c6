import Foundation
import ShowreelAccessibility
import ShowreelDevice
import ShowreelGraphics
import ShowreelRender
import ShowreelTesting
import ShowreelWire

/// A session's device as WebDriver commands use it, and the only place that calls one: each
/// call is a `DeviceAction` (or a query) handed to a `DeviceDriver`, the in-process `Device` this
/// server booted or a `DeviceClient` over a booted device's automation API (`appium:udid`).
/// The driver checks the action's limits and does the work; its errors come back as WebDriver errors.
struct SessionDevice: Sendable {
    let driver: any DeviceDriver
    let profile: DeviceProfile

    func perform(_ action: DeviceAction) async throws(WebDriverError) {
        do { _ = try await driver.perform(action) } catch { throw Self.translate(error) }
    }

    private func read<T>(_ body: () async throws -> T) async throws(WebDriverError) -> T {
        do { return try await body() } catch { throw Self.translate(error) }
    }

    // MARK: Reading the screen

    func tree() async throws(WebDriverError) -> [ElementSnapshot] { try await read { try await driver.tree() } }
    func info() async throws(WebDriverError) -> AutomationAPI.DeviceInfo { try await read { try await driver.info() } }
    func foregroundApp() async throws(WebDriverError) -> String? { try await info().foregroundApp }
    func installedApps() async throws(WebDriverError) -> [String] { try await info().installedApps }
    func state(of bundle: String) async throws(WebDriverError) -> AppState { try await read { try await driver.status(of: bundle).state } }
    func screenshotPNG() async throws(WebDriverError) -> [UInt8] { try await read { Array(try await driver.screenshotPNG()) } }
    func screenshot() async throws(WebDriverError) -> PixelBuffer {
        let png = try await screenshotPNG()
        return try await read { try PixelBuffer(pngData: png) }
    }
    /// Device time now (what recordings' step times count in).
    func now() async -> Duration { .seconds((try? await driver.info().time) ?? 0) }

    // MARK: Actions, as the driving vocabulary's values

    func launch(_ bundle: String, arguments: [String], environment: [String: String]) async throws(WebDriverError) {
        try await perform(.launch(bundle: bundle, arguments: arguments, environment: environment))
    }
    func terminate(_ bundle: String) async throws(WebDriverError) { try await perform(.terminate(bundle: bundle)) }
    func activate(_ bundle: String) async throws(WebDriverError) { try await perform(.activate(bundle: bundle)) }
    func pressHome() async throws(WebDriverError) { try await perform(.pressHome) }
    func tap(_ query: ElementQuery, count: Int = 1) async throws(WebDriverError) {
        try await perform(.tap(.init(.element(query), count: count)))
    }
    func tap(at point: Point, count: Int = 1, hold: Duration = DeviceAction.Defaults.tapHold) async throws(WebDriverError) {
        try await perform(.tap(.init(.point(point), count: count, hold: hold)))
    }
    func type(_ text: String, into query: ElementQuery?) async throws(WebDriverError) {
        try await perform(.typeText(.init(text, into: query)))
    }
    func key(_ key: String) async throws(WebDriverError) { try await perform(.pressKey(key)) }
    func drag(from: Point, to: Point, duration: Duration) async throws(WebDriverError) {
        try await perform(.swipe(.init(.points(from: from, to: to), duration: duration)))
    }
    func swipe(_ query: ElementQuery, _ direction: DeviceAction.Direction) async throws(WebDriverError) {
        try await perform(.swipe(.init(.element(query, direction))))
    }
    /// A swipe on the screen (no element) from its centre, `direction`.
    func swipeScreen(_ direction: DeviceAction.Direction) async throws(WebDriverError) {
        let screen = try await screenSize()
        try await perform(.swipe(.init(.from(Point(x: screen.width / 2, y: screen.height / 2), direction))))
    }
    func scroll(_ direction: DeviceAction.Direction) async throws(WebDriverError) { try await perform(.scroll(direction)) }
    func shake() async throws(WebDriverError) { try await perform(.shake) }
    func keyCommand(_ key: String, modifiers: [String]) async throws(WebDriverError) {
        guard let set = KeyModifiers(names: modifiers) else {
            throw .invalidArgument("Unknown modifiers \(modifiers.joined(separator: "+")): use command, shift, option, control.")
        }
        try await perform(.keyCommand(.init(key, modifiers: set)))
    }
    func overrideStatusBar(_ values: StatusBarOverride) async throws(WebDriverError) { try await perform(.overrideStatusBar(values)) }
    func wait(_ duration: Duration) async throws(WebDriverError) { try await perform(.wait(duration)) }

    /// The WebDriver error for a device's error: by its kind in process, by its HTTP status over the wire.
    static func translate(_ error: any Error) -> WebDriverError {
        if let error = error as? WebDriverError { return error }
        if let error = error as? DeviceError {
            switch error {
            case .elementNotFound: return WebDriverError(.noSuchElement, "\(error)")
            case .elementNotHittable: return WebDriverError(.elementNotInteractable, "\(error)")
            case .unknownApp, .invalidRequest: return .invalidArgument("\(error)")
            case .appNotRunning: return WebDriverError(.invalidElementState, "\(error)")
            default: return WebDriverError(.unknownError, "\(error)")
            }
        }
        let message = (error as? DeviceClient.Failure)?.message ?? ErrorSentence.describe(error)
        let status = (error as? DeviceClient.Failure)?.statusCode ?? (error as? any HTTPStatusError)?.httpStatus ?? 500
        switch status {
        case 404: return message.hasPrefix("No app") ? .invalidArgument(message) : WebDriverError(.noSuchElement, message)
        case 409: return WebDriverError(.elementNotInteractable, message)
        case 400: return .invalidArgument(message)
        default: return WebDriverError(.unknownError, message)
        }
    }
}
