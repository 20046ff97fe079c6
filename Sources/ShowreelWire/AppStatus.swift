/// Where an app is in its life, as the automation API reports it (XCUIApplication.State).
public enum AppState: String, Codable, Sendable, CaseIterable {
    case notRunning, runningBackground, runningForeground
    /// Stopped with a fatal error; `AppStatus.message` says why.
    case crashed
}

public struct AppStatus: Codable, Equatable, Sendable {
    public var bundleIdentifier: String
    public var state: AppState
    public var message: String?

    public init(bundleIdentifier: String, state: AppState, message: String? = nil) {
        self.bundleIdentifier = bundleIdentifier; self.state = state; self.message = message
    }
}
