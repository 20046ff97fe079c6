import Foundation

extension AppDefinition {
    /// The app, opening URLs of `schemes` (its `CFBundleURLTypes`): the device launches or
    /// activates it with such a URL and calls `open` with the URL and the app's root screen,
    /// as `scene(_:openURLContexts:)` is called on iOS.
    ///
    ///     AppDefinition(bundleIdentifier: "dev.example.shop", displayName: "Shop") { _ in ShopScreen() }
    ///         .openingURLs(schemes: ["shop"]) { url, root in (root as? ShopScreen)?.show(url) }
    public func openingURLs(schemes: [String], _ open: @escaping @Sendable (URL, Screen) -> Void) -> AppDefinition {
        var app = self
        app.urlSchemes = schemes.map { $0.lowercased() }
        app.urlHandler = open
        return app
    }
}
