import Logging
import ShowreelGraphics
import ShowreelUI
import ShowreelWire
import Synchronization

/// Turning the device (`simctl ui orientation`, `XCUIDevice.orientation`): the app on screen
/// turns with it when it supports the new orientation.
extension Device {
    /// How the interface is turned now: the device's orientation, or portrait for an app that
    /// does not support it.
    package var interfaceOrientation: DeviceOrientation { scene.orientation }

    /// How the device is held and the interface turned (the automation API's `GET /v1/orientation`).
    package func orientation() -> AutomationAPI.Orientation {
        AutomationAPI.Orientation(orientation: deviceOrientation, interfaceOrientation: interfaceOrientation)
    }

    /// The screen's size in points as it is now (turned on its side, wider than tall).
    package var screenPointSize: Size { scene.profile.pointSize }

    /// Holds the device `orientation`: the interface turns on the device clock (frames of the
    /// turn go to recorders), and the device settles once it is upright again.
    package func setOrientation(_ orientation: DeviceOrientation) async throws {
        try ensureBooted()
        try await traced("orientation \(orientation.argument)") {
            deviceOrientation = orientation
            turnInterface(animated: true)
            renderIfNeeded()
            startDisplayLinkIfNeeded()
            try await settle()
        }
    }

    /// Turns the interface to what the foreground app supports of the device's orientation
    /// (the home screen turns with the device).
    func turnInterface(animated: Bool) {
        let app = foregroundApp.flatMap { apps[$0] }
        let target = app?.interfaceOrientation(on: deviceOrientation) ?? deviceOrientation
        guard target != scene.orientation else { return }
        syncSceneTime()
        scene.setOrientation(target, animated: animated)
        let screen = scene.profile
        screenSize.withLock { $0 = screen.pointSize }
        display.screenDidTurn(to: screen)
        logger.info("interface turned \(target.argument), \(screen.pixelWidth)x\(screen.pixelHeight)")
    }
}
