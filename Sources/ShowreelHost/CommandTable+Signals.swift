import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Signals to a command's process group, and their names in answers and logs.
extension CommandTable {
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
        await SignalReadiness.wait(
            until: startedPID, catches: signal, startedAt: started.startedAt,
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
        CommandTableError(
            .unknownCommand,
            "no command with id \(id.uuidString) on this host: ids come from /launch or POST /v1/commands and are forgotten when the host restarts (GET /v1/commands lists the known ones)"
        )
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
}
