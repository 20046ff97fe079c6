import CXCB
import Foundation
import ShowreelWire

#if canImport(Glibc)
import Glibc
#endif

/// A virtual X display: Xvfb started on a free display number, in a session of its own (a
/// Ctrl-C in the terminal that started it does not end it; `stop()` ends its whole group).
///
/// Xvfb picks the number itself (`-displayfd`): no race with another server starting at the same
/// time. `showreel display start`, the tests and the benchmarks all start displays this way.
public struct XvfbServer: Sendable, Equatable {
    /// The display as `DISPLAY` writes it, e.g. `:99`.
    package let display: String
    /// The X server's process (its session and process group leader).
    package let pid: Int32

    /// A server started before (by another process): what the registry recorded.
    package init(display: String, pid: Int32) {
        self.display = display
        self.pid = pid
    }

    /// Why Xvfb could not be started, worded with what to do instead.
    package enum StartError: Error, CustomStringConvertible, Sendable {
        case notInstalled
        case badScreen(String)
        case failedToStart(String)
        /// The display number asked for has an X server already.
        case displayInUse(Int)

        package var description: String {
            switch self {
            case .notInstalled:
                return "Xvfb is not installed. Install Debian's xvfb package (sudo apt-get install xvfb, or scripts/install-deps)."
            case let .badScreen(detail): return detail
            case let .failedToStart(detail): return "Xvfb did not start: \(detail)"
            case let .displayInUse(number):
                return
                    "Display :\(number) is in use by another X server. Stop it, pick another number, or leave --display out to take a free one."
            }
        }
    }

    /// Starts Xvfb with one screen of `width`x`height` at `depth` bits (24 or 32) on display
    /// `number` (nil: the first free one) and returns once it accepts connections. Its stderr
    /// goes to `log` (nil: discarded).
    package static func start(
        width: Int = 1280, height: Int = 800, depth: Int = 24, number: Int? = nil, log: URL? = nil,
        timeout: Duration = .seconds(30)
    ) throws(StartError) -> XvfbServer {
        guard (16...8192).contains(width), (16...8192).contains(height) else {
            throw .badScreen("A display of \(width)x\(height) is out of range: use sizes from 16 to 8192, e.g. 1280x800.")
        }
        guard depth == 24 || depth == 32 else {
            throw .badScreen("Depth \(depth) cannot be recorded: use 24 (or 32).")
        }
        if let number, !(0...65535).contains(number) {
            throw .badScreen("Display :\(number) is out of range: use a number from 0 to 65535, e.g. :99.")
        }
        // Xvfb would fail on a display that has a server, but only into its log: said here in one
        // sentence. What a killed server left behind (a socket, a lock) Xvfb takes over by itself.
        if let number, hasServer(number) { throw .displayInUse(number) }
        guard let program = findOnPath("Xvfb") else { throw .notInstalled }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw .failedToStart("no pipe: \(String(cString: strerror(errno)))") }
        defer { close(fds[0]) }
        // -noreset: without it the server resets (clearing the screen) whenever its last client leaves.
        let arguments =
            [program] + (number.map { [":\($0)"] } ?? [])
            + ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x\(depth)", "-nolisten", "tcp", "-noreset"]
        let pid: pid_t
        do {
            defer { close(fds[1]) }
            pid = try spawn(arguments, stdout: fds[1], stderr: log?.path ?? "/dev/null")
        }
        // Xvfb writes the display number and a newline once it listens.
        var text = ""
        let deadline = ContinuousClock.now + timeout
        while !text.hasSuffix("\n") {
            let left = deadline - .now
            guard left > .zero else {
                kill(-pid, SIGKILL)
                throw .failedToStart("no display number within \(timeout)\(log.map { "; see \($0.path)" } ?? "")")
            }
            var readable = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
            _ = poll(&readable, 1, Int32(min(1000, left.components.seconds * 1000 + 1)))
            guard readable.revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 32)
            let count = read(fds[0], &chunk, chunk.count)
            guard count > 0 else {
                var status: Int32 = 0
                waitpid(pid, &status, 0)
                throw .failedToStart("it exited (status \(status))\(log.map { "; see \($0.path)" } ?? "")")
            }
            text += String(decoding: chunk[0..<count], as: UTF8.self)
        }
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(-pid, SIGKILL)
            throw .failedToStart("it wrote '\(text)' instead of a display number")
        }
        return XvfbServer(display: ":\(number)", pid: pid)
    }

    /// Whether an X server answers on display `number`.
    private static func hasServer(_ number: Int) -> Bool {
        guard let connection = xcb_connect(":\(number)", nil) else { return false }
        defer { xcb_disconnect(connection) }
        return xcb_connection_has_error(connection) == 0
    }

    /// Ends the server's process group (SIGTERM, then SIGKILL after `grace`) and waits for the
    /// server to be gone. Returns false if it was already gone.
    @discardableResult
    package func stop(grace: Duration = .seconds(5)) -> Bool {
        guard Self.isRunning(pid) else { return false }
        kill(-pid, SIGTERM)
        let deadline = ContinuousClock.now + grace
        while Self.isRunning(pid), ContinuousClock.now < deadline { usleep(20_000) }
        if Self.isRunning(pid) { kill(-pid, SIGKILL) }
        while Self.isRunning(pid) { usleep(20_000) }
        return true
    }

    /// Whether `pid` still runs (a zombie child of ours is reaped here; anyone's counts as gone).
    package static func isRunning(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { return false }
        return DeviceRegistry.isAlive(pid: pid, startTime: nil)
    }

    /// Open descriptors that a new process would inherit (those without close-on-exec).
    private static func inheritedDescriptors() -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.compactMap { Int32($0) }.filter { fd in
            let flags = fcntl(fd, F_GETFD)
            return flags >= 0 && flags & FD_CLOEXEC == 0
        }
    }

    private static func spawn(_ arguments: [String], stdout: Int32, stderr path: String) throws(StartError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_addopen(&actions, 2, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        // Nothing else of ours goes with it: a server holding a pipe its starter's parent waits on
        // (a test runner's, a tunnel host's) would keep that parent waiting as long as it runs.
        for fd in inheritedDescriptors() where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A session of its own; signals reset to default (the recorder's caller may ignore some).
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        // POSIX_SPAWN_SETSID (glibc 2.26) is declared only under _GNU_SOURCE, which Swift's import lacks.
        let setsid: Int32 = 0x80
        posix_spawnattr_setflags(&attributes, Int16(setsid | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard result == 0 else { throw .failedToStart("\(arguments[0]): \(String(cString: strerror(result)))") }
        return pid
    }

    private static func findOnPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }
}
