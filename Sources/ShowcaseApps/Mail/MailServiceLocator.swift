import ShowreelUI

/// What the Mail app's screens get their dependencies from. The app picks one locator at
/// launch: the production one, or (debug builds) `ServiceLocatorForDebug` wrapping it.
public protocol MailServiceLocating: AnyObject {
    var session: MailSession { get }
    var environment: MailEnvironment { get }
    var buildInfo: BuildInfo { get }
    /// What the app adds to the scene beside its window (the debug window in debug builds).
    var sceneAccessories: [any SceneAccessory] { get }
}

extension MailApp {
    /// The production locator: the environment the launch arguments pick, a signed-in session.
    public final class ServiceLocator: MailServiceLocating {
        public let session = MailSession(user: "kate.bell@showreel.dev")
        public let buildInfo = BuildInfo(infoDictionary: MailApp.infoDictionary)
        private let environmentProvider: Provider<MailEnvironment>
        public let environment: MailEnvironment

        public init(context: LaunchContext) throws {
            environmentProvider = Provider(
                MailApp.environmentArgument, in: context, default: "production",
                choices: [
                    "production": { .production },
                    "staging": { .staging },
                ])
            environment = try environmentProvider.value()
        }

        public var sceneAccessories: [any SceneAccessory] { [] }
    }
}
