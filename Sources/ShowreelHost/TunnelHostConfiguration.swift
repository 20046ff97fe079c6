import Foundation
import ShowreelHTTP

/// How a ``TunnelHost`` listens and what it lets callers run.
public struct TunnelHostConfiguration: Sendable {
    /// The address to bind: `127.0.0.1` (default, this machine only; the host then listens on
    /// `::1` too, where `localhost` may resolve first), `::1`, `0.0.0.0`, ...
    public var bindAddress: String
    /// The TCP port; 0 picks a free one (reported to `run(onListening:)`).
    public var port: Int
    /// When set, every endpoint but `GET /v1/health` requires it: `Authorization: Bearer <token>`,
    /// `X-Showreel-Token: <token>`, or (legacy endpoints) the form field `showreel_token`.
    public var token: String?
    /// Addresses or CIDR blocks clients must come from (`10.0.0.7`, `10.0.0.0/8`); nil answers
    /// anyone who can connect. Required, with a token, to bind beyond loopback.
    public var allowedClients: [String]?
    /// Programs callers may run (names looked up on the host's PATH, or absolute paths);
    /// nil or empty allows any program.
    public var allowedPrograms: [String]?
    /// How long children get between SIGTERM and SIGKILL when the host shuts down.
    public var gracePeriod: Duration
    /// How long legacy `/interrupt` and `/terminate` wait for the command to exit before
    /// answering with its status (the original answered at once, still running), and the
    /// default `timeout` of v1 `interrupt|terminate?wait=true` before SIGKILL.
    public var signalWait: Duration
    /// How long after its start a command may take to install its handler for a signal the host
    /// is asked to send (see `SignalReadiness`); after that the signal goes out regardless.
    public var signalReadinessBound: Duration = .seconds(3)
    /// Bytes of output kept per command (both streams together); the oldest are dropped first.
    public var outputLimit: Int
    /// Finished commands kept for `/status` and `GET /v1/commands/{id}`; the oldest are forgotten.
    public var retainedFinishedCommands: Int
    /// Bytes of finished commands' output kept in memory, all together; older output moves to
    /// files in a private temporary folder and is read back when asked for.
    public var retainedOutputMemory: Int
    /// Where the host records its commands' sessions, so that the next host started with the same
    /// folder ends what a killed one left behind (Linux); nil records nothing. The CLI uses
    /// `$SHOWREEL_HOME/host`.
    public var stateDirectory: String?
    /// Shut down gracefully on SIGINT and SIGTERM (ServiceLifecycle's signal handling). The
    /// `showreel host` command and tests running the host in-process turn this off and cancel
    /// the task instead (the command from a trap that also takes a signal sent while it started).
    public var handlesSignals: Bool
    /// Programs run as a given executable when the search path has none of that name: the CLI
    /// maps `showreel` to its own executable, so `/launch` of `showreel io booted recordVideo ...`
    /// works with no `showreel` installed, from the bundled `showreel` or a package's own.
    public var programsRunAsHost: [String: String]
    /// An executable that understands `HostAPI.Standby` (the CLI's own `showreel`): commands
    /// that run it start in a copy the host started ahead of time, already loaded, instead of a
    /// new process. Nil (the default) starts every command afresh.
    public var standbyExecutable: String?
    /// How many such copies wait at once: one per core by default, so that tests started
    /// together in parallel each find one (0: none).
    public var standbys: Int

    public init(
        bindAddress: String = "127.0.0.1",
        port: Int = 8667,
        token: String? = nil,
        allowedPrograms: [String]? = nil,
        allowedClients: [String]? = nil,
        gracePeriod: Duration = .seconds(3),
        signalWait: Duration = .seconds(10),
        outputLimit: Int = 16 * 1024 * 1024,
        retainedFinishedCommands: Int = 256,
        retainedOutputMemory: Int = 32 * 1024 * 1024,
        stateDirectory: String? = nil,
        handlesSignals: Bool = true,
        programsRunAsHost: [String: String] = [:],
        standbyExecutable: String? = nil,
        standbys: Int = TunnelHostConfiguration.defaultStandbys
    ) {
        self.bindAddress = bindAddress
        self.port = port
        self.token = token
        self.allowedPrograms = allowedPrograms
        self.allowedClients = allowedClients
        self.gracePeriod = gracePeriod
        self.signalWait = signalWait
        self.outputLimit = outputLimit
        self.retainedFinishedCommands = retainedFinishedCommands
        self.retainedOutputMemory = retainedOutputMemory
        self.stateDirectory = stateDirectory
        self.handlesSignals = handlesSignals
        self.programsRunAsHost = programsRunAsHost
        self.standbyExecutable = standbyExecutable
        self.standbys = standbys
    }

    /// One per core, at most 8.
    public static var defaultStandbys: Int { min(8, max(1, ProcessInfo.processInfo.activeProcessorCount)) }

    /// True when only this machine can connect (a loopback bind address).
    public var isLoopbackOnly: Bool {
        LoopbackGuard.isLoopbackAddress(bindAddress)
    }

    /// The addresses to listen on: both loopback addresses for the default bind, since clients
    /// say `localhost` and it may resolve to `::1` first.
    var listenAddresses: [String] {
        switch bindAddress.lowercased() {
        case "127.0.0.1", "localhost": return ["127.0.0.1", "::1"]
        case "[::1]": return ["::1"]
        default: return [bindAddress]
        }
    }

    /// A setting that makes the host unsafe or unusable, said so a person can fix it.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { message }
    }

    /// Checks the settings before anything listens. Beyond loopback, anyone who can connect could
    /// run commands, so such a bind needs both a token and a client allowlist.
    public func validate() throws {
        for entry in allowedClients ?? [] where AddressRange(parsing: entry) == nil {
            throw Problem(
                message: "--allow-from \(entry) is not an IP address or CIDR block; write it like 10.0.0.7, 10.0.0.0/8 or fd00::/8")
        }
        guard !isLoopbackOnly else { return }
        var missing: [String] = []
        if token?.isEmpty ?? true { missing.append("a token (--token or SHOWREEL_HOST_TOKEN)") }
        if allowedClients?.isEmpty ?? true { missing.append("a client allowlist (--allow-from <address or CIDR>, repeatable)") }
        guard missing.isEmpty else {
            throw Problem(
                message:
                    "refusing to listen on \(bindAddress): other machines could run commands here, so a non-loopback bind needs \(missing.joined(separator: " and ")); or bind 127.0.0.1 (the default)"
            )
        }
    }
}
