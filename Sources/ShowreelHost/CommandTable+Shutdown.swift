import Foundation
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The host's shutdown: every child's process group ended (SIGTERM, then SIGKILL after the
// grace period), and the bookkeeping of the groups that may still have members.
extension CommandTable {
    /// Ends every child: SIGTERM to each process group, SIGKILL to what is left after the grace
    /// period, then waits for the children to be reaped. Idempotent; no new commands start after.
    func shutdown() async {
        if isShuttingDown {
            while !shutdownFinished { try? await Task.sleep(for: .milliseconds(20)) }
            return
        }
        isShuttingDown = true
        dismissStandbys()
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
    func forgetEndedGroups() {
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
