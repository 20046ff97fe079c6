import Foundation
import Logging
import ShowreelWire

/// The process table: every command the host started, its state and its bounded output.
/// An actor, so every read and change is serialised (the original kept an unlocked dictionary).
actor CommandTable {
    /// One command as the table keeps it. Internal (not private) for the table's extensions in
    /// `CommandTable+*.swift`, as are the stored properties below: nothing else touches them.
    struct Record {
        let id: UUID
        let argv: [String]
        let executablePath: String
        let kind: CommandKind
        let startedAt = Date()
        var pid: Int32?
        var finishedAt: Date?
        var termination: Termination?
        var failure: String?
        var killedAfterTimeout = false
        var signalsSent: [String] = []
        var output: OutputLog
        /// Where the output went when finished commands outgrew `retainedOutputMemory`.
        var spilledTo: String?
        var version = 0
        var task: Task<Void, Never>?
        var startContinuation: CheckedContinuation<Int32, any Error>?
        var warnedTruncation = false

        var isFinished: Bool { termination != nil || failure != nil }

        /// The output, read back from the spool when it was spilled.
        var loadedOutput: OutputLog {
            guard let spilledTo else { return output }
            return (try? OutputLog.read(from: spilledTo, limit: output.limit)) ?? output
        }
    }

    let configuration: TunnelHostConfiguration
    let logger: Logger
    var records: [UUID: Record] = [:]
    var order: [UUID] = []
    var waiters: [UUID: [Int: CheckedContinuation<Void, Never>]] = [:]
    var nextWaiterToken = 0
    /// Process groups (= session ids) of children we started that may still have members.
    var groups: Set<Int32> = []
    var isShuttingDown = false
    var shutdownFinished = false
    /// `setpriv`, found once, through which children start with a parent-death signal.
    var deathSignalLauncher: String??
    /// Files holding finished commands' output beyond `retainedOutputMemory`.
    let spool: OutputSpool
    /// Sessions of the commands started, for the next host should this one be killed.
    let ledger: SessionLedger?
    /// Copies of the standby executable starting or waiting for the next commands that run it.
    var standbys: [Standby] = []

    init(configuration: TunnelHostConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        spool = OutputSpool(logger: logger)
        OutputSpool.removeLeftovers(logger: logger)
        ledger = configuration.stateDirectory.flatMap { SessionLedger(directory: $0, logger: logger) }
    }

    // MARK: Starting

    /// Starts `argv` in its own session (so signals can reach the whole process group) and
    /// returns once it is running, with its pid.
    func launch(
        argv: [String],
        environment: [String: String]? = nil,
        workingDirectory: String? = nil,
        kind: CommandKind
    ) async throws -> CommandSnapshot {
        guard !isShuttingDown else {
            throw CommandTableError(.shuttingDown, "the tunnel host is shutting down and starts no new commands")
        }
        let launch = try CommandLaunch(
            argv: argv, environment: environment, workingDirectory: workingDirectory, configuration: configuration)
        let (program, path) = (launch.program, launch.executablePath)
        if deathSignalLauncher == nil {
            let found = await ParentDeathSignal.launcher()
            if found == nil {
                logger.warning(
                    "setpriv (util-linux) with --pdeathsig not found: commands will outlive the host if it is killed with SIGKILL")
            }
            deathSignalLauncher = .some(found)
        }
        if let started = launchOnStandby(launch, kind: kind) { return started }
        let subprocessConfiguration = launch.configuration(deathSignalLauncher: deathSignalLauncher ?? nil)

        let id = addRecord(argv: argv, executablePath: path, kind: kind)
        let logger = self.logger
        do {
            let pid = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
                records[id]?.startContinuation = continuation
                records[id]?.task = Task.detached { [self] in
                    await Self.runChild(table: self, id: id, configuration: subprocessConfiguration, logger: logger)
                }
            }
            logger.info(
                "started command",
                metadata: ["id": "\(id)", "pid": "\(pid)", "kind": "\(kind.rawValue)", "argv": "\(ShellWords.join(argv))"])
        } catch {
            await records[id]?.task?.value
            remove(id)
            logger.warning("could not start command", metadata: ["argv": "\(ShellWords.join(argv))", "error": "\(error)"])
            throw CommandTableError(.failedToStart, "could not start '\(program)' (\(path)): \(CommandLaunch.describe(error))")
        }
        evictFinished()
        return snapshot(id, output: .none)!
    }

    /// A new command's record, last in the order.
    func addRecord(argv: [String], executablePath: String, kind: CommandKind) -> UUID {
        let id = UUID()
        let output = OutputLog(limit: configuration.outputLimit)
        records[id] = Record(id: id, argv: argv, executablePath: executablePath, kind: kind, output: output)
        order.append(id)
        return id
    }

    // MARK: Reading

    func snapshot(_ id: UUID, output: OutputSelection) -> CommandSnapshot? {
        guard let record = records[id] else { return nil }
        return Self.snapshot(of: record, output: output)
    }

    func list() -> [CommandSnapshot] {
        order.compactMap { records[$0] }.map { Self.snapshot(of: $0, output: .none) }
    }

    var runningCount: Int { records.values.filter { !$0.isFinished }.count }

    /// Output bytes of finished commands held in memory (the rest is in the spool).
    var finishedOutputInMemory: Int {
        records.values.filter(\.isFinished).reduce(0) { $0 + $1.output.retainedBytes }
    }

    static func snapshot(of record: Record, output selection: OutputSelection) -> CommandSnapshot {
        let output = selection == .none ? record.output : record.loadedOutput
        return CommandSnapshot(
            id: record.id,
            argv: record.argv,
            executablePath: record.executablePath,
            kind: record.kind,
            pid: record.pid,
            startedAt: record.startedAt,
            finishedAt: record.finishedAt,
            termination: record.termination,
            failure: record.failure,
            killedAfterTimeout: record.killedAfterTimeout,
            signalsSent: record.signalsSent,
            outputBytes: output.endOffset,
            droppedBytes: output.droppedBytes,
            stdout: selection == .streams ? output.text(of: .stdout) : nil,
            stderr: selection == .streams ? output.text(of: .stderr) : nil,
            combined: selection == .combined ? output.text(of: nil) : nil
        )
    }

    struct OutputSlice: Sendable {
        var chunks: [[UInt8]]
        var next: Int
        var finished: Bool
        var version: Int
    }

    /// Output from absolute `offset` on; nil when the command is unknown.
    func output(_ id: UUID, from offset: Int, of stream: OutputStream?) -> OutputSlice? {
        guard let record = records[id] else { return nil }
        let (chunks, next) = record.loadedOutput.chunks(from: offset, of: stream)
        return OutputSlice(chunks: chunks.map(\.bytes), next: next, finished: record.isFinished, version: record.version)
    }

}
