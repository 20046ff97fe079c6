import Foundation
import ShowreelGraphics
import ShowreelWire

/// What simctl does to a device from outside, for Swift tests: the pasteboard and URLs.
extension DeviceClient {
    /// Puts text on the device's pasteboard, shared by its apps (`simctl pbcopy`); empty text empties it.
    /// - Throws: `DeviceClient.Failure` for a text over `AutomationLimits.maxPasteboardLength` characters.
    public func setPasteboard(_ text: String) async throws {
        _ = try await perform(.setPasteboard(text))
    }

    /// Opens `url` in the app that declares its scheme, launching or activating it (`simctl
    /// openurl`), and returns that app's state once it is idle.
    /// - Throws: `DeviceClient.Failure` (400) when no installed app opens the URL's scheme.
    @discardableResult
    public func openURL(_ url: String) async throws -> AppStatus {
        try await performForApp(.openURL(url))
    }
}

/// `simctl location` for Swift tests.
extension DeviceClient {
    /// Puts the device at `coordinate` (nil: no location), ending a route.
    public func setLocation(_ coordinate: Coordinate?) async throws {
        _ = try await perform(.setLocation(coordinate))
    }

    /// Moves the location along `route` from now, on the device clock; it is at the last
    /// waypoint after `route.duration` of device time (wait for it to pass).
    public func travel(_ route: LocationRoute) async throws {
        _ = try await perform(.travel(route))
    }
}

/// `simctl push` for Swift tests.
extension DeviceClient {
    /// Delivers a notification to an app; returns once its banner has slid in.
    /// - Throws: `DeviceClient.Failure` for an app that is not installed or whose notifications were revoked.
    public func push(_ payload: PushPayload, to bundleIdentifier: String) async throws {
        _ = try await perform(.push(payload, to: bundleIdentifier))
    }
}

/// Connectivity for Swift tests.
extension DeviceClient {
    /// Airplane mode on (apps see no network) or off.
    public func setAirplaneMode(_ on: Bool) async throws {
        _ = try await perform(.setAirplaneMode(on))
    }
}

/// Orientation for Swift tests, as `XCUIDevice.shared.orientation` sets it.
extension DeviceClient {
    /// Holds the device `orientation`; returns once the app on screen has turned (when it
    /// supports the orientation) and is idle.
    public func setOrientation(_ orientation: DeviceOrientation) async throws {
        _ = try await perform(.setOrientation(orientation))
    }
}

/// `simctl addmedia` for Swift tests.
extension DeviceClient {
    /// Adds pictures (PNG, JPEG) and videos (MOV, MP4) to the device's photo library, in order
    /// (the last shows first in the picker).
    /// - Throws: `DeviceClient.Failure` for a file that is not a picture or a video the device can decode.
    public func addMedia(_ files: [URL]) async throws {
        for file in files {
            _ = try await perform(.addMedia(MediaFile(name: file.lastPathComponent, data: try Data(contentsOf: file))))
        }
    }
}
