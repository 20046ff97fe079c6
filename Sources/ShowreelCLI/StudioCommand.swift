import ArgumentParser
import Foundation
import Logging
import ShowreelFlows
import ShowreelGraphics
import ShowreelStudio
import ShowreelWire

/// `showreel studio`: author a flow on a live device in the browser.
struct StudioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "Author a flow on a live device in your browser: what you do there is recorded into the flow file.",
        discussion: """
            Boots an in-process device and serves one page on loopback; prints its URL (with this run's \
            token) on stdout. A new FLOW gets its header from the options and a launchApp step; an existing \
            one is replayed first (its own header wins over the options) and recording goes on at its end. \
            The file is written after every step, atomically, as `run` reads it. Stop with Ctrl-C.
            """)

    @Argument(help: "The flow file to write (.yaml or .yml); created when missing.")
    var flow: String

    @Option(help: "A new flow's app (its appId).")
    var app: String?

    @Option(help: "A new flow's device profile (phone, phone-3x, phone-small, tablet).")
    var device: String?

    @Option(help: "A new flow's device language, e.g. de.")
    var language: String?

    @Option(help: "A new flow's appearance: light or dark.")
    var appearance: String?

    @Option(help: "TCP port on 127.0.0.1 (0 picks a free one).")
    var port = 0

    @Flag(name: .shortAndLong, help: "Log requests and the device to stderr.")
    var verbose = false

    @Argument(parsing: .postTerminator, help: "A new flow's launch arguments, after --.")
    var launchArguments: [String] = []

    func validate() throws {
        guard flow.hasSuffix(".yaml") || flow.hasSuffix(".yml") else {
            throw ValidationError("\(flow) is not a flow file: flows end in .yaml or .yml")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535, got \(port)") }
        if let device, DeviceProfile.named(device) == nil {
            let profiles = DeviceProfile.all.map(\.name)
            let hint = Spelling.hint(for: device, in: profiles)
            throw ValidationError("unknown device profile '\(device)'\(hint) (profiles: \(profiles.joined(separator: ", ")))")
        }
        if let appearance, !["light", "dark"].contains(appearance) {
            throw ValidationError("--appearance must be light or dark, got '\(appearance)'")
        }
        if let app, !ShowreelConfiguration.current.bundleIdentifiers.contains(app) {
            let installed = ShowreelConfiguration.current.bundleIdentifiers
            throw ValidationError(
                "unknown app '\(app)'\(Spelling.hint(for: app, in: installed)) (installed: \(ShowreelConfiguration.current.appList))")
        }
    }

    func run() async throws {
        try await reportingFailures {
            var logger = Logger(label: "showreel.studio") { label in StreamLogHandler.standardError(label: label) }
            logger.logLevel = verbose ? .info : .warning
            let url = URL(fileURLWithPath: flow, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
                .standardizedFileURL
            guard FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path) else {
                throw CLIFailure(message: "the folder of \(flow) does not exist", exitCode: CLIFailure.Code.usage)
            }
            let configuration = StudioConfiguration(
                flow: url, appId: app, profile: device, language: language, appearance: appearance, launchArguments: launchArguments,
                apps: ShowreelConfiguration.current.apps, port: port, logger: logger)
            let session: StudioSession
            do { session = try await StudioSession.open(configuration) } catch let error as StudioError {
                // As `run` prints them.
                for problem in error.diagnostics { Console.status("\(problem.location): error: \(problem.message)") }
                throw CLIFailure(message: error.description, exitCode: CLIFailure.Code.usage)
            }
            if let notice = await session.state.notice { Console.warning(notice) }
            let server = StudioServer(session: session)
            let result = await serveUntilTerminated {
                try await server.run { address in
                    Console.out(address)
                    Console.status("Studio for \(flow): open the address above in a browser. Stop with Ctrl-C.")
                }
            }
            await session.shutdown()
            if case let .failure(error) = result { throw CLIFailure(message: "\(error)", exitCode: 1) }
        }
    }
}
