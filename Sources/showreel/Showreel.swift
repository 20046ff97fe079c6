import ArgumentParser

@main
struct Showreel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "showreel",
        abstract: "Run UI tests against a scripted app core and record every test as a video.",
        discussion: """
            Start with `showreel run Fixtures/Flows`: each YAML flow runs on its own in-process device
            and is recorded into Recordings/, with report.html, junit.xml and manifest.json.
            """,
        version: "0.1.0",
        subcommands: [
            RunCommand.self, ReportCommand.self, ReelCommand.self, PreviewCommand.self, DiffCommand.self, DemoCommand.self,
            DeviceCommand.self, DisplayCommand.self, IOCommand.self, HostCommand.self, WebDriverCommand.self,
        ]
    )
}
