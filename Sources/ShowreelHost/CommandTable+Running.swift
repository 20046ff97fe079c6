import Foundation
import Logging
import Subprocess

// A child from start to end: its pid, its output drained while it runs, how it ended.
extension CommandTable {
    /// Runs one child to its end, draining stdout and stderr while it runs.
    static func runChild(table: CommandTable, id: UUID, configuration: Configuration, logger: Logger) async {
        await run(configuration, input: .none, table: table, logger: logger, command: id) { pid in
            await table.markRunning(id, pid: pid)
            return id
        }
    }

    /// Runs a child to its end: once it runs, `started` names the command it is (nil: none, and
    /// `unclaimed` is told when it has ended); its output is drained into that command, and how
    /// it ended, or failed, is recorded there. `command` is the command when it is known before
    /// the start, so that a start that fails is recorded there too.
    static func run<Input: InputProtocol>(
        _ configuration: Configuration, input: Input, table: CommandTable, logger: Logger, command: UUID? = nil,
        started: @escaping (Int32) async -> UUID?, unclaimed: () async -> Void = {}
    ) async {
        var claimed = command
        do {
            let result = try await Subprocess.run(configuration, input: input, output: .sequence, error: .sequence) { execution in
                claimed = await started(execution.processIdentifier.value)
                guard let id = claimed else { return }
                async let out: Void = drain(execution.standardOutput, .stdout, table: table, id: id, logger: logger)
                async let err: Void = drain(execution.standardError, .stderr, table: table, id: id, logger: logger)
                _ = await (out, err)
            }
            guard let id = claimed else { return await unclaimed() }
            switch result.terminationStatus {
            case .exited(let code): await table.markFinished(id, .exited(code))
            case .signaled(let signal): await table.markFinished(id, .signaled(signal))
            }
        } catch {
            if let id = claimed { await table.markFailed(id, error) } else { await unclaimed() }
        }
    }

    private static func drain(_ sequence: SubprocessOutputSequence, _ stream: OutputStream, table: CommandTable, id: UUID, logger: Logger)
        async
    {
        do {
            for try await buffer in sequence {
                let bytes = buffer.withUnsafeBytes { Array($0) }
                await table.append(id, stream, bytes)
            }
        } catch {
            logger.debug("stopped reading output", metadata: ["id": "\(id)", "stream": "\(stream.rawValue)", "error": "\(error)"])
        }
    }

    func markRunning(_ id: UUID, pid: Int32) {
        groups.insert(pid)
        ledger?.record(session: pid)
        records[id]?.pid = pid
        if let continuation = records[id]?.startContinuation {
            records[id]?.startContinuation = nil
            continuation.resume(returning: pid)
        }
        changed(id)
    }

    func append(_ id: UUID, _ stream: OutputStream, _ bytes: [UInt8]) {
        guard records[id] != nil else { return }
        records[id]!.output.append(stream, bytes)
        if records[id]!.output.isTruncated, !records[id]!.warnedTruncation {
            records[id]!.warnedTruncation = true
            logger.notice(
                "command output exceeds the limit; keeping only the newest bytes",
                metadata: ["id": "\(id)", "limit": "\(configuration.outputLimit)"])
        }
        changed(id)
    }

    func markFinished(_ id: UUID, _ termination: Termination) {
        guard var record = records[id] else { return }
        record.termination = termination
        record.finishedAt = Date()
        records[id] = record
        forgetEndedGroups()
        logger.info("command finished", metadata: ["id": "\(id)", "pid": "\(record.pid ?? 0)", "termination": "\(termination)"])
        changed(id)
        spillOldestOutput()
    }

    func markFailed(_ id: UUID, _ error: any Error) {
        guard var record = records[id] else { return }
        if let continuation = record.startContinuation {
            // Never got running: the launcher reports the error and removes the record.
            record.startContinuation = nil
            records[id] = record
            continuation.resume(throwing: error)
            return
        }
        record.failure = CommandLaunch.describe(error)
        record.finishedAt = Date()
        records[id] = record
        logger.error("lost track of command", metadata: ["id": "\(id)", "error": "\(error)"])
        changed(id)
    }
}
