import Foundation

#if canImport(CDispatch)
// Where Linux's toolchain declares `timespec` for Swift (clock_gettime's result).
import CDispatch
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time and peak resident memory of this process or of its waited-for children.
struct Usage: Codable {
    var userSeconds: Double
    var systemSeconds: Double
    /// ru_maxrss: KiB on Linux.
    var maxRSSKiB: Int

    var cpuSeconds: Double { userSeconds + systemSeconds }

    static func current(children: Bool = false) -> Usage {
        var usage = rusage()
        #if canImport(Glibc)
        _ = getrusage(__rusage_who_t((children ? RUSAGE_CHILDREN : RUSAGE_SELF).rawValue), &usage)
        #else
        _ = getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &usage)
        #endif
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return Usage(
            userSeconds: seconds(usage.ru_utime), systemSeconds: seconds(usage.ru_stime),
            maxRSSKiB: Int(usage.ru_maxrss))
    }

    /// CPU used between `start` and `self` (peak memory is the later reading's).
    func since(_ start: Usage) -> Usage {
        Usage(
            userSeconds: userSeconds - start.userSeconds, systemSeconds: systemSeconds - start.systemSeconds,
            maxRSSKiB: maxRSSKiB)
    }
}

/// Monotonic wall-clock seconds.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// CPU seconds used by the calling thread.
func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A process started with posix_spawn (no shell, no PATH lookup: `path` is absolute).
struct SpawnedProcess {
    let pid: pid_t
    /// Our end of the child's stdin pipe, when asked for.
    let stdinWriter: Int32?
    /// Our end of the child's stdout pipe, when asked for.
    let stdoutReader: Int32?

    static func spawn(
        _ path: String, _ arguments: [String], pipeStdin: Bool = false, pipeStdout: Bool = false,
        stderrToNull: Bool = false
    ) throws -> SpawnedProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var inFDs: [Int32] = [-1, -1]
        var outFDs: [Int32] = [-1, -1]
        if pipeStdin {
            guard makePipe(&inFDs) else { throw BenchmarkError("pipe: \(String(cString: strerror(errno)))") }
            posix_spawn_file_actions_adddup2(&actions, inFDs[0], 0)
        }
        if pipeStdout {
            guard makePipe(&outFDs) else { throw BenchmarkError("pipe: \(String(cString: strerror(errno)))") }
            posix_spawn_file_actions_adddup2(&actions, outFDs[1], 1)
        }
        if stderrToNull {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, nil, argv, environ)
        if pipeStdin { close(inFDs[0]) }
        if pipeStdout { close(outFDs[1]) }
        guard result == 0 else {
            if pipeStdin { close(inFDs[1]) }
            if pipeStdout { close(outFDs[0]) }
            throw BenchmarkError("could not start \(path): \(String(cString: strerror(result)))")
        }
        return SpawnedProcess(
            pid: pid, stdinWriter: pipeStdin ? inFDs[1] : nil,
            stdoutReader: pipeStdout ? outFDs[0] : nil)
    }

    /// Reads the child's stdout to its end.
    func readAllStdout() -> Data {
        guard let fd = stdoutReader else { return Data() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        close(fd)
        return data
    }

    /// Waits for exit; returns the exit code, or 128 + signal.
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}

/// Writes all of `count` bytes at `pointer` to `fd`.
func writeFully(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) throws {
    var offset = 0
    while offset < count {
        let written = write(fd, pointer + offset, count - offset)
        if written < 0 {
            if errno == EINTR { continue }
            throw BenchmarkError("write to the pipe failed: \(String(cString: strerror(errno)))")
        }
        offset += written
    }
}

/// Reads exactly `count` bytes at `offset` of `fd` into `pointer`.
func readFully(_ fd: Int32, _ pointer: UnsafeMutableRawPointer, _ count: Int, at offset: Int) throws {
    var done = 0
    while done < count {
        let got = pread(fd, pointer + done, count - done, off_t(offset + done))
        if got < 0, errno == EINTR { continue }
        guard got > 0 else { throw BenchmarkError("short read from the frame file") }
        done += got
    }
}

/// An executable on PATH, like a shell would find it.
func findOnPath(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for directory in path.split(separator: ":") {
        let candidate = "\(directory)/\(name)"
        if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
}

/// A pipe whose ends are not inherited by spawned processes (posix_spawn dup2s the one they get).
private func makePipe(_ fds: inout [Int32]) -> Bool {
    guard pipe(&fds) == 0 else { return false }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return true
}

/// Linux's fcntl command to resize a pipe.
let F_SETPIPE_SZ: Int32 = 1031

/// Runs async work from the benchmark's synchronous sections (an in-process server's).
func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var result: Result<T, any Error>?
    Task {
        do { result = .success(try await work()) } catch { result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try result!.get()
}

func blocking(_ work: @escaping @Sendable () async -> Void) {
    _ = try? blocking { () async throws -> Int in
        await work()
        return 0
    }
}
