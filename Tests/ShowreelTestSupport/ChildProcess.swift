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
        directory: URL? = nil
    ) throws {
        stdoutURL = workspace.file("\(name).out")
        stderrURL = workspace.file("\(name).err")
        FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = directory }
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
    }

    public var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    public var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Waits for exit (polling, so a hung child fails the test instead of hanging it). The bound
    /// is for a hang, not a speed: a loaded test process may not look for minutes' fractions.
    public func waitForExit(timeout: Duration = .seconds(120)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                process.terminate()
                throw TestFailure(
                    "\(process.executableURL!.lastPathComponent) \(process.arguments!) did not exit within \(timeout); stderr: \(stderr)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationStatus
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

    /// Ends it with SIGTERM, as a person would, and waits until it exited.
    public func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}
