import Foundation
import ShowreelWire
import Logging
import Subprocess

#if canImport(System)
import System
#else
import SystemPackage
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a command ended.
enum Termination: Sendable, Equatable {
    case exited(Int32)
    case signaled(Int32)
}

/// Why the command table refused or failed, with a message a person can act on. The HTTP
/// layer decides which status each kind is (`CommandTableError.apiError`).
struct CommandTableError: Error, Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        /// The arguments cannot describe a command (empty argv, no such directory, bad env name).
        case invalidArguments
        /// The program could not be started (not found, not executable, spawn failed).
        case failedToStart
        /// The host's allowlist does not include the program.
        case programNotAllowed
        /// No command with that id (never started, or forgotten).
        case unknownCommand
        /// The host is shutting down and starts nothing new.
        case shuttingDown
    }

    var kind: Kind
    var message: String
    var description: String { message }

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}

/// Which endpoint family started a command.
enum CommandKind: String, Sendable {
    case exec
    case launch
    case api
}

/// Which output a snapshot copies: none, each stream apart, or both interleaved. Each is a
/// full copy of up to `outputLimit` bytes, so callers take only what they answer with.
enum OutputSelection: Sendable {
    case none
    case streams
    case combined
}

/// A consistent copy of one command's state, taken inside the table.
struct CommandSnapshot: Sendable {
    var id: UUID
    var argv: [String]
    var executablePath: String
    var kind: CommandKind
    var pid: Int32?
    var startedAt: Date
    var finishedAt: Date?
    var termination: Termination?
    /// Set when the child could not be monitored to its end (not a normal exit).
    var failure: String?
    var killedAfterTimeout: Bool
    var signalsSent: [String]
    var outputBytes: Int
    var droppedBytes: Int
    var stdout: String?
    var stderr: String?
    /// Both streams interleaved in arrival order.
    var combined: String?

    var isFinished: Bool { termination != nil || failure != nil }
}

