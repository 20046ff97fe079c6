import Foundation
import ShowreelGraphics
import ShowreelUI
import ShowreelWire

/// What simctl does to a device from outside (`SystemAction`): its pasteboard, its URLs.
extension Device {
    func perform(_ action: SystemAction) async throws -> ActionResult {
        switch action {
        case let .setPasteboard(text):
            try await traced("set the pasteboard") { setPasteboard(text) }
            return .done
        case let .openURL(url):
            return .app(try await open(url: url))
        case let .setPermission(change):
            try await traced("privacy \(change.action.rawValue) \(change.service?.rawValue ?? "all") \(change.bundleIdentifier ?? "")") {
                try setPermission(change)
            }
            return .done
        case let .setLocation(coordinate):
            try await traced(coordinate.map { "set location \($0)" } ?? "clear location") { setLocation(coordinate) }
            return .done
        case let .travel(route):
            try await traced("travel \(route.waypoints.count) waypoints at \(route.speed) m/s") { travel(route) }
            return .done
        case let .push(bundle, payload):
            try await traced("push to \(bundle)") { try await push(payload, to: bundle) }
            return .done
        case let .setAirplaneMode(on):
            try await traced("airplane mode \(on ? "on" : "off")") { setAirplaneMode(on) }
            return .done
        case let .addMedia(file):
            try await traced("add \(file.name) to the photo library") { try addMedia(file) }
            return .done
        case let .setOrientation(orientation):
            try await setOrientation(orientation)
            return .done
        }
    }

    // MARK: Network

    /// Whether airplane mode is on.
    package func airplaneMode() -> Bool { scene.network.airplaneMode }

    /// Airplane mode on or off: apps observing the network hear of it, the status bar shows it.
    package func setAirplaneMode(_ on: Bool) {
        scene.setAirplaneMode(on)
        renderIfNeeded()
    }

    // MARK: Notifications

    /// Every notification delivered, oldest first.
    package func notifications() -> [SystemNotification] { scene.notifications.delivered }

    /// Delivers a notification to an app, as `simctl push`: its banner slides down over the
    /// screen and it joins the list. An app whose notifications were revoked gets none: that is
    /// refused, so a test does not wait for a banner that never comes.
    package func push(_ payload: PushPayload, to bundleIdentifier: String) async throws {
        try ensureBooted()
        guard let app = apps[bundleIdentifier] else { throw DeviceError.unknownApp(bundleIdentifier, installed: installedApps) }
        guard scene.permissions.status(of: .notifications, for: bundleIdentifier) != .denied else {
            throw DeviceError.invalidRequest(
                "\(bundleIdentifier) may not send notifications (they were revoked): grant them first, e.g. `showreel device privacy booted grant notifications \(bundleIdentifier)`."
            )
        }
        syncSceneTime()
        scene.deliver(
            SystemNotification(
                bundleIdentifier: bundleIdentifier, appName: app.displayName, title: payload.title, subtitle: payload.subtitle,
                body: payload.body, badge: payload.badge, time: clock.now.seconds))
        renderIfNeeded()
        startDisplayLinkIfNeeded()
        try await settle()
    }

    // MARK: Location

    /// The simulated location; nil while none is set.
    package func location() -> Coordinate? { scene.location.coordinate }

    /// Moves the device to `coordinate` (nil: no location), ending a route (`simctl location set`).
    package func setLocation(_ coordinate: Coordinate?) {
        syncSceneTime()
        scene.location.set(coordinate)
        renderIfNeeded()
    }

    /// Moves the location along `route` from now, once a second on the device clock; it ends at
    /// the last waypoint after `route.duration` (`simctl location start`).
    package func travel(_ route: LocationRoute) {
        syncSceneTime()
        scene.location.travel(route, from: clock.now)
        renderIfNeeded()
        startDisplayLinkIfNeeded()
    }

    // MARK: Permissions

    /// Grants, revokes or resets as `simctl privacy` does; an app that is not installed is refused.
    /// A revoke ends the app if it is running, as iOS does.
    package func setPermission(_ change: PermissionChange) throws {
        try ensureBooted()
        if let bundle = change.bundleIdentifier, apps[bundle] == nil {
            throw DeviceError.unknownApp(bundle, installed: installedApps)
        }
        let store = scene.permissions
        switch (change.action, change.service, change.bundleIdentifier) {
        case let (.reset, service, bundle):
            store.reset(service, of: bundle)
        case let (action, service, bundle?):
            for one in service.map({ [$0] }) ?? PrivacyService.allCases { store.set(change.status, for: one, of: bundle) }
            // iOS ends an app whose permission is taken away while it runs: it must ask again
            // from a fresh launch, and a test sees it stopped, as on a simulator.
            if action == .revoke { terminate(bundle) }
        case (_, _, nil):
            throw DeviceError.invalidRequest("\(change.action.rawValue) needs an app: name its bundle identifier.")
        }
    }

    /// The services `bundleIdentifier` was answered for.
    package func permissions(of bundleIdentifier: String) -> [PrivacyService: PermissionStatus] {
        scene.permissions.statuses(for: bundleIdentifier)
    }

    /// Tells the toolkit which app is in the foreground: the permission alert names it, and the
    /// interface turns to the orientations it supports.
    func foregroundDidChange() {
        turnInterface(animated: false)
        scene.permissions.activeApp = foregroundApp.flatMap { bundle in
            apps[bundle].map { PermissionStore.ActiveApp(bundleIdentifier: bundle, displayName: $0.displayName) }
        }
    }

    // MARK: Pasteboard

    /// The text on the device's pasteboard, shared by its apps (`simctl pbpaste`); empty when
    /// nothing was copied.
    package func pasteboard() -> String { scene.pasteboard.string ?? "" }

    /// Puts text on the pasteboard (`simctl pbcopy`); empty text empties it.
    package func setPasteboard(_ text: String) {
        scene.pasteboard.string = text.isEmpty ? nil : text
    }

    /// Whether a text field has focus (a paste has somewhere to go).
    package var hasFocusedTextField: Bool { scene.firstResponder != nil }

    // MARK: URLs

    /// Opens `url` in the app that declares its scheme, as `simctl openurl` does: the app is
    /// launched (or brought to the foreground) and handed the URL, and the device settles.
    /// A URL no installed app opens is refused with the schemes they do open.
    package func open(url: String) async throws -> AppStatus {
        try ensureBooted()
        guard let scheme = URLScheme.of(url), let parsed = URL(string: url) else {
            throw DeviceError.invalidRequest("'\(url)' is not a URL with a scheme, such as countries://country/CA.")
        }
        let owners = apps.values.filter { $0.urlSchemes.contains(scheme) }.sorted { $0.bundleIdentifier < $1.bundleIdentifier }
        guard let app = owners.first else {
            let known = apps.values.flatMap { app in app.urlSchemes.map { "\($0): (\(app.bundleIdentifier))" } }.sorted()
            throw DeviceError.invalidRequest(
                "No app on this device opens '\(scheme):' URLs. "
                    + (known.isEmpty ? "No installed app declares a URL scheme." : "Schemes apps open: \(known.joined(separator: ", ")).")
            )
        }
        return try await traced("open \(url)") {
            try await activate(app.bundleIdentifier)
            if let root = scene.appWindow.rootScreen { app.urlHandler?(parsed, root) }
            renderIfNeeded()
            startDisplayLinkIfNeeded()
            try await settle()
            return status(of: app.bundleIdentifier)
        }
    }
}
