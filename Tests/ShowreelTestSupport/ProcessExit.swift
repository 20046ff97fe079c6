import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension Process {
    /// Waits until the process has exited and returns its status, on a thread of its own,
    /// never on Swift's cooperative pool. For a process that is sure to end (one sent SIGKILL or
    /// SIGTERM, or a short tool).
    public func exitStatus() async throws -> Int32 {
        try await offPool {
            while true {
                if let status = self.exitedStatus { return status }
                usleep(10_000)
            }
        }
    }

    /// The status the process exited with, or nil while it runs.
    ///
    /// Foundation on Linux learns of a child's exit when a socket the child holds closes; a
    /// process another test started at the same moment can inherit that socket and keep it open
    /// for as long as it lives, and Foundation then reports the child running long after it
    /// exited. So an exit Foundation has not noticed is looked at directly (`waitid` with
    /// `WNOWAIT`: not reaped, Foundation still collects it), as Foundation would report it: the
    /// exit code, or the number of the signal that ended it.
    public var exitedStatus: Int32? {
        if !isRunning { return terminationStatus }
        return peekedExit?.status
    }

    /// How the process ended (Foundation's `terminationReason`), or nil while it runs; read as
    /// `exitedStatus` is, where Foundation's own would stop the test for a child it thinks runs.
    public var exitedReason: TerminationReason? {
        if !isRunning { return terminationReason }
        return peekedExit?.reason
    }

    private var peekedExit: (status: Int32, reason: TerminationReason)? {
        #if canImport(Glibc)
        var info = siginfo_t()
        guard waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOHANG | WNOWAIT) == 0,
            info._sifields._sigchld.si_pid == processIdentifier
        else { return nil }
        return (info._sifields._sigchld.si_status, Int(info.si_code) == Int(CLD_EXITED) ? .exit : .uncaughtSignal)
        #else
        return nil
        #endif
    }
}
