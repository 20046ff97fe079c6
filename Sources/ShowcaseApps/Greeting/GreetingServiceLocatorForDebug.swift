#if DEBUG
import ShowreelUI

extension GreetingApp {
    /// The debug locator: the production one, with the greeting read through the debug
    /// drawer's settings and the drawer on screen. Its settings persist across launches.
    public final class ServiceLocatorForDebug: GreetingServiceLocating {
        public let production: ServiceLocator
        public private(set) lazy var stringService: StringService = StringServiceForDebug(
            production: production.stringService, defaults: production.defaults)
        public private(set) lazy var sceneAccessories: [any SceneAccessory] = [
            DebugDrawer { [defaults, buildInfo] in GreetingDebugFormForDebug(defaults: defaults, buildInfo: buildInfo) }
        ]

        public init(wrapping production: ServiceLocator) { self.production = production }

        public var defaults: AppDefaults { production.defaults }
        public var buildInfo: BuildInfo { production.buildInfo }
        public var debugDefaultsAreVolatile: Bool { false }
    }
}

/// The greeting as the debug drawer says: production's when `useDefault` is on, else the
/// custom message.
public final class StringServiceForDebug: StringService {
    let production: StringService
    let defaults: AppDefaults

    public init(production: StringService, defaults: AppDefaults) {
        self.production = production
        self.defaults = defaults
    }

    public var greeting: String {
        defaults.bool(forKey: GreetingDebugDefaults.useDefault)
            ? production.greeting : defaults.string(forKey: GreetingDebugDefaults.customDebugMessage) ?? ""
    }
}
#endif
