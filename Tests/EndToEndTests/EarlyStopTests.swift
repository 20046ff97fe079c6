import Foundation
import ShowreelTestSupport
import ShowreelWire
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The commands that run until stopped (tunnel host, WebDriver server, booted device) take a
/// SIGINT sent while they are still starting: they stop, or (in the few milliseconds the dynamic
/// loader runs, before any of their code can) die of it as any program does. None runs on.
@Suite("A stop sent while a command starts", .serialized)
struct EarlyStopTests {
    static let commands: [(name: String, arguments: [String])] = [
        ("host", ["host", "--port", "0"]),
        ("webdriver", ["webdriver", "--port", "0"]),
        ("device boot", ["device", "boot", "--clock", "virtual"]),
    ]

    @Test(
        "SIGINT 0-150 ms after start: each command exits 0 (or was killed by it before it could run any code), never runs on",
        arguments: commands.map(\.name))
    func stopWhileStarting(_ name: String) async throws {
        let arguments = try Self.arguments(of: name)
        let workspace = try Workspace()
        var outcomes: [String] = []
        for delay in [0, 25, 50, 75, 100, 150] {
            let child = try ChildProcess(
                try BuildProducts.showreel, arguments, environment: workspace.environment, in: workspace, name: "\(name)-\(delay)")
            try await Task.sleep(for: .milliseconds(delay))
            child.signal(SIGINT)
            // Ends well before this bound or it runs on; a hung one is killed and fails the test.
            let status = try await child.waitForExit(timeout: .seconds(60))
            let killed = child.terminationReason == .uncaughtSignal
            outcomes.append("\(delay) ms: \(killed ? "killed by signal \(status)" : "exit \(status)")")
            #expect(killed ? status == SIGINT : status == 0, "\(name), SIGINT after \(delay) ms: \(outcomes.last!); \(child.stderr)")
        }
        // A device stopped while it booted is listed as shut down, as any stopped device is.
        #expect(workspace.registry.records().allSatisfy { $0.state == .shutdown }, "\(workspace.registry.records())")
    }

    @Test(
        "SIGINT inherited as ignored (a `cmd &` in a script): the commands catch it from their first instruction and stop on it",
        arguments: commands.map(\.name))
    func inheritedIgnore(_ name: String) async throws {
        let arguments = try Self.arguments(of: name)
        let workspace = try Workspace()
        let child = try ChildProcess(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "trap '' INT; exec \"$0\" \"$@\"", try BuildProducts.showreel.path] + arguments,
            environment: workspace.environment, in: workspace, name: name)
        // Its handler is in place long before it serves: sent then, the signal must not be lost.
        // The shell catches SIGINT too until its `trap` runs (dash does with `-c`), and a signal
        // it caught is dropped by that `trap ''`: only the handler of `showreel` itself counts.
        let showreel = try BuildProducts.showreel.resolvingSymlinksInPath().path
        let pid = child.process.processIdentifier
        #expect(await eventually(timeout: .seconds(30)) { Self.runs(showreel, pid: pid) && Self.catches(SIGINT, pid: pid) })
        child.signal(SIGINT)
        let status = try await child.waitForExit(timeout: .seconds(60))
        #expect(child.terminationReason == .exit && status == 0, "\(name): \(status); \(child.stderr)")
    }

    /// The command line of the command called `name`.
    static func arguments(of name: String) throws -> [String] {
        guard let command = commands.first(where: { $0.name == name }) else { throw TestFailure("no command \(name)") }
        return command.arguments
    }

    /// Whether `pid` has exec'd `executable`.
    static func runs(_ executable: String, pid: Int32) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) == executable
    }

    /// Whether `pid` has a handler for `signal` (`SigCgt` in `/proc/<pid>/status`).
    static func catches(_ signal: Int32, pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
            let mask = UInt64(line.split(separator: "\t").last ?? "", radix: 16)
        else { return false }
        return mask & (1 << UInt64(signal - 1)) != 0
    }
}
