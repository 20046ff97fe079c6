import Foundation
import ShowreelGraphics

/// What an app is launched with: its arguments and environment, as `simctl launch` passes them.
public struct LaunchContext: Sendable, Equatable {
    public var arguments: [String]
    public var environment: [String: String]
    /// The device's languages, most preferred first: what the app gets when its arguments
    /// name none (`-AppleLanguages`); see `preferredLanguages`.
    public var deviceLanguages: [String]
    /// Where the app's missing translations are reported (the device's log), if anywhere.
    public var translationLog: MissingTranslationLog?

    public init(
        arguments: [String] = [], environment: [String: String] = [:], deviceLanguages: [String] = [],
        translationLog: MissingTranslationLog? = nil
    ) {
        self.arguments = arguments
        self.environment = environment
        self.deviceLanguages = deviceLanguages
        self.translationLog = translationLog
    }
}

/// An app the device can launch, registered by bundle identifier.
public struct AppDefinition: Sendable {
    public let bundleIdentifier: String
    public let displayName: String
    /// Builds the app's first screen. Throwing is the app stopping with a fatal error;
    /// the message reaches the automation API.
    public let makeRootScreen: @Sendable (LaunchContext) throws -> Screen
    /// The app's Info.plist: `CFBundleIdentifier`, `CFBundleShortVersionString` (version),
    /// `CFBundleVersion` (build), and whatever else the app keeps there.
    public let infoDictionary: [String: String]
    /// The URL schemes the app opens (`CFBundleURLSchemes`), lowercased: see `openingURLs`.
    public internal(set) var urlSchemes: [String] = []
    /// What the app does with a URL it is opened with, given its root screen.
    public internal(set) var urlHandler: (@Sendable (URL, Screen) -> Void)?
    /// The orientations the app's interface turns to (`UISupportedInterfaceOrientations`): all
    /// three unless it says otherwise (see `supportingOrientations`).
    public internal(set) var supportedOrientations: Set<DeviceOrientation> = Set(DeviceOrientation.allCases)

    public init(
        bundleIdentifier: String, displayName: String, version: String = "1.0", build: String = "1",
        makeRootScreen: @escaping @Sendable (LaunchContext) throws -> Screen
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.displayName = displayName
        self.makeRootScreen = makeRootScreen
        infoDictionary = AppDefinition.infoDictionary(
            bundleIdentifier: bundleIdentifier, displayName: displayName,
            version: version, build: build)
    }

    public static func infoDictionary(
        bundleIdentifier: String, displayName: String, version: String,
        build: String
    ) -> [String: String] {
        [
            "CFBundleIdentifier": bundleIdentifier, "CFBundleDisplayName": displayName,
            "CFBundleShortVersionString": version, "CFBundleVersion": build,
        ]
    }
}

/// The build facts an app shows about itself (debug menus, about screens), read from its
/// info dictionary.
public struct BuildInfo: Sendable, Equatable {
    public var version: String
    public var build: String
    public var bundleIdentifier: String

    public init(infoDictionary: [String: String]) {
        version = infoDictionary["CFBundleShortVersionString"] ?? "?"
        build = infoDictionary["CFBundleVersion"] ?? "?"
        bundleIdentifier = infoDictionary["CFBundleIdentifier"] ?? "?"
    }

    /// "1.4 (27)", as About screens and crash reports write it.
    public var versionAndBuild: String { "\(version) (\(build))" }
}

/// An app stopping on purpose, like Swift's `fatalError` in an iOS app, but reported.
public struct AppFatalError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