/// The process table: every command the host started, its state and its bounded output.
/// An actor, so every read and change is serialised (the original kept an unlocked dictionary).
actor CommandTable {
    private struct Record {
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

    private let configuration: TunnelHostConfiguration
    private let logger: Logger
    private var records: [UUID: Record] = [:]
    private var order: [UUID] = []
    private var waiters: [UUID: [Int: CheckedContinuation<Void, Never>]] = [:]
    private var nextWaiterToken = 0
    /// Process groups (= session ids) of children we started that may still have members.
    private var groups: Set<Int32> = []
    private(set) var isShuttingDown = false
    private var shutdownFinished = false
    /// `setpriv`, found once, through which children start with a parent-death signal.
    private var deathSignalLauncher: String??
    /// Files holding finished commands' output beyond `retainedOutputMemory`.
    private let spool: OutputSpool
    /// Sessions of the commands started, for the next host should this one be killed.
    private let ledger: SessionLedger?

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
        guard let program = argv.first, !program.isEmpty else {
            throw CommandTableError(.invalidArguments, "nothing to run: argv is empty; send the program and its arguments, e.g. [\"echo\", \"hello\"]")
        }
        try Self.checkNoNUL(argv: argv, environment: environment ?? [:], workingDirectory: workingDirectory)
        if let cwd = workingDirectory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: cwd, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CommandTableError(.invalidArguments, "working directory '\(cwd)' does not exist or is not a directory; send an existing absolute path as cwd, or leave it out to use the host's")
            }
        }
        let searchPath = environment?["PATH"] ?? ExecutableResolver.hostSearchPath
        guard let path = ExecutableResolver.resolve(program, searchPath: searchPath, workingDirectory: workingDirectory) else {
            if program.contains("/") {
                throw CommandTableError(.failedToStart, "program '\(program)' not found or not executable: no executable file at that path")
            }
            throw CommandTableError(.failedToStart, "program '\(program)' not found on PATH (\(searchPath)); install it, fix the spelling, or pass an absolute path")
        }
        try checkAllowed(program: program, resolvedPath: path)
        try checkEnvironmentAllowed(environment ?? [:])

        var platformOptions = PlatformOptions()
        platformOptions.createSession = true
        // Backstop only: the host ends children itself with signals to the whole group.
        platformOptions.teardownSequence = [
            .send(signal: .terminate, toProcessGroup: true, allowedDurationToNextStep: configuration.gracePeriod)
        ]
        var env = Environment.inherit
        if let environment, !environment.isEmpty {
            var overrides: [Environment.Key: String?] = [:]
            for (key, value) in environment {
                guard let k = Environment.Key(rawValue: key) else {
                    throw CommandTableError(.invalidArguments, "invalid environment variable name '\(key)'")
                }
                overrides[k] = value
            }
            env = env.updating(overrides)
        }
        if deathSignalLauncher == nil {
            let found = await ParentDeathSignal.launcher()
            if found == nil {
                logger.warning("setpriv (util-linux) with --pdeathsig not found: commands will outlive the host if it is killed with SIGKILL")
            }
            deathSignalLauncher = .some(found)
        }
        let executable: Executable
        let arguments: Arguments
        if let launcher = deathSignalLauncher ?? nil {
            executable = .path(FilePath(launcher))
            arguments = Arguments(ParentDeathSignal.launcherArguments(executablePath: path, arguments: Array(argv.dropFirst())))
        } else {
            executable = .path(FilePath(path))
            arguments = Arguments(executablePathOverride: program, remainingValues: Array(argv.dropFirst()))
        }
        let subprocessConfiguration = Configuration(
            executable: executable,
            arguments: arguments,
            environment: env,
            workingDirectory: workingDirectory.map { FilePath($0) },
            platformOptions: platformOptions
        )

        let id = UUID()
        records[id] = Record(id: id, argv: argv, executablePath: path, kind: kind, output: OutputLog(limit: configuration.outputLimit))
        order.append(id)
        let logger = self.logger
        do {
            let pid = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
                records[id]?.startContinuation = continuation
                records[id]?.task = Task.detached { [self] in
                    await Self.runChild(table: self, id: id, configuration: subprocessConfiguration, logger: logger)
                }
            }
            logger.info("started command", metadata: ["id": "\(id)", "pid": "\(pid)", "kind": "\(kind.rawValue)", "argv": "\(ShellWords.join(argv))"])
        } catch {
            await records[id]?.task?.value
            remove(id)
            logger.warning("could not start command", metadata: ["argv": "\(ShellWords.join(argv))", "error": "\(error)"])
            throw CommandTableError(.failedToStart, "could not start '\(program)' (\(path)): \(Self.describe(error))")
        }
        evictFinished()
        return snapshot(id, output: .none)!
    }

    private func checkAllowed(program: String, resolvedPath: String) throws {
        guard let allowed = configuration.allowedPrograms, !allowed.isEmpty else { return }
        let canonicalPath = ExecutableResolver.canonical(resolvedPath)
        let name = (resolvedPath as NSString).lastPathComponent
        for entry in allowed {
            guard let entryPath = ExecutableResolver.resolve(entry, searchPath: ExecutableResolver.hostSearchPath) else { continue }
            if entryPath == resolvedPath { return }
            if ExecutableResolver.canonical(entryPath) == canonicalPath, (entryPath as NSString).lastPathComponent == name { return }
        }
        throw CommandTableError(.programNotAllowed, "program '\(program)' (\(resolvedPath)) is not allowed on this host: it only runs \(allowed.joined(separator: ", ")); restart it with --allow \(program) to permit it")
    }

    /// A C string ends at its first NUL, so an argument holding one would reach the program cut
    /// short, not as sent.
    private static func checkNoNUL(argv: [String], environment: [String: String], workingDirectory: String?) throws {
        let fields = argv.enumerated().map { ("argv[\($0.offset)]", $0.element) }
            + environment.sorted { $0.key < $1.key }.flatMap { [("env name '\($0.key)'", $0.key), ("env['\($0.key)']", $0.value)] }
            + (workingDirectory.map { [("cwd", $0)] } ?? [])
        if let (field, _) = fields.first(where: { $0.1.utf8.contains(0) }) {
            throw CommandTableError(.invalidArguments, "\(field) holds a NUL character (\\u0000), which no program argument, environment variable or path can contain: it would be cut short there; remove it")
        }
    }

    /// With an allowlist, the environment must not bring code of its own into an allowed program.
    private func checkEnvironmentAllowed(_ environment: [String: String]) throws {
        guard let allowed = configuration.allowedPrograms, !allowed.isEmpty else { return }
        let refused = LoaderEnvironment.loaderVariables(in: environment)
        guard !refused.isEmpty else { return }
        throw CommandTableError(.programNotAllowed, "environment variable\(refused.count == 1 ? "" : "s") \(refused.joined(separator: ", ")) \(refused.count == 1 ? "is" : "are") not allowed on this host: with --allow it refuses loader and interpreter variables (LD_*, PYTHONPATH, BASH_ENV, ...), which would make an allowed program run other code; leave \(refused.count == 1 ? "it" : "them") out of env")
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? SubprocessError {
            if let underlying = error.underlyingError {
                return "\(error.code) (\(underlying))"
            }
            return "\(error)"
        }
        return "\(error)"
    }

    /// Runs one child to its end, draining stdout and stderr while it runs.
    private static func runChild(table: CommandTable, id: UUID, configuration: Configuration, logger: Logger) async {
        do {
            let result = try await Subprocess.run(configuration, input: .none, output: .sequence, error: .sequence) { execution in
                await table.markRunning(id, pid: execution.processIdentifier.value)
                async let out: Void = drain(execution.standardOutput, .stdout, table: table, id: id, logger: logger)
                async let err: Void = drain(execution.standardError, .stderr, table: table, id: id, logger: logger)
                _ = await (out, err)
            }
            let termination: Termination
            switch result.terminationStatus {
            case .exited(let code): termination = .exited(code)
            case .signaled(let signal): termination = .signaled(signal)
            }
            await table.markFinished(id, termination)
        } catch {
            await table.markFailed(id, error)
        }
    }

    private static func drain(_ sequence: SubprocessOutputSequence, _ stream: OutputStream, table: CommandTable, id: UUID, logger: Logger) async {
        do {
            for try await buffer in sequence {
                let bytes = buffer.withUnsafeBytes { Array($0) }
                await table.append(id, stream, bytes)
            }
        } catch {
            logger.debug("stopped reading output", metadata: ["id": "\(id)", "stream": "\(stream.rawValue)", "error": "\(error)"])
        }
    }

    private func markRunning(_ id: UUID, pid: Int32) {
        groups.insert(pid)
        ledger?.record(session: pid)
        records[id]?.pid = pid
        if let continuation = records[id]?.startContinuation {
            records[id]?.startContinuation = nil
            continuation.resume(returning: pid)
        }
        changed(id)
    }

    private func append(_ id: UUID, _ stream: OutputStream, _ bytes: [UInt8]) {
        guard records[id] != nil else { return }
        records[id]!.output.append(stream, bytes)
        if records[id]!.output.isTruncated, !records[id]!.warnedTruncation {
            records[id]!.warnedTruncation = true
            logger.notice("command output exceeds the limit; keeping only the newest bytes", metadata: ["id": "\(id)", "limit": "\(configuration.outputLimit)"])
        }
        changed(id)
    }

    private func markFinished(_ id: UUID, _ termination: Termination) {
        guard var record = records[id] else { return }
        record.termination = termination
        record.finishedAt = Date()
        records[id] = record
        forgetEndedGroups()
        logger.info("command finished", metadata: ["id": "\(id)", "pid": "\(record.pid ?? 0)", "termination": "\(termination)"])
        changed(id)
        spillOldestOutput()
    }

    private func markFailed(_ id: UUID, _ error: any Error) {
        guard var record = records[id] else { return }
        if let continuation = record.startContinuation {
            // Never got running: the launcher reports the error and removes the record.
            record.startContinuation = nil
            records[id] = record
            continuation.resume(throwing: error)
            return
        }
        record.failure = Self.describe(error)
        record.finishedAt = Date()
        records[id] = record
        logger.error("lost track of command", metadata: ["id": "\(id)", "error": "\(error)"])
        changed(id)
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

    private static func snapshot(of record: Record, output selection: OutputSelection) -> CommandSnapshot {
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

    // MARK: Signals

    enum SignalOutcome: Sendable {
        case sent(CommandSnapshot)
        case alreadyFinished(CommandSnapshot)
    }

    /// Sends `signal` to the command's whole process group, once the command can take it.
    func signal(_ id: UUID, _ signal: Int32) async throws -> SignalOutcome {
        guard let started = records[id], let startedPID = started.pid, !started.isFinished else {
            guard let record = records[id] else { throw Self.notFound(id) }
            return .alreadyFinished(Self.snapshot(of: record, output: .streams))
        }
        await SignalReadiness.wait(until: startedPID, catches: signal, startedAt: started.startedAt,
                                   bound: configuration.signalReadinessBound)
        // The actor ran other work while we waited: read the command again.
        guard let record = records[id] else { throw Self.notFound(id) }
        guard !record.isFinished, let pid = record.pid else {
            return .alreadyFinished(Self.snapshot(of: record, output: .streams))
        }
        if kill(-pid, signal) != 0 {
            // No group (should not happen with a session leader): signal the process itself.
            _ = kill(pid, signal)
        }
        records[id]?.signalsSent.append(Self.signalName(signal))
        logger.info("sent signal", metadata: ["id": "\(id)", "pgid": "\(pid)", "signal": "\(Self.signalName(signal))"])
        changed(id)
        return .sent(Self.snapshot(of: records[id]!, output: .none))
    }

    /// Kills the command's process group with SIGKILL and records that a timeout forced it.
    func killAfterTimeout(_ id: UUID) {
        guard let record = records[id], !record.isFinished, let pid = record.pid else { return }
        _ = kill(-pid, SIGKILL)
        records[id]?.killedAfterTimeout = true
        records[id]?.signalsSent.append("SIGKILL")
        logger.warning("command did not exit in time; sent SIGKILL to its process group", metadata: ["id": "\(id)", "pgid": "\(pid)"])
        changed(id)
    }

    static func notFound(_ id: UUID) -> CommandTableError {
        CommandTableError(.unknownCommand, "no command with id \(id.uuidString) on this host: ids come from /launch or POST /v1/commands and are forgotten when the host restarts (GET /v1/commands lists the known ones)")
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGKILL: return "SIGKILL"
        case SIGHUP: return "SIGHUP"
        case SIGQUIT: return "SIGQUIT"
        case SIGUSR1: return "SIGUSR1"
        case SIGUSR2: return "SIGUSR2"
        case SIGPIPE: return "SIGPIPE"
        case SIGABRT: return "SIGABRT"
        case SIGSEGV: return "SIGSEGV"
        case SIGALRM: return "SIGALRM"
        default: return "signal \(signal)"
        }
    }

    // MARK: Waiting

    /// Waits until the command finished (or `timeout` passed) and returns it with its output;
    /// nil when the command is unknown.
    func waitForExit(_ id: UUID, timeout: Duration? = nil, output: OutputSelection = .streams) async -> CommandSnapshot? {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now.advanced(by: $0) }
        while true {
            guard let record = records[id] else { return nil }
            if record.isFinished || Task.isCancelled { return Self.snapshot(of: record, output: output) }
            var wait = Duration.seconds(30)
            if let deadline {
                let remaining = clock.now.duration(to: deadline)
                if remaining <= .zero { return Self.snapshot(of: record, output: output) }
                wait = min(wait, remaining)
            }
            await waitForChange(id, since: record.version, timeout: wait)
        }
    }

    /// Returns when the command changes after `version` (output, state, signal), when it is
    /// removed, when `timeout` passes, or when the calling task is cancelled.
    func waitForChange(_ id: UUID, since version: Int, timeout: Duration) async {
        guard let record = records[id], record.version == version, !Task.isCancelled else { return }
        let token = nextWaiterToken
        nextWaiterToken += 1
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.park(id, token: token, version: version) }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }

    private func park(_ id: UUID, token: Int, version: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if Task.isCancelled || records[id]?.version != version {
                    continuation.resume()
                } else {
                    waiters[id, default: [:]][token] = continuation
                }
            }
        } onCancel: {
            Task { await self.unpark(id, token: token) }
        }
    }

    private func unpark(_ id: UUID, token: Int) {
        if let continuation = waiters[id]?.removeValue(forKey: token) {
            continuation.resume()
        }
    }

    private func changed(_ id: UUID) {
        records[id]?.version += 1
        if let parked = waiters.removeValue(forKey: id) {
            for continuation in parked.values { continuation.resume() }
        }
    }

    // MARK: Forgetting

    /// Forgets a command (finished ones only, unless `force`).
    @discardableResult
    func remove(_ id: UUID) -> Bool {
        guard let record = records.removeValue(forKey: id) else { return false }
        if let spilled = record.spilledTo { spool.delete(spilled) }
        if record.output.retainedBytes >= MemoryRelease.worthTrimming { MemoryRelease.returnFreedMemory() }
        order.removeAll { $0 == id }
        if let parked = waiters.removeValue(forKey: id) {
            for continuation in parked.values { continuation.resume() }
        }
        return true
    }

    /// Keeps finished commands' output in memory up to `retainedOutputMemory` in all, the newest
    /// first; older output moves to a file in the spool and is read back when asked for, so
    /// `/status` of a recent command still answers its whole (bounded) output.
    private func spillOldestOutput() {
        var inMemory = 0
        var freed = 0
        for id in order.reversed() {
            guard let record = records[id], record.isFinished, record.spilledTo == nil else { continue }
            inMemory += record.output.retainedBytes
            guard inMemory > configuration.retainedOutputMemory, record.output.retainedBytes > 0 else { continue }
            guard let path = spool.write(record.output, id: id) else { return }
            records[id]!.spilledTo = path
            records[id]!.output = record.output.emptied()
            freed += record.output.retainedBytes
        }
        if freed >= MemoryRelease.worthTrimming { MemoryRelease.returnFreedMemory() }
    }

    private func evictFinished() {
        let finished = order.filter { records[$0]?.isFinished == true && records[$0]?.kind != .exec }
        let excess = finished.count - configuration.retainedFinishedCommands
        guard excess > 0 else { return }
        for id in finished.prefix(excess) { remove(id) }
    }

    // MARK: Shutdown

    /// Ends every child: SIGTERM to each process group, SIGKILL to what is left after the grace
    /// period, then waits for the children to be reaped. Idempotent; no new commands start after.
    func shutdown() async {
        if isShuttingDown {
            while !shutdownFinished { try? await Task.sleep(for: .milliseconds(20)) }
            return
        }
        isShuttingDown = true
        defer {
            spool.removeAll()
            ledger?.close()
            shutdownFinished = true
        }
        let running = records.values.filter { !$0.isFinished && $0.pid != nil }
        var live = groups.union(running.compactMap(\.pid)).filter(Self.groupExists)
        guard !live.isEmpty || !running.isEmpty else { return }
        logger.notice("stopping commands", metadata: ["running": "\(running.count)", "processGroups": "\(live.count)"])
        for pgid in live { _ = kill(-pgid, SIGTERM) }
        for record in running where !live.contains(record.pid!) { _ = kill(record.pid!, SIGTERM) }

        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: configuration.gracePeriod)
        while clock.now < deadline {
            let stillRunning = running.contains { records[$0.id]?.isFinished == false }
            live = live.filter(Self.groupExists)
            if !stillRunning && live.isEmpty { break }
            try? await Task.sleep(for: .milliseconds(20))
        }
        live = live.filter(Self.groupExists)
        let stillRunning = running.filter { records[$0.id]?.isFinished == false }
        if !live.isEmpty || !stillRunning.isEmpty {
            logger.warning("commands ignored SIGTERM for the grace period; sending SIGKILL", metadata: ["processGroups": "\(live.count)"])
            for pgid in live { _ = kill(-pgid, SIGKILL) }
            for record in stillRunning { _ = kill(-record.pid!, SIGKILL); _ = kill(record.pid!, SIGKILL) }
        }
        for record in running {
            _ = await waitForExit(record.id, timeout: .seconds(5))
        }
        groups.removeAll()
    }

    /// Forgets the process groups (= sessions) of finished commands that have no member left, here
    /// and in the ledger, so both hold only what a killed host would leave running.
    private func forgetEndedGroups() {
        let running = Set(records.values.lazy.filter { !$0.isFinished }.compactMap(\.pid))
        for pgid in groups where !running.contains(pgid) && !Self.groupExists(pgid) {
            groups.remove(pgid)
            ledger?.forget(session: pgid)
        }
    }

    private static func groupExists(_ pgid: Int32) -> Bool {
        kill(-pgid, 0) == 0 || errno == EPERM
    }
}
