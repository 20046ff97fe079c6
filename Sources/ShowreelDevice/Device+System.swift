import Foundation
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
        }
    }

    // MARK: Pasteboard

    /// The text on the device's pasteboard, shared by its apps (`simctl pbpaste`); empty when
    /// nothing was copied.
    public func pasteboard() -> String { scene.pasteboard.string ?? "" }

    /// Puts text on the pasteboard (`simctl pbcopy`); empty text empties it.
    public func setPasteboard(_ text: String) {
        scene.pasteboard.string = text.isEmpty ? nil : text
    }

    /// Whether a text field has focus (a paste has somewhere to go).
    package var hasFocusedTextField: Bool { scene.firstResponder != nil }

    // MARK: URLs

    /// Opens `url` in the app that declares its scheme, as `simctl openurl` does: the app is
    /// launched (or brought to the foreground) and handed the URL, and the device settles.
    /// A URL no installed app opens is refused with the schemes they do open.
    public func open(url: String) async throws -> AppStatus {
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
