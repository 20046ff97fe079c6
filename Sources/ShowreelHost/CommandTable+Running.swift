import Foundation
import Logging
import Subprocess

// A child from start to end: its pid, its output drained while it runs, how it ended.
extension CommandTable {
    /// Runs one child to its end, draining stdout and stderr while it runs.
    static func runChild(table: CommandTable, id: UUID, configuration: Configuration, logger: Logger) async {
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

    static func drain(_ sequence: SubprocessOutputSequence, _ stream: OutputStream, table: CommandTable, id: UUID, logger: Logger)
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
