import Foundation
import Logging
import ShowreelTestSupport
import ShowreelWire
import Testing

@testable import ShowreelHost

#if canImport(Glibc)
import Glibc
#endif

struct HTTPResult: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    var text: String { String(decoding: body, as: UTF8.self) }

    func jsonObject() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw TestFailure("not a JSON object: \(text)")
        }
        return object
    }

    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

func http(
    _ method: String,
    _ url: URL,
    body: Data? = nil,
    headers: [String: String] = [:],
    timeout: TimeInterval = 300
) async throws -> HTTPResult {
    let response = try await HTTPExchange(method, url, headers: headers.map { ($0.key, $0.value) }, body: body, timeout: .seconds(timeout))
        .send()
    return HTTPResult(status: response.status, headers: response.headers, body: response.body)
}

/// Base64 and percent-escaping exactly as the SBTUITestTunnelHost iOS client does: only
/// `/`, `+`, `=` and newlines are escaped; the other fields go out raw.
func legacyBody(command: String) -> Data {
    let escaped =
        command
        .replacingOccurrences(of: "/", with: "%2F")
        .replacingOccurrences(of: "+", with: "%2B")
        .replacingOccurrences(of: "=", with: "%3D")
        .replacingOccurrences(of: "\n", with: "%0A")
    let body = "command=\(escaped)&app_frame={{0, 0}, {393, 852}}&simulator_device_name=iPhone 15 Pro&simulator_device_runtime=17.5"
    return Data(body.utf8)
}

func base64(_ commandLine: String) -> String {
    Data(commandLine.utf8).base64EncodedString()
}

func legacy(
    _ base: URL, _ action: String, command: String, headers: [String: String] = ["Content-Type": "application/x-www-form-urlencoded"]
) async throws -> HTTPResult {
    try await http("POST", base.appendingPathComponent(action), body: legacyBody(command: command), headers: headers)
}

func legacyJSON(_ base: URL, _ action: String, command: String) async throws -> [String: Any] {
    let result = try await legacy(base, action, command: command)
    guard result.status == 200 else { throw TestFailure("/\(action) answered \(result.status): \(result.text)") }
    #expect(result.header("Content-Type")?.hasPrefix("application/json") == true)
    return try result.jsonObject()
}

func v1(_ method: String, _ base: URL, _ path: String, json: Any? = nil, headers: [String: String] = [:]) async throws -> HTTPResult {
    var headers = headers
    var body: Data? = nil
    if let json {
        body = try JSONSerialization.data(withJSONObject: json)
        headers["Content-Type"] = "application/json"
    }
    guard let url = URL(string: path, relativeTo: base) else { throw TestFailure("bad path \(path)") }
    return try await http(method, url, body: body, headers: headers)
}

/// Polls legacy /status until the command finished.
func legacyWaitFinished(_ base: URL, _ id: String, timeout: Duration = .seconds(20)) async throws -> [String: Any] {
    var last: [String: Any] = [:]
    let done = try await eventually(timeout: timeout) {
        last = try await legacyJSON(base, "status", command: id)
        return (last["result"] as? [String: Any])?["terminationStatus"] != nil
    }
    guard done else { throw TestFailure("command \(id) still running: \(last)") }
    return last["result"] as! [String: Any]
}

/// An HTTP/1.1 exchange over a plain socket, byte for byte: for Host headers URLSession
/// rewrites, IPv6 loopback, and clients that hang up early.
struct RawHTTPConnection: Sendable {
    let fd: Int32

