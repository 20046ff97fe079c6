import Foundation
import ShowreelWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A signal sent in a command's first moments lands while its libraries are still loading, before
/// it has installed its handlers: SIGINT then kills a recorder with nothing written (or, where it
/// starts ignored, is lost). So the host waits, briefly and bounded, until the command catches
/// the signal (Linux: `SigCgt` in /proc/<pid>/status), and sends it anyway once the command is
/// `bound` old, so a program that never catches it still gets it. Older commands are not
/// waited for at all.
enum SignalReadiness {
    static func wait(until pid: Int32, catches signal: Int32, startedAt: Date, bound: Duration) async {
        guard signal != SIGKILL, signal != SIGSTOP else { return }
        let (seconds, attoseconds) = bound.components
        let deadline = startedAt.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
        while Date() < deadline, !Task.isCancelled {
            // nil: no /proc to ask, or the process is gone: nothing to wait for.
            guard ProcessStat.catches(signal, pid: pid) == false,
                ProcessStat.read(pid).map({ !$0.hasExited }) ?? false
            else { return }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
