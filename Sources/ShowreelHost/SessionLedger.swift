import Foundation
import Logging
import ShowreelWire

#if canImport(Glibc)
import Glibc
#endif

/// A file per running host, under the host's state folder, naming the session of every live
/// command it started, so that the next host to start ends what a killed one left behind.
///
/// The parent-death signal ends a killed host's direct children, but not what they started
/// themselves (a shell's background jobs): those stay in the command's session, which the
/// ledger names. Only Linux is covered (sessions are read from /proc).
///
/// The file holds live sessions only (a finished command whose process group is gone is
/// forgotten), so it stays as small as the host's running commands, and the next host reads
/// any number of leftover lines with a single pass over /proc.
///
/// Why killing by session is safe: a session id is a process id, and Linux gives no new process
/// that id while any process is still in the session. So when the recorded leader is gone,
/// every process still in that session descends from our command; when a process with the
/// leader's pid exists but started at another time, the id was reused and is left alone.
final class SessionLedger: @unchecked Sendable {
    // Used only from the CommandTable actor.
    private let path: String
    private let logger: Logger
    /// Live sessions and their leaders' start times, in the order they started.
    private var live: [(session: Int32, start: UInt64)] = []

    /// Ends the sessions recorded by hosts that are no longer running, then starts this host's file.
    init?(directory: String, logger: Logger) {
        self.logger = logger
        #if os(Linux)
        guard let ownStart = ProcessStat.read(getpid())?.startTicks else { return nil }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            logger.warning(
                "cannot create the host state folder; commands a killed host leaves behind will not be ended",
                metadata: ["folder": "\(directory)", "error": "\(error)"])
            return nil
        }
        Self.reapLeftovers(in: directory, logger: logger)
        path = "\(directory)/sessions-\(getpid())-\(ownStart)"
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            logger.warning("cannot write the host's session ledger", metadata: ["path": "\(path)"])
            return nil
        }
        #else
        return nil
        #endif
    }

    /// Notes a command's session (its pid: each command leads its own).
    func record(session: Int32) {
        guard let start = ProcessStat.read(session)?.startTicks else { return }
        live.append((session, start))
        save()
    }

    /// The session has no process left: nothing of it for the next host to end.
    func forget(session: Int32) {
        guard let index = live.firstIndex(where: { $0.session == session }) else { return }
        live.remove(at: index)
        save()
    }

    /// A clean shutdown ended every command: nothing to leave for the next host.
    func close() {
        live.removeAll()
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Replaces the file whole (write, then rename), so a host killed mid-write leaves either
    /// the old list or the new one.
    private func save() {
        let text = live.map { "\($0.session) \($0.start)\n" }.joined()
        do {
            try Data(text.utf8).writeReplacing(URL(fileURLWithPath: path))
        } catch {
            logger.warning("cannot update the host's session ledger", metadata: ["path": "\(path)", "error": "\(error)"])
        }
    }

    /// Ends what the ledgers of hosts no longer running name, and removes those ledgers.
    /// `processes` lists every process id (read once, however many lines there are).
    static func reapLeftovers(in directory: String, logger: Logger, processes: () -> [Int32] = ProcessStat.allPIDs) {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var stale: [(host: Int32, path: String, sessions: [(Int32, UInt64)])] = []
        for file in files where file.hasPrefix("sessions-") {
            let parts = file.split(separator: "-")
            guard parts.count == 3, let hostPID = Int32(parts[1]), let hostStart = UInt64(parts[2]) else { continue }
            // That host still runs (a zombie does not: it runs nothing and ends nothing).
            if let host = ProcessStat.read(hostPID), host.startTicks == hostStart, !host.hasExited { continue }
            let path = "\(directory)/\(file)"
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            let sessions = text.split(separator: "\n").compactMap { line -> (Int32, UInt64)? in
                let fields = line.split(separator: " ")
                guard fields.count == 2, let session = Int32(fields[0]), let start = UInt64(fields[1]) else { return nil }
                return (session, start)
            }
            stale.append((hostPID, path, sessions))
        }
        guard !stale.isEmpty else { return }
        // One pass over /proc for every leftover line: which processes are in which session.
        var members: [Int32: [Int32]] = [:]
        var leaders: [Int32: UInt64] = [:]
        if stale.contains(where: { !$0.sessions.isEmpty }) {
            for pid in processes() where pid != getpid() {
                guard let stat = ProcessStat.read(pid) else { continue }
                members[stat.session, default: []].append(pid)
                leaders[pid] = stat.startTicks
            }
        }
        for ledger in stale {
            var ended = 0
            for (session, leaderStart) in ledger.sessions {
                if let start = leaders[session], start != leaderStart { continue }  // id reused
                for pid in members.removeValue(forKey: session) ?? [] where kill(pid, SIGKILL) == 0 { ended += 1 }
            }
            if ended > 0 {
                logger.notice(
                    "ended processes a killed tunnel host left behind", metadata: ["host": "\(ledger.host)", "processes": "\(ended)"])
            }
            try? FileManager.default.removeItem(atPath: ledger.path)
        }
    }
}
