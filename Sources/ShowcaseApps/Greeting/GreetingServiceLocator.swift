import ShowreelUI

/// What the Greeting app's screens get their dependencies from. The app picks one locator
/// at launch: the production one, or (debug builds) `ServiceLocatorForDebug` wrapping it.
public protocol GreetingServiceLocating: AnyObject {
    var stringService: StringService { get }
    var defaults: AppDefaults { get }
    var buildInfo: BuildInfo { get }
    /// Whether the debug drawer's defaults revert at each launch (release) or persist (debug).
    var debugDefaultsAreVolatile: Bool { get }
    /// What the app adds to the scene beside its window (the debug drawer in debug builds).
    var sceneAccessories: [any SceneAccessory] { get }
}

/// The debug drawer's settings, registered by every build (volatile in release, where no
/// drawer can change them, so a stray value never sticks).
public enum GreetingDebugDefaults {
    public static let useDefault = "useDefault"
    public static let customDebugMessage = "customDebugMessage"
    public static let registered: [String: DefaultsValue] = [useDefault: .bool(true), customDebugMessage: .string("")]
}

extension GreetingApp {
    /// The production locator: the real greeting, nothing extra on screen.
    public final class ServiceLocator: GreetingServiceLocating {
        public let defaults: AppDefaults
        public let buildInfo: BuildInfo
        public private(set) lazy var stringService: StringService = DefaultStringService()

        public init(context: LaunchContext) {
            defaults = AppDefaults(suite: GreetingApp.bundleIdentifier, context: context)
            buildInfo = BuildInfo(infoDictionary: GreetingApp.infoDictionary)
        }

        public var debugDefaultsAreVolatile: Bool { true }
        public var sceneAccessories: [any SceneAccessory] { [] }
    }
}
