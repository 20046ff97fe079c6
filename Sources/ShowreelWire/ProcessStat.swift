import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What Linux's `/proc` says about one process: the one reader of `/proc/<pid>/stat` and
/// `/proc/<pid>/status` for the registry (is a device's process still the one that booted?) and
/// the tunnel host (sessions a killed host left behind, whether a child catches a signal yet).
/// Elsewhere every read answers nil.
package struct ProcessStat: Sendable, Equatable {
    /// The state letter: R, S, D, T, Z (zombie), X (dead), ...
    package var state: Character
    package var session: Int32
    /// When the process started, in clock ticks since boot: with the pid, it names one process.
    package var startTicks: UInt64
    /// CPU time used so far, user and system, in clock ticks (`ticksPerSecond`).
    package var cpuTicks: UInt64

    /// The length of a clock tick, in ticks per second (`sysconf(_SC_CLK_TCK)`).
    package static var ticksPerSecond: Double { Double(sysconf(Int32(_SC_CLK_TCK))) }

    /// Exited but not yet reaped (or being removed): no longer runs anything.
    package var hasExited: Bool { state == "Z" || state == "X" }

    package static func read(_ pid: Int32) -> ProcessStat? {
        guard pid > 0, let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name (which may hold spaces and parentheses), from field 3 (state).
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let state = fields[0].first, let session = Int32(fields[3]),
            let user = UInt64(fields[11]), let system = UInt64(fields[12]), let start = UInt64(fields[19])
        else { return nil }
        return ProcessStat(state: state, session: session, startTicks: start, cpuTicks: user + system)
    }

    /// Every process id in /proc, read once.
    package static func allPIDs() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
    }

    /// Whether `pid` has a handler for `signal` installed (`SigCgt` in /proc/<pid>/status); nil
    /// when that cannot be read (no such process, not Linux).
    package static func catches(_ signal: Int32, pid: Int32) -> Bool? {
        guard pid > 0, signal > 0, signal <= 64,
            let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
            let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return nil }
        return mask & (UInt64(1) << UInt64(signal - 1)) != 0
    }
}
