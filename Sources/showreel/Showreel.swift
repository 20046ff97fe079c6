import ArgumentParser

@main
struct Showreel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "showreel",
        abstract: "Run UI tests against a scripted app core and record every test as a video.",
        discussion: """
        Start with `showreel demo`: it boots a device in-process, records each sample scenario
        through the tunnel host into Recordings/, and writes Recordings/report.html.
        """,
        version: "0.1.0",
        subcommands: [DemoCommand.self, DeviceCommand.self, IOCommand.self, HostCommand.self]
    )
}
