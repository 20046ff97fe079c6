import Foundation
import ShowreelRecorder
import ShowreelTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `showreel webdriver` under hostile clients (issue 33, items 1-6), as a real process over real
/// HTTP: locators that crashed or froze it, huge bodies, unlimited sessions, a client that hangs
/// up mid-command, and `kill -9` in the middle of a recorded session.
@Suite("WebDriver server limits")
struct WebDriverLimitsTests {
    typealias Server = WebDriverSuiteTests.Server

    static func capabilities(_ extra: [String: Any] = [:]) -> [String: Any] {
        ["capabilities": ["alwaysMatch": ["platformName": "iOS", "appium:bundleId": "dev.showreel.hello"].merging(extra) { $1 }]]
    }

    static func newSession(_ server: Server, _ extra: [String: Any] = [:]) async throws -> String {
        let created = try await server.value("POST", "/session", capabilities(extra)) as? [String: Any]
        return try #require(created?["sessionId"] as? String)
    }

    /// The W3C error of an answer: status and `error`, and its message.
    static func error(_ answer: (Int, [String: Any])) -> (Int, String, String) {
        let value = answer.1["value"] as? [String: Any]
        return (answer.0, value?["error"] as? String ?? "", value?["message"] as? String ?? "")
    }

    /// The server's peak resident memory so far, in MiB (`VmHWM`).
    static func peakMemory(_ server: Server) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(server.process.process.processIdentifier)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return (Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0) / 1024
    }

    @Test(
        "locators that crashed or froze the server are answered (invalid selector, no match) while other sessions, /status and new sessions keep working; SIGTERM still finishes the recordings"
    )
    func hostileLocators() async throws {
        let workspace = try Workspace()
        let server = try await Server.start(workspace)
        // No idle timeout: on a busy machine the hostile requests below can take longer than Appium's 60 s.
        let first = try await Self.newSession(
            server, ["showreel:record": true, "showreel:name": "hostile", "appium:newCommandTimeout": 0])
        let second = try await Self.newSession(server, ["appium:newCommandTimeout": 0])

        // 2000 nested parentheses: a SIGSEGV that ended every session.
        let deep = String(repeating: "(", count: 2000) + "//*" + String(repeating: ")", count: 2000)
        var (status, code, message) = Self.error(
            try await server.call("POST", "/session/\(first)/element", ["using": "xpath", "value": deep]))
        #expect(status == 400 && code == "invalid selector" && message.contains("at most 64 levels"), "\(status) \(code) \(message)")
        (status, code, message) = Self.error(
            try await server.call(
                "POST", "/session/\(first)/element",
                ["using": "-ios predicate string", "value": String(repeating: "NOT ", count: 100_000) + "visible"]))
        #expect(status == 400 && code == "invalid selector" && message.contains("at most 10000 characters"), "\(status) \(code) \(message)")
        (status, code, message) = Self.error(
            try await server.call("POST", "/session/\(first)/element", ["using": "-ios predicate string", "value": "label MATCHES '(abc'"]))
        #expect(status == 400 && code == "invalid selector" && message.contains("never closed"), "\(status) \(code) \(message)")

        // A number too large for an Int crashed the server (a trap converting it).
        (status, code, message) = Self.error(
            try await server.call(
                "POST", "/session/\(first)/execute/sync",
                ["script": "mobile: keys", "args": [["keys": [["key": "d", "modifierFlags": 1e300]]]]]))
        #expect(status == 400 && code == "invalid argument" && message.contains("modifierFlags"), "\(status) \(code) \(message)")

        // Two regular expressions that spun a core each for good, while the server answers others.
        let freeze = ["using": "-ios predicate string", "value": "label MATCHES '((((.*)*)*)*)*x'"]
        async let a = server.call("POST", "/session/\(first)/elements", freeze)
        async let b = server.call("POST", "/session/\(second)/elements", freeze)
        async let like = server.call(
            "POST", "/session/\(second)/elements", ["using": "-ios predicate string", "value": "label LIKE '************x'"])
        async let status1 = server.call("GET", "/status")
        async let third = Self.newSession(server)
        let answers = try await [a, b, like, status1]
        for answer in answers { #expect(answer.0 == 200, "\(answer)") }
        #expect((answers[0].1["value"] as? [Any])?.isEmpty == true, "nothing ends with x")
        _ = try await third
        let tap = try #require(
            try await server.value("POST", "/session/\(first)/element", ["using": "accessibility id", "value": "tapButton"])
                as? [String: String])
        _ = try await server.value("POST", "/session/\(first)/element/\(tap["ELEMENT"]!)/click", [:])

        // A stop signal still stops the server within its bound, the recording finished.
        try await server.stop()
        let video = server.output.appendingPathComponent("hostile.mov")
        let frames = try await decodedFrames(video).count
        #expect(frames >= 1)
    }

    @Test("bodies are bounded per route: 62 MB to POST /session is a 413 and to a missing session a 404, the server staying small")
    func largeBodies() async throws {
        let workspace = try Workspace()
        let server = try await Server.start(workspace)
        let huge =
            Data("{\"capabilities\": {\"alwaysMatch\": {\"x\": \"".utf8) + Data(repeating: UInt8(ascii: "a"), count: 62 << 20)
            + Data("\"}}}".utf8)
        func post(_ path: String) async throws -> (Int, String) {
            var request = URLRequest(url: URL(string: server.url + path)!)
            request.httpMethod = "POST"
            request.httpBody = huge
            request.timeoutInterval = 600
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            let (data, response) = try await httpData(for: request)
            let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, ((json["value"] as? [String: Any])?["message"] as? String) ?? "")
        }
        // The client, still sending, gets the answer: the rest of the body is read and thrown away.
        let (created, message) = try await post("/session")
        #expect(created == 413 && message.contains("at most 1048576 bytes"), "\(created) \(message)")
        async let missing = [
            post("/session/nope/element"), post("/session/nope/element"), post("/session/nope/element"), post("/session/nope/element"),
        ]
        for (status, message) in try await missing {
            #expect(status == 404 && message.contains("No session 'nope'"), "\(status) \(message)")
        }
        let (status, code, _) = Self.error(try await server.call("POST", "/session/nope/element", ["using": "id", "value": "x"]))
        #expect(status == 404 && code == "invalid session id")
        let peak = try Self.peakMemory(server)
        #expect(peak < 200, "the server peaked at \(peak) MiB (it took 1.64 GB for one 62 MB body)")
        #expect(try await server.call("GET", "/status").0 == 200)
        try await server.stop()
    }

    @Test("--max-sessions caps the sessions: one more is 'session not created' saying why; ending one makes room")
    func maxSessions() async throws {
        let workspace = try Workspace()
        let server = try await Server.start(workspace, ["--max-sessions", "2"])
        let first = try await Self.newSession(server, ["appium:newCommandTimeout": 0])
        _ = try await Self.newSession(server, ["appium:newCommandTimeout": 0])
        let (status, code, message) = Self.error(try await server.call("POST", "/session", Self.capabilities()))
        #expect(status == 500 && code == "session not created" && message.contains("--max-sessions 2"), "\(status) \(code) \(message)")
        _ = try await server.value("DELETE", "/session/\(first)")
        _ = try await Self.newSession(server)
        try await server.stop()
    }

    @Test("a command whose client hangs up is cancelled: the next command does not wait behind its implicit wait")
    func hangUpCancels() async throws {
        let workspace = try Workspace()
        let server = try await Server.start(workspace)
        let session = try await Self.newSession(server, ["showreel:clock": "real"])
        _ = try await server.value("POST", "/session/\(session)/timeouts", ["implicit": 300_000])
        let port = try #require(Int(server.url.split(separator: ":").last!))
        try await offPool {
            let body = #"{"using": "accessibility id", "value": "nothing-has-this-name"}"#
            let request =
                "POST /session/\(session)/element HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
            let socket = try Self.connect(port: port)
            _ = request.withCString { send(socket, $0, strlen($0), 0) }
            Thread.sleep(forTimeInterval: 1)
            close(socket)  // the client gives up on its 300 s find
        }
        // Without the cancellation this waits until the find's 300 s are over.
        var request = URLRequest(url: URL(string: server.url + "/session/\(session)/source")!)
        request.timeoutInterval = 60
        let (_, response) = try await httpData(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)

        // A client still waiting on a 300 s find does not hold up SIGTERM: the server stops within its bound.
        let waiting = try Self.connect(port: port)
        defer { close(waiting) }
        let body = #"{"using": "accessibility id", "value": "nothing-has-this-name"}"#
        let find =
            "POST /session/\(session)/element HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        _ = find.withCString { send(waiting, $0, strlen($0), 0) }
        try await Task.sleep(for: .seconds(1))
        try await server.stop()
    }

    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw TestFailure("could not connect to port \(port)") }
        return fd
    }

    @Test("kill -9 during a recorded session leaves a playable .partial.mov missing at most its last second")
    func killedRecording() async throws {
        let workspace = try Workspace()
        let server = try await Server.start(workspace)
        let session = try await Self.newSession(server, ["showreel:record": true, "showreel:name": "killed", "showreel:clock": "real"])
        let started = ContinuousClock.now  // the video began before this
        let tap = try #require(
            try await server.value("POST", "/session/\(session)/element", ["using": "accessibility id", "value": "tapButton"])
                as? [String: String])
        _ = try await server.value("POST", "/session/\(session)/element/\(try #require(tap["ELEMENT"]))/click", [:])
        try await Task.sleep(for: .seconds(4))
        let recorded = (ContinuousClock.now - started) / .seconds(1)
        server.process.signal(SIGKILL)
        _ = try await server.process.waitForExit()
        let partial = server.output.appendingPathComponent(".killed.partial.mov")
        #expect(FileManager.default.fileExists(atPath: partial.path), "the killed session's video is under its partial name")
        let report = try await ffprobe(partial)
        let (seconds, frames) = (report.duration, report.frames)
        let duration = try #require(seconds, "ffprobe reads the killed file (it had no moov atom)")
        #expect(duration >= recorded - 1, "\(duration) s of video for more than \(recorded) s recorded")
        #expect((frames ?? 0) >= 2, "its frames decode: \(frames ?? 0)")
    }
}
