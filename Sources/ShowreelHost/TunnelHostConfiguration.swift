/// How a ``TunnelHost`` listens and what it lets callers run.
public struct TunnelHostConfiguration: Sendable {
    /// The address to bind: `127.0.0.1` (default, this machine only), `::1`, `0.0.0.0`, ...
    public var bindAddress: String
    /// The TCP port; 0 picks a free one (reported to `run(onListening:)`).
    public var port: Int
    /// When set, the `/v1` API (except `/v1/health`) requires `Authorization: Bearer <token>`
    /// or `X-Showreel-Token: <token>`. The legacy endpoints stay token-free for compatibility.
    public var token: String?
    /// Programs callers may run (names looked up on the host's PATH, or absolute paths);
    /// nil or empty allows any program.
    public var allowedPrograms: [String]?
    /// How long children get between SIGTERM and SIGKILL when the host shuts down.
    public var gracePeriod: Duration
    /// How long legacy `/interrupt` and `/terminate` wait for the command to exit before
    /// answering with its status (the original answered at once, still running), and the
    /// default `timeout` of v1 `interrupt|terminate?wait=true` before SIGKILL.
    public var signalWait: Duration
    /// Bytes of output kept per command (both streams together); the oldest are dropped first.
    public var outputLimit: Int
    /// Finished commands kept for `/status` and `GET /v1/commands/{id}`; the oldest are forgotten.
    public var retainedFinishedCommands: Int
    /// Shut down gracefully on SIGINT and SIGTERM (the CLI); tests running the host
    /// in-process turn this off and cancel the task instead.
    public var handlesSignals: Bool

    public init(
        bindAddress: String = "127.0.0.1",
        port: Int = 8667,
        token: String? = nil,
        allowedPrograms: [String]? = nil,
        gracePeriod: Duration = .seconds(3),
        signalWait: Duration = .seconds(10),
        outputLimit: Int = 16 * 1024 * 1024,
        retainedFinishedCommands: Int = 256,
        handlesSignals: Bool = true
    ) {
        self.bindAddress = bindAddress
        self.port = port
        self.token = token
        self.allowedPrograms = allowedPrograms
        self.gracePeriod = gracePeriod
        self.signalWait = signalWait
        self.outputLimit = outputLimit
        self.retainedFinishedCommands = retainedFinishedCommands
        self.handlesSignals = handlesSignals
    }

    /// True when only this machine can connect (a loopback bind address).
    public var isLoopbackOnly: Bool {
        let address = bindAddress.lowercased()
        return address == "localhost" || address == "::1" || address.hasPrefix("127.")
    }
}
