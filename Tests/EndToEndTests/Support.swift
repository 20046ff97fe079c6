import Foundation
import ShowreelWire
#if canImport(Glibc)
import Glibc
#endif

/// Paths to what `swift build` produced: the test bundle sits beside the `showreel` binary.
enum BuildProducts {
    static var directory: URL {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: me).deletingLastPathComponent()
    }

    static var showreel: URL {
        get throws {
            let url = directory.appendingPathComponent("showreel")
            guard FileManager.default.isExecutableFile(atPath: url.path) else {
                throw TestFailure("no showreel binary at \(url.path): run `swift build --build-tests` (make test does) first")
            }
            return url
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A private registry and scratch folder per test, short enough for Unix socket paths.
final class Workspace: @unchecked Sendable {
    let url: URL
    var registry: DeviceRegistry { DeviceRegistry(home: url.appendingPathComponent("home")) }
    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["SHOWREEL_HOME"] = registry.home.path
        return env
    }

    init() throws {
        url = URL(fileURLWithPath: "/tmp").appendingPathComponent("sre-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url.appendingPathComponent("home"), withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// A child process whose output is captured to files, killed if the test forgets it.
final class ChildProcess: @unchecked Sendable {
    let process = Process()
    let stdoutURL: URL
    let stderrURL: URL

    init(_ executable: URL, _ arguments: [String], environment: [String: String], in workspace: Workspace, name: String,
         directory: URL? = nil) throws {
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

    var stdout: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Waits for exit (polling, so a hung child fails the test instead of hanging it).
    func waitForExit(timeout: Duration = .seconds(30)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                process.terminate()
                throw TestFailure("\(process.executableURL!.lastPathComponent) \(process.arguments!) did not exit within \(timeout); stderr: \(stderr)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationStatus
    }

    /// The port a `showreel host --port 0` child reports listening on. Letting the host pick
    /// its own port leaves no window in which another process could take a port chosen for
    /// it; a host that exits first fails at once with its stderr.
    func listeningPort(timeout: Duration = .seconds(60)) async throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while true {
            let text = stderr
            if let port = HostAPI.ListeningLine.port(in: text) { return port }
            guard process.isRunning else {
                throw TestFailure("\(process.executableURL!.lastPathComponent) exited with \(process.terminationStatus) before listening; stderr: \(text)")
            }
            guard ContinuousClock.now < deadline else {
                throw TestFailure("\(process.executableURL!.lastPathComponent) did not report listening within \(timeout); stderr: \(text)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}

/// Polls `condition` until it holds, or fails after `timeout`.
func eventually(_ what: String, timeout: Duration = .seconds(20), _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw TestFailure("timed out waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(20))
    }
}
