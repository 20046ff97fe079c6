import Foundation
import Logging
import Testing
@testable import ShowreelHost
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Quiet logger for in-process hosts (set SHOWREEL_TEST_LOG=debug to see their logs).
let testLogger: Logger = {
    if let level = ProcessInfo.processInfo.environment["SHOWREEL_TEST_LOG"].flatMap(Logger.Level.init(rawValue:)) {
        var logger = Logger(label: "showreel.host.test") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = level
        return logger
    }
    return Logger(label: "showreel.host.test") { _ in SwiftLogNoOpLogHandler() }
}()

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Runs a host in-process on an ephemeral port for the duration of `body`, then cancels it
/// (which terminates its children).
func withHost<T>(
    _ configuration: TunnelHostConfiguration = TunnelHostConfiguration(),
    _ body: (URL) async throws -> T
) async throws -> T {
    var configuration = configuration
    configuration.port = 0
    configuration.handlesSignals = false
    let host = TunnelHost(configuration: configuration, logger: testLogger)
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let task = Task {
        defer { continuation.finish() }
        try await host.run { port in continuation.yield(port) }
    }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else {
        _ = try await task.value
        throw TestFailure("the host stopped before listening")
    }
    let baseURL = URL(string: "http://127.0.0.1:\(port)")!
    do {
        let result = try await body(baseURL)
        task.cancel()
        _ = try? await task.value
        return result
    } catch {
        task.cancel()
        _ = try? await task.value
        throw error
    }
}

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
    timeout: TimeInterval = 30
) async throws -> HTTPResult {
    var request = URLRequest(url: url, timeoutInterval: timeout)
    request.httpMethod = method
    request.httpBody = body
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await URLSession.shared.data(for: request)
    let http = response as! HTTPURLResponse
    var fields: [String: String] = [:]
    for (key, value) in http.allHeaderFields {
        fields["\(key)"] = "\(value)"
    }
    return HTTPResult(status: http.statusCode, headers: fields, body: data)
}

/// Base64 and percent-escaping exactly as the SBTUITestTunnelHost iOS client does: only
/// `/`, `+`, `=` and newlines are escaped; the other fields go out raw.
func legacyBody(command: String) -> Data {
    let escaped = command
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

func legacy(_ base: URL, _ action: String, command: String, headers: [String: String] = ["Content-Type": "application/x-www-form-urlencoded"]) async throws -> HTTPResult {
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

/// Whether `pid` is a live process (a zombie or a missing entry counts as gone).
func isAlive(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return false }
    let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    return state != "Z" && state != "X"
}

/// Polls `condition` until it holds or `timeout` passes.
func eventually(timeout: Duration = .seconds(10), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
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
