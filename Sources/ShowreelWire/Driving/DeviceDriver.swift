import Foundation
import ShowreelAccessibility
import ShowreelGraphics

/// Something that drives a device: performs `DeviceAction`s and reads its screen. The
/// in-process `Device` is one (it calls its toolkit); `DeviceClient` is another (it sends the
/// same actions over the device's automation API). Front ends translate their requests into
/// actions and hand them to a driver, whichever transport it is.
public protocol DeviceDriver: Sendable {
    /// Performs `action` once it is checked against the device's limits.
    func perform(_ action: DeviceAction) async throws -> ActionResult
    /// The elements matching `query` in the current element tree (none is not an error).
    func elements(_ query: ElementQuery) async throws -> [ElementSnapshot]
    /// The one element `query` names; throws with what the screen has instead when there is none.
    func element(_ query: ElementQuery) async throws -> ElementSnapshot
    /// The whole element tree, depth first.
    func tree() async throws -> [ElementSnapshot]
    /// The screen as a PNG.
    func screenshotPNG() async throws -> Data
    /// An app's state.
    func status(of bundleIdentifier: String) async throws -> AppStatus
    /// The device: its name, profile, clock and apps.
    func info() async throws -> AutomationAPI.DeviceInfo
    /// The text on the device's pasteboard (`simctl pbpaste`); empty when nothing was copied.
    func pasteboard() async throws -> String
    /// The services an app was answered for (`simctl privacy`); ones never asked are left out.
    func permissions(of bundleIdentifier: String) async throws -> [PrivacyService: PermissionStatus]
    /// The simulated location (`simctl location`); nil while none is set.
    func location() async throws -> Coordinate?
    /// Every notification delivered (`simctl push`), oldest first.
    func notifications() async throws -> [SystemNotification]
    /// Whether airplane mode is on.
    func airplaneMode() async throws -> Bool
    /// How the device is held, and how the app on screen is turned.
    func orientation() async throws -> AutomationAPI.Orientation
}

extension DeviceDriver {
    /// Performs an action whose answer is an app's state.
    @discardableResult
    public func performForApp(_ action: DeviceAction) async throws -> AppStatus {
        guard case let .app(status) = try await perform(action) else { throw DriverAnswerError(action: action) }
        return status
    }

    /// Performs a wait and says whether its condition was met.
    public func performWait(_ action: DeviceAction) async throws -> AutomationAPI.WaitResult {
        guard case let .waited(result) = try await perform(action) else { throw DriverAnswerError(action: action) }
        return result
    }
}

/// A driver answered an action with the wrong kind of result (a bug in the driver).
package struct DriverAnswerError: Error, CustomStringConvertible {
    public let action: DeviceAction
    public var description: String { "the device answered \(action) with an unexpected kind of result" }
}
