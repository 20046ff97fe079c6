import ArgumentParser

@main
struct Showreel: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "showreel",
        abstract: "Run UI tests against a scripted app core and record every test as a video.",
        discussion: """
        Start with `showreel demo`: it boots a device in-process, records a scripted session
        through the tunnel host, and writes Recordings/demo.mov.
        """,
        version: "0.1.0",
        subcommands: [DemoCommand.self, DeviceCommand.self, IOCommand.self, HostCommand.self]
    )
}
