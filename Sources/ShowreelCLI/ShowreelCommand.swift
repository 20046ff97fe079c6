import ArgumentParser
import Foundation
import ShowreelUI

/// Every `showreel` verb, run with the apps a package installs: the bundled `showreel` is this
/// command with the sample apps, and a team's own executable is this command with its app.
///
/// ```swift
/// import ShowreelCLI
///
/// @main struct Counter {
///     static func main() async { await ShowreelCommand.main(apps: [CounterApp.definition]) }
/// }
/// ```
public struct ShowreelCommand: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: ShowreelConfiguration.current.commandName,
            abstract: "Run UI tests against a scripted app core and record every test as a video.",
            discussion: """
                Start with `\(ShowreelConfiguration.current.commandName) run <folder of flows>`: each YAML flow runs on its own in-process \
                device and is recorded into Recordings/, with report.html, junit.xml and manifest.json. Installed apps: \
                \(ShowreelConfiguration.current.appList).
                """,
            version: "0.1.0",
            subcommands: [
                RunCommand.self, ReportCommand.self, ReelCommand.self, PreviewCommand.self, DiffCommand.self, DemoCommand.self,
                DeviceCommand.self, DisplayCommand.self, IOCommand.self, HostCommand.self, WebDriverCommand.self, StudioCommand.self,
                InitCommand.self,
            ]
        )
    }

    public init() {}

    /// Parses the process's arguments and runs the verb they name with `apps` installed on every
    /// device it boots (flows, `device boot`, `webdriver`, `demo`); exits with the verb's status.
    public static func main(apps: [AppDefinition]) async {
        await main(configuration: ShowreelConfiguration(apps: apps))
    }

    /// As `main(apps:)`, with everything a package sets. Started by a tunnel host as its standby,
    /// the arguments are the ones the host hands it later.
    public static func main(configuration: ShowreelConfiguration) async {
        let arguments = StandbyStart.arguments()
        await ShowreelConfiguration.$current.withValue(configuration) { await Self.main(arguments) }
    }
}

/// What a package hands the CLI: the apps its devices install, and the name its help uses.
public struct ShowreelConfiguration: Sendable {
    /// The apps every device the CLI boots installs, and the `appId`s flows may name.
    public var apps: [AppDefinition]
    /// The executable's name as help and hints spell it (default: the name it was run by).
    public var commandName: String

    public init(apps: [AppDefinition], commandName: String? = nil) {
        self.apps = apps
        self.commandName = commandName ?? ShowreelConfiguration.invokedName()
    }

    /// The configuration of the running command (set by `ShowreelCommand.main`).
    @TaskLocal static var current = ShowreelConfiguration(apps: [], commandName: "showreel")

    /// The apps' bundle identifiers.
    var bundleIdentifiers: [String] { apps.map(\.bundleIdentifier) }

    /// The apps' bundle identifiers for help text.
    var appList: String { apps.isEmpty ? "none" : bundleIdentifiers.joined(separator: ", ") }

    /// An installed app's bundle identifier for examples in help text.
    var exampleApp: String { apps.first?.bundleIdentifier ?? "com.example.app" }

    private static func invokedName() -> String {
        let name = URL(fileURLWithPath: CommandLine.arguments.first ?? "showreel").lastPathComponent
        return name.isEmpty ? "showreel" : name
    }
}
