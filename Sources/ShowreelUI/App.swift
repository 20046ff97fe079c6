/// What an app is launched with: its arguments and environment, as `simctl launch` passes them.
public struct LaunchContext: Sendable, Equatable {
    public var arguments: [String]
    public var environment: [String: String]

    public init(arguments: [String] = [], environment: [String: String] = [:]) {
        self.arguments = arguments
        self.environment = environment
    }
}

/// An app the device can launch, registered by bundle identifier.
public struct AppDefinition: Sendable {
    public let bundleIdentifier: String
    public let displayName: String
    /// Builds the app's first screen. Throwing is the app stopping with a fatal error;
    /// the message reaches the automation API.
    public let makeRootScreen: @Sendable (LaunchContext) throws -> Screen

    public init(bundleIdentifier: String, displayName: String,
                makeRootScreen: @escaping @Sendable (LaunchContext) throws -> Screen) {
        self.bundleIdentifier = bundleIdentifier
        self.displayName = displayName
        self.makeRootScreen = makeRootScreen
    }
}

/// An app stopping on purpose, like Swift's `fatalError` in an iOS app, but reported.
public struct AppFatalError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
