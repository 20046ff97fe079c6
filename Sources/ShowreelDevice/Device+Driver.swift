import Foundation
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelRender
import ShowreelUI
import ShowreelWire
import Synchronization

/// The in-process transport: the device performs actions by calling its toolkit directly.
extension Device: DeviceDriver {
    /// What one request may ask of this device: its screen bounds the points.
    package nonisolated var limits: AutomationLimits { AutomationLimits(screen: screenSize.withLock { $0 }) }

    /// Performs `action` once it is checked, after the actions asked for before it: each
    /// awaits device time, and two taps interleaved there would land one finger on top of the
    /// other (the second acknowledged and lost). Queued, every action that returned happened.
    package func perform(_ action: DeviceAction) async throws -> ActionResult {
        do { try action.validate(limits) } catch { throw DeviceError.invalidRequest(error.description) }
        return try await actionQueue.run { try await self.performNow(action) }
    }

    private func performNow(_ action: DeviceAction) async throws -> ActionResult {
        switch action {
        case let .launch(bundle, arguments, environment):
            return .app(try await launch(bundle, context: LaunchContext(arguments: arguments, environment: environment)))
        case let .terminate(bundle):
            terminate(bundle)
            return .app(status(of: bundle))
        case let .activate(bundle):
            try await activate(bundle)
            return .app(status(of: bundle))
        case .pressHome:
            pressHome()
        case let .tap(tap):
            try await perform(tap)
        case let .typeText(typing):
            try await typeText(typing.text, into: typing.into, keyDelay: typing.keyDelay, jitter: typing.jitter, seed: typing.seed)
        case let .pressKey(key):
            try await tapKey(key)
        case let .keyCommand(command):
            try await keyCommand(command)
        case let .swipe(swipe):
            try await self.swipe(swipe)
        case let .scroll(direction):
            try await scroll(direction)
        case .shake:
            try await shake()
        case let .wait(duration):
            try await wait(duration)
        case let .waitFor(condition):
            let start = clock.now
            let matched = try await waitFor(
                condition.query, exists: condition.exists, hittable: condition.hittable, timeout: condition.timeout)
            return .waited(AutomationAPI.WaitResult(matched: matched, waited: (clock.now - start).seconds))
        case let .waitForState(bundle, state, timeout):
            let start = clock.now
            let matched = try await wait(for: state, of: bundle, timeout: timeout)
            return .waited(AutomationAPI.WaitResult(matched: matched, waited: (clock.now - start).seconds))
        case let .overrideStatusBar(override):
            var values = statusBar
            try override.apply(to: &values)
            overrideStatusBar(values)
            return .statusBar(StatusBarOverride(values))
        case .clearStatusBar:
            clearStatusBarOverrides()
            return .statusBar(StatusBarOverride(statusBar))
        case let .setInterfaceStyle(style):
            setInterfaceStyle(style)
        case let .system(action):
            return try await perform(action)
        }
        return .done
    }

    /// A tap on an element or a point; held longer than a tap, it is a press.
    private func perform(_ tap: DeviceAction.Tap) async throws {
        switch tap.target {
        case let .element(query) where tap.hold != DeviceAction.Defaults.tapHold:
            for _ in 0..<tap.count { try await press(query, duration: tap.hold) }
        case let .element(query):
            try await self.tap(query, count: tap.count)
        case let .point(point):
            for _ in 0..<tap.count { try await self.tap(at: point, hold: tap.hold) }
        }
    }

    package func screenshotPNG() async throws -> Data { Data(screenshot().pngData()) }

    package func info() async throws -> AutomationAPI.DeviceInfo {
        AutomationAPI.DeviceInfo(
            udid: udid, name: name, profile: profile.name, clock: clock.kind, time: clock.now.seconds,
            installedApps: installedApps, foregroundApp: foregroundApp)
    }
}
