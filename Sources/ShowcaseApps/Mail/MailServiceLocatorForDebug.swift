#if DEBUG
import ShowreelUI

extension MailApp {
    /// The debug locator: the production one, plus the debug window with the app's Quick Info.
    public final class ServiceLocatorForDebug: MailServiceLocating {
        public let production: ServiceLocator
        public private(set) lazy var sceneAccessories: [any SceneAccessory] = [
            DebugWindow { [session, environment, buildInfo] in
                [
                    DebugInfoItem("Environment", environment.name),
                    DebugInfoItem("Server", environment.host),
                    DebugInfoItem("Version", buildInfo.versionAndBuild),
                    DebugInfoItem("User", session.user ?? "Signed out"),
                ]
            }
        ]

        public init(wrapping production: ServiceLocator) { self.production = production }

        public var session: MailSession { production.session }
        public var environment: MailEnvironment { production.environment }
        public var buildInfo: BuildInfo { production.buildInfo }
    }
}
#endif
