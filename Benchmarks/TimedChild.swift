import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child process run to its end and timed from spawn to exit. Foundation's
/// `Process.waitUntilExit()` notices an exit on its run loop's next turn, about every 50 ms on
/// Linux, which would round each run's time to that step: this spawns with `posix_spawn` and
/// blocks in `waitpid`, so the time is the child's own.
struct TimedChild {
    var status: Int32
    var seconds: Double
    /// What the child wrote to stdout and stderr.
    var output: String

    static func run(_ path: String, _ arguments: [String], environment: [String: String]) throws -> TimedChild {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("showreel-bench-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }

        var pid = pid_t()
        let start = monotonicSeconds()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchmarkError("cannot start \(path): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw BenchmarkError("waiting for \(path): \(String(cString: strerror(errno)))") }
        }
        let seconds = monotonicSeconds() - start
        // WIFEXITED / WEXITSTATUS, which Swift does not import as macros.
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return TimedChild(status: exitStatus, seconds: seconds, output: (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }
}
