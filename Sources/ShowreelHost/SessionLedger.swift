import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// A file per running host, under the host's state folder, naming the session of every command
/// it started, so that the next host to start ends what a killed one left behind.
///
/// The parent-death signal ends a killed host's direct children, but not what they started
/// themselves (a shell's background jobs): those stay in the command's session, which the
/// ledger names. Only Linux is covered (sessions are read from /proc).
///
/// Why killing by session is safe: a session id is a process id, and Linux gives no new process
/// that id while any process is still in the session. So when the recorded leader is gone,
/// every process still in that session descends from our command; when a process with the
/// leader's pid exists but started at another time, the id was reused and is left alone.
final class SessionLedger: @unchecked Sendable {
    // Used only from the CommandTable actor.
    private let path: String
    private let logger: Logger
    private var handle: FileHandle?

    /// Ends the sessions recorded by hosts that are no longer running, then starts this host's file.
    init?(directory: String, logger: Logger) {
        self.logger = logger
        #if os(Linux)
        guard let ownStart = ProcStat.read(getpid())?.startTicks else { return nil }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            logger.warning("cannot create the host state folder; commands a killed host leaves behind will not be ended", metadata: ["folder": "\(directory)", "error": "\(error)"])
            return nil
        }
        Self.reapLeftovers(in: directory, logger: logger)
        path = "\(directory)/sessions-\(getpid())-\(ownStart)"
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            logger.warning("cannot write the host's session ledger", metadata: ["path": "\(path)"])
            return nil
        }
        self.handle = handle
        #else
        return nil
        #endif
    }

    /// Notes a command's session (its pid: each command leads its own).
    func record(session: Int32) {
        guard let handle, let start = ProcStat.read(session)?.startTicks else { return }
        handle.write(Data("\(session) \(start)\n".utf8))
    }

    /// A clean shutdown ended every command: nothing to leave for the next host.
    func close() {
        try? handle?.close()
        handle = nil
        try? FileManager.default.removeItem(atPath: path)
    }

    private static func reapLeftovers(in directory: String, logger: Logger) {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for file in files where file.hasPrefix("sessions-") {
            let parts = file.split(separator: "-")
            guard parts.count == 3, let hostPID = Int32(parts[1]), let hostStart = Int(parts[2]) else { continue }
            if ProcStat.read(hostPID)?.startTicks == hostStart { continue }  // that host still runs
            let path = "\(directory)/\(file)"
            let lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n")
            var ended = 0
            for line in lines {
                let fields = line.split(separator: " ")
                guard fields.count == 2, let session = Int32(fields[0]), let leaderStart = Int(fields[1]) else { continue }
                if let leader = ProcStat.read(session), leader.startTicks != leaderStart { continue }  // id reused
                for pid in ProcStat.allPIDs() where pid != getpid() {
                    if ProcStat.read(pid)?.session == session, kill(pid, SIGKILL) == 0 { ended += 1 }
                }
            }
            if ended > 0 {
                logger.notice("ended processes a killed tunnel host left behind", metadata: ["host": "\(hostPID)", "processes": "\(ended)"])
            }
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}

/// The fields of /proc/<pid>/stat the ledger needs.
struct ProcStat {
    var session: Int32
    /// When the process started, in clock ticks since boot: with the pid, names one process.
    var startTicks: Int

    static func read(_ pid: Int32) -> ProcStat? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // Fields after the command name, starting at field 3 (state).
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let session = Int32(fields[3]), let start = Int(fields[19]) else { return nil }
        return ProcStat(session: session, startTicks: start)
    }

    static func allPIDs() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
    }
}
