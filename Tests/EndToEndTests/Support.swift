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

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}

/// A TCP port nobody listens on right now.
func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
            guard bind(fd, pointer, length) == 0 else { return -1 }
            return getsockname(fd, pointer, &length)
        }
    }
    guard bound == 0 else { throw TestFailure("could not find a free port") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Polls `condition` until it holds, or fails after `timeout`.
func eventually(_ what: String, timeout: Duration = .seconds(20), _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw TestFailure("timed out waiting for \(what)") }
        try await Task.sleep(for: .milliseconds(20))
    }
}
