import ShowreelGraphics

extension AppDefinition {
    /// The app, turning its interface only to `orientations` (its `UISupportedInterfaceOrientations`):
    /// on a device held another way it stays as it is, in portrait when portrait is among them.
    ///
    ///     AppDefinition(bundleIdentifier: "dev.example.form", displayName: "Form") { _ in FormScreen() }
    ///         .supportingOrientations([.portrait])
    public func supportingOrientations(_ orientations: Set<DeviceOrientation>) -> AppDefinition {
        var app = self
        app.supportedOrientations = orientations.isEmpty ? [.portrait] : orientations
        return app
    }

    /// The orientation the app shows on a device held `device`: that one when the app supports
    /// it, else portrait (or the first it supports).
    public func interfaceOrientation(on device: DeviceOrientation) -> DeviceOrientation {
        if supportedOrientations.contains(device) { return device }
        if supportedOrientations.contains(.portrait) { return .portrait }
        return DeviceOrientation.allCases.first { supportedOrientations.contains($0) } ?? .portrait
    }
}
