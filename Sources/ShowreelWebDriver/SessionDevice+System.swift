import ShowreelGraphics
import ShowreelWire

/// What simctl does to a session's device from outside, as the driving vocabulary's values.
extension SessionDevice {
    func setPasteboard(_ text: String) async throws(WebDriverError) { try await perform(.setPasteboard(text)) }

    func pasteboard() async throws(WebDriverError) -> String {
        do { return try await driver.pasteboard() } catch { throw Self.translate(error) }
    }

    func setPermission(_ change: PermissionChange) async throws(WebDriverError) { try await perform(.setPermission(change)) }

    func permissions(of bundle: String) async throws(WebDriverError) -> [PrivacyService: PermissionStatus] {
        do { return try await driver.permissions(of: bundle) } catch { throw Self.translate(error) }
    }

    func setLocation(_ coordinate: Coordinate?) async throws(WebDriverError) { try await perform(.setLocation(coordinate)) }

    func location() async throws(WebDriverError) -> Coordinate? {
        do { return try await driver.location() } catch { throw Self.translate(error) }
    }

    func push(_ payload: PushPayload, to bundle: String) async throws(WebDriverError) { try await perform(.push(payload, to: bundle)) }

    func setAirplaneMode(_ on: Bool) async throws(WebDriverError) { try await perform(.setAirplaneMode(on)) }

    func airplaneMode() async throws(WebDriverError) -> Bool {
        do { return try await driver.airplaneMode() } catch { throw Self.translate(error) }
    }

    func addMedia(_ file: MediaFile) async throws(WebDriverError) { try await perform(.addMedia(file)) }

    func setOrientation(_ orientation: DeviceOrientation) async throws(WebDriverError) { try await perform(.setOrientation(orientation)) }

    func orientation() async throws(WebDriverError) -> AutomationAPI.Orientation {
        do { return try await driver.orientation() } catch { throw Self.translate(error) }
    }

    /// The screen's size in points as it is now: wider than tall while the app on screen is turned on its side.
    func screenSize() async throws(WebDriverError) -> Size {
        profile.oriented(try await orientation().interfaceOrientation ?? .portrait).pointSize
    }

    /// Opens a URL in the app owning its scheme; returns that app's bundle identifier.
    func open(url: String) async throws(WebDriverError) -> String {
        do { return try await driver.performForApp(.openURL(url)).bundleIdentifier } catch { throw Self.translate(error) }
    }
}