    /// Connects to `address` (an IPv4 or IPv6 literal) on `port`.
    static func connect(_ address: String, _ port: Int) throws -> RawHTTPConnection {
        let isV6 = address.contains(":")
        let fd = socket(isV6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
        var result: Int32
        if isV6 {
            var addr = sockaddr_in6()
            addr.sin6_family = sa_family_t(AF_INET6)
            addr.sin6_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET6, address, &addr.sin6_addr)
            result = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = in_port_t(UInt16(port).bigEndian)
            inet_pton(AF_INET, address, &addr.sin_addr)
            result = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard result == 0 else {
            let message = String(cString: strerror(errno))
            _ = Glibc.close(fd)
            throw TestFailure("connect to \(address) port \(port): \(message)")
        }
        return RawHTTPConnection(fd: fd)
    }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written > 0 else { throw TestFailure("write: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// Reads until the server closes the connection and parses the response.
    func readResponse() async throws -> HTTPResult {
        let fd = self.fd
        let bytes: [UInt8] = await offThePool {
            var all: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                all += buffer[0..<count]
            }
            return all
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw TestFailure("no complete response: \(text)") }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return HTTPResult(status: status, headers: headers, body: Data(text[split.upperBound...].utf8))
    }

    func close() { _ = Glibc.close(fd) }
}

/// One request with exactly these bytes (`Connection: close` is added), and its response.
func rawHTTP(_ address: String, _ port: Int, method: String = "POST", path: String, host: String, body: String = "", headers: [String] = [])
    async throws -> HTTPResult
{
    let connection = try RawHTTPConnection.connect(address, port)
    defer { connection.close() }
    var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n"
    if !body.isEmpty { head += "Content-Type: application/x-www-form-urlencoded\r\n" }
    for header in headers { head += header + "\r\n" }
    try connection.send(Array((head + "\r\n" + body).utf8))
    return try await connection.readResponse()
}

/// A `showreel host` process (the real binary), listening on a free port.
struct HostProcess {
    /// The `showreel` binary next to the test bundle, if it was built and has `host`
    /// (SHOWREEL_BINARY overrides the lookup).
    static let binary: URL? = {
        if let override = ProcessInfo.processInfo.environment["SHOWREEL_BINARY"] {
            return URL(fileURLWithPath: override)
        }
        let candidates = [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])]
            .compactMap { $0?.resolvingSymlinksInPath().deletingLastPathComponent() }
        var directories = candidates
        // swift test runs xctest from the toolchain; the bundle is in the build products dir.
        directories += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for directory in directories {
            var candidate = directory.appendingPathComponent("showreel")
            for _ in 0..<3 where !FileManager.default.isExecutableFile(atPath: candidate.path) {
                candidate = candidate.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("showreel")
            }
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }()

    let process: Process
    let port: Int
    let listeningLine: String
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts `showreel host --port 0` with `arguments` and waits for its listening line.
    static func start(_ arguments: [String], home: String? = nil) async throws -> HostProcess {
        let process = try launch(arguments, home: home)
        let lines = await stderrLines(process, upTo: { HostAPI.ListeningLine.port(in: $0 + "\n") != nil })
        // A log line may come first (a stale spool removed at start); the listening line ends the reading.
        guard let line = lines.last, let port = HostAPI.ListeningLine.port(in: line + "\n") else {
            kill(process.processIdentifier, SIGKILL)
            throw TestFailure("showreel host did not start: \(lines.isEmpty ? "no output" : lines.joined(separator: "\n"))")
        }
        return HostProcess(process: process, port: port, listeningLine: line)
    }

    /// Runs `showreel host` with `arguments` until it exits (for refusals); its status and
    /// stderr. A host still running after 120 s (a refusal takes well under one, but a loaded
    /// machine may be slow to start a debug binary) is killed and reported as status -1.
    static func runToExit(_ arguments: [String]) async throws -> (status: Int32, stderr: String) {
        let process = try launch(arguments)
        return await offThePool {
            let deadline = Date().addingTimeInterval(120)
            while process.isRunning, Date() < deadline { usleep(20_000) }
            let timedOut = process.isRunning
            if timedOut { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let errors = (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile()
            return (
                timedOut ? -1 : process.terminationStatus,
                String(decoding: errors, as: UTF8.self) + (timedOut ? "(still running after 120 s)" : "")
            )
        }
    }

    /// `home` is the SHOWREEL_HOME the host keeps its session ledger in (default: one folder
    /// for this test process, so tests never touch the user's).
    private static func launch(_ arguments: [String], home: String? = nil) throws -> Process {
        guard let binary else { throw TestFailure("no showreel binary beside the test bundle: run `swift build --build-tests` first") }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["host", "--port", "0"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SHOWREEL_HOME"] =
            home ?? FileManager.default.temporaryDirectory.appendingPathComponent("showreel-host-tests-\(getpid())").path
        process.environment = environment
        process.standardError = Pipe()
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// The host's stderr lines, read whole, up to the first that `isLast` accepts or the end.
    private static func stderrLines(_ process: Process, upTo isLast: @escaping @Sendable (String) -> Bool) async -> [String] {
        let handle = (process.standardError as! Pipe).fileHandleForReading
        return await offThePool {
            var collected = Data()
            var lines: [String] = []
            while true {
                while let newline = collected.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: collected[collected.startIndex..<newline], as: UTF8.self)
                    collected.removeSubrange(collected.startIndex...newline)
                    lines.append(line)
                    if isLast(line) { return lines }
                }
                let data = handle.availableData
                if data.isEmpty { break }
                collected.append(data)
            }
            if !collected.isEmpty { lines.append(String(decoding: collected, as: UTF8.self)) }
            return lines
        }
    }
}

/// Runs blocking I/O on a thread of its own (`offPool`, as every blocking helper of the tests):
/// blocking a cooperative thread (there are as many as cores) would starve the in-process host
/// the test talks to, and a thread of Dispatch's global queues is one other work waits for.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    // A body that cannot throw: the only error offPool could pass on is the body's.
    try! await offPool { body() }
}
