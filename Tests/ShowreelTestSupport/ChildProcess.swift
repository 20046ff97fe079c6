import Foundation
import ShowreelWire

#if canImport(Glibc)
import Glibc
#endif

/// A child process whose output is captured to files, killed if the test forgets it.
public final class ChildProcess: @unchecked Sendable {
    public let process = Process()
    public let stdoutURL: URL
    public let stderrURL: URL

    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String], in workspace: Workspace, name: String,
        directory: URL? = nil, input: URL? = nil
    ) throws {
        stdoutURL = workspace.file("\(name).out")
        stderrURL = workspace.file("\(name).err")
        FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = directory }
        let output = try FileHandle(forWritingTo: stdoutURL), errors = try FileHandle(forWritingTo: stderrURL)
        process.standardOutput = output
        process.standardError = errors
        // Standard input from a file (`pbcopy < file`); the child reads its own copy.
        let reading = try input.map { try FileHandle(forReadingFrom: $0) }
        if let reading { process.standardInput = reading }
        defer {
            // The child has its own copies: this process's stay open for good otherwise.
            try? output.close()
            try? errors.close()
            try? reading?.close()
        }
        try process.run()
    }

    /// What it exited with (see `Process.exitedStatus`); asked of a child that still runs, it
    /// stops the test, as Foundation's does.
    public var terminationStatus: Int32 { process.exitedStatus ?? process.terminationStatus }

    /// Whether it exited or a signal ended it (see `Process.exitedReason`), asked as `terminationStatus` is.
    public var terminationReason: Process.TerminationReason { process.exitedReason ?? process.terminationReason }

    public var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Waits for exit (polling, so a hung child fails the test instead of hanging it). The bound
    /// is for a hang, not a speed: a loaded test process may not look for minutes' fractions.
    public func waitForExit(timeout: Duration = .seconds(120)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let status = process.exitedStatus { return status }
            guard ContinuousClock.now < deadline else {
                process.terminate()
                throw TestFailure(
                    "\(process.executableURL!.lastPathComponent) \(process.arguments!) did not exit within \(timeout); stderr: \(stderr)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The port a `showreel host --port 0` child reports listening on. Letting the host pick
    /// its own port leaves no window in which another process could take a port chosen for
    /// it; a host that exits first fails at once with its stderr.
    public func listeningPort(timeout: Duration = .seconds(60)) async throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while true {
            let text = stderr
            if let port = HostAPI.ListeningLine.port(in: text) { return port }
            guard process.isRunning else {
                throw TestFailure(
                    "\(process.executableURL!.lastPathComponent) exited with \(process.terminationStatus) before listening; stderr: \(text)"
                )
            }
            guard ContinuousClock.now < deadline else {
                throw TestFailure("\(process.executableURL!.lastPathComponent) did not report listening within \(timeout); stderr: \(text)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Sends `number` as soon as `condition` holds, watching (every 20 ms) and signalling from a
    /// thread of its own: on Swift's cooperative pool, other tests that stall it could hold the
    /// signal back until the child had finished what it was to be stopped in. Fails if the child
    /// exits first, or `condition` does not hold within `timeout` (a hang, not a speed).
    public func send(
        _ number: Int32, when what: String, timeout: Duration = .seconds(120), _ condition: @escaping () -> Bool
    ) async throws {
        let watch = UncheckedCondition(condition)
        let seconds = Double(timeout.components.seconds)
        try await offPool { [self] in
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                guard process.isRunning else {
                    throw TestFailure(
                        "\(process.executableURL!.lastPathComponent) exited with \(process.terminationStatus) before \(what); stderr: \(stderr)"
                    )
                }
                if watch.holds() {
                    signal(number)
                    return
                }
                usleep(20_000)
            }
            throw TestFailure("\(process.executableURL!.lastPathComponent): no \(what) within \(timeout); stderr: \(stderr)")
        }
    }

    /// Ends it with SIGTERM, as a person would, and waits until it exited (off the pool).
    public func stop() async throws {
        if process.isRunning { process.terminate() }
        _ = try await process.exitStatus()
    }

    /// Runs `body`, then stops the process, also when `body` throws: a `defer` cannot wait.
    public func stopping<T>(after body: () async throws -> T) async throws -> T {
        let result: T
        do { result = try await body() } catch {
            try? await stop()
            throw error
        }
        try await stop()
        return result
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}

/// A condition read only by the one thread that watches it.
private final class UncheckedCondition: @unchecked Sendable {
    let holds: () -> Bool
    init(_ holds: @escaping () -> Bool) { self.holds = holds }
}
