import ArgumentParser
import Foundation
import Logging
import ShowreelHost
import ShowreelWire

/// `showreel host`: the tunnel host that runs commands for test runners.
struct HostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Run the tunnel host: executes, launches and signals commands for test runners.",
        discussion: """
            Speaks the SBTUITestTunnelHost protocol (POST /exec, /launch, /status, /interrupt, \
            /terminate) so existing iOS test suites work unchanged, and a JSON API under /v1 \
            (GET /v1/health, POST /v1/commands, ...). Commands run without a shell, each in its \
            own process group. On SIGINT or SIGTERM the host terminates the commands it started \
            (SIGTERM, then SIGKILL after the grace period) and exits 0; if the host is killed, \
            its commands get SIGKILL from the kernel (Linux) and the next host ends what they \
            started themselves (recorded under $SHOWREEL_HOME/host). With a token, every endpoint but \
            GET /v1/health requires it. Binding beyond loopback needs --token and --allow-from.
            """
    )

    @Option(help: "TCP port to listen on (0 picks a free one).")
    var port: Int = 8667

    @Option(help: "Address to bind. The default (127.0.0.1, and ::1 beside it) only accepts connections from this machine.")
    var bind: String = "127.0.0.1"

    @Option(
        help:
            "Token every endpoint but /v1/health requires (Authorization: Bearer, X-Showreel-Token, or the legacy form field showreel_token). Also read from SHOWREEL_HOST_TOKEN."
    )
    var token: String?

    @Option(
        name: .customLong("allow-from"),
        help: ArgumentHelp(
            "Answer only clients from this address or CIDR block (repeatable, e.g. 10.0.0.0/8). Required with a non-loopback --bind.",
            valueName: "address"))
    var allowFrom: [String] = []

    @Option(
        name: .customLong("allow"),
        help: ArgumentHelp(
            "Allow only this program (repeatable; a name on PATH or an absolute path). Default: any program.", valueName: "program"))
    var allow: [String] = []

    @Option(help: "Seconds commands get between SIGTERM and SIGKILL when the host stops.")
    var grace: Double = 3

    @Option(
        help: ArgumentHelp(
            "Copies of showreel kept loaded and waiting for the next recorders, so each starts at once (0 to 64; default: one per core; 0: none).",
            valueName: "count"))
    var standbys: Int?

    @Flag(name: .shortAndLong, help: "Log every command and request to stderr.")
    var verbose = false

    func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535, got \(port)")
        }
        if let problem = SecondsLimit(max: 3600).problem(with: grace) {
            throw ValidationError("--grace \(problem)")
        }
        if let standbys, !(0...64).contains(standbys) {
            throw ValidationError("--standbys must be between 0 and 64, got \(standbys)")
        }
        if let token, token.isEmpty {
            throw ValidationError("--token must not be empty; leave it out to run without a token")
        }
    }

    func run() async throws {
        try await reportingFailures { try await serve() }
    }

    private func serve() async throws {
        MemoryRelease.preferMappedLargeAllocations()
        var logger = Logger(label: "showreel.host") { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = verbose ? .debug : .warning

        let environmentToken = ProcessInfo.processInfo.environment["SHOWREEL_HOST_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        let configuration = TunnelHostConfiguration(
            bindAddress: bind,
            port: port,
            token: token ?? environmentToken,
            allowedPrograms: allow.isEmpty ? nil : allow,
            allowedClients: allowFrom.isEmpty ? nil : allowFrom,
            gracePeriod: .milliseconds(Int((grace * 1000).rounded())),
            stateDirectory: DeviceRegistry.defaultHome().appendingPathComponent("host", isDirectory: true).path,
            // Stopped through `SignalTrap` below, which also takes a signal sent while the
            // process was starting (see `EarlySignalHold.swift`).
            handlesSignals: false,
            // `showreel ...` runs as this executable when PATH has no `showreel`: a recorder
            // launched through the host then works from a package's own executable too.
            programsRunAsHost: ["showreel": OwnExecutable.path],
            // A test's `showreel io ... recordVideo` starts in a waiting copy of this executable.
            standbyExecutable: OwnExecutable.path,
            standbys: standbys ?? TunnelHostConfiguration.defaultStandbys
        )
        do {
            try configuration.validate()
        } catch let problem as TunnelHostConfiguration.Problem {
            throw CLIFailure(message: problem.message, exitCode: CLIFailure.Code.usage)
        }
        for program in allow where !program.contains("/") && Self.which(program) == nil && program != "showreel" {
            logger.warning("--allow \(program): not found on PATH; it will be refused until it is installed")
        }
        let display = bind.contains(":") ? "[\(bind)]" : bind
        let host = TunnelHost(configuration: configuration, logger: logger)
        let serving = Task {
            try await host.run { boundPort in
                FileHandle.standardError.write(Data(HostAPI.ListeningLine.text(address: display, port: boundPort).utf8))
            }
        }
        // SIGINT or SIGTERM: cancelling the host shuts it down gracefully (its commands first).
        let trap = SignalTrap { _ in serving.cancel() }
        defer { trap.cancel() }
        do {
            try await serving.value
        } catch is CancellationError {
        } catch let taken as LoopbackPortTaken {
            throw CLIFailure(message: taken.description, exitCode: 1)
        } catch {
            let text = "\(error)"
            if text.contains("Address already in use") {
                throw CLIFailure(
                    message:
                        "cannot listen on \(display):\(port): the address is already in use (is another tunnel host running? pick another --port, or --port 0 for a free one)",
                    exitCode: 1)
            }
            if text.contains("Cannot assign requested address") || text.contains("not available") {
                throw CLIFailure(
                    message: "cannot bind \(bind): not an address of this machine (use 127.0.0.1, ::1 or 0.0.0.0)", exitCode: 1)
            }
            throw error
        }
    }

    private static func which(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
