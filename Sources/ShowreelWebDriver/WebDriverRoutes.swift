import Foundation
import Hummingbird
import ShowreelGraphics
import ShowreelHTTP
import ShowreelWire

/// Every command the server answers: method, path (after `/` or `/wd/hub`), handler.
/// A path that matches under another method is `unknown method`; one that matches none is
/// `unknown command`.
struct WebDriverRoute: Sendable {
    enum Method: String, Sendable { case GET, POST, DELETE }

    /// One request, its path's parameters, and its session (for `/session/:sid/...`).
    struct Call: Sendable {
        var body: JSONValue
        var parameters: [String: String]
        var session: WebDriverSession?
        var server: WebDriverServer

        func parameter(_ name: String) -> String { parameters[name] ?? "" }
        /// The session: every route below `/session/:sid` has one.
        var s: WebDriverSession { session! }

        func string(_ key: String) throws(WebDriverError) -> String {
            guard let value = body[key]?.string else {
                throw .invalidArgument("The body needs '\(key)', a string; got \(body[key]?.kind ?? "nothing").")
            }
            return value
        }
    }

    typealias Handler = @Sendable (Call) async throws -> JSONValue

    let method: Method
    let segments: [String]
    let handler: Handler

    init(_ method: Method, _ path: String, _ handler: @escaping Handler) {
        self.method = method
        segments = path.split(separator: "/").map(String.init)
        self.handler = handler
    }

    /// The path's parameters when `path` fits this route's pattern.
    func match(_ path: [String]) -> [String: String]? {
        guard path.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (pattern, segment) in zip(segments, path) {
            if pattern.hasPrefix(":") { parameters[String(pattern.dropFirst())] = segment } else if pattern != segment { return nil }
        }
        return parameters
    }

    var needsSession: Bool { segments.count >= 2 && segments[1] == ":sid" }

    /// The largest body the route reads: a command's JSON (the device API's limit, 1 MiB,
    /// far above any capabilities, script or actions a client sends); GET and DELETE take none.
    /// `push_file` carries a picture or a video for the photo library: up to its limit.
    var bodyLimit: Int {
        guard method == .POST else { return 64 << 10 }
        return segments.last == "push_file" ? AutomationLimits.maxMediaBodyBytes : Request.bodyLimit
    }

    /// Whether a client that hangs up cancels the command: all but ending the session, which
    /// finishes its video whoever waits for it.
    var isCancellable: Bool { !(method == .DELETE && segments.count == 2) }
}

extension WebDriverRoute {
    static let all: [WebDriverRoute] = sessionRoutes + elementRoutes + deviceRoutes + systemRoutes

    static let sessionRoutes: [WebDriverRoute] = [
        .init(.GET, "status") { call in
            [
                "ready": true, "message": "Showreel WebDriver: ready for new sessions", "build": ["version": "0.1.0"],
                "sessions": .number(Double(await call.server.sessionCount)),
            ]
        },
        .init(.POST, "session") { call in try await call.server.createSession(call.body) },
        .init(.GET, "session/:sid") { call in ["sessionId": .string(call.s.id), "platformName": "iOS"] },
        .init(.DELETE, "session/:sid") { call in
            let session = try await call.server.sessions.remove(call.s.id)
            await call.server.finish(session)
            return .null
        },
        .init(.GET, "session/:sid/timeouts") { call in
            ["implicit": .number((await call.s.implicitWait).seconds * 1000), "pageLoad": 300_000, "script": 30_000]
        },
        .init(.POST, "session/:sid/timeouts") { call in
            try await call.s.setTimeouts(call.body)
            return .null
        },
        .init(.POST, "session/:sid/timeouts/implicit_wait") { call in
            try await call.s.setTimeouts(["implicit": call.body["ms"] ?? .null])
            return .null
        },
        .init(.GET, "session/:sid/source") { call in .string(PageSource.xml(try await call.s.page())) },
        .init(.GET, "session/:sid/screenshot") { call in .string(Data(try await call.s.screenshotPNG()).base64EncodedString()) },
        .init(.POST, "session/:sid/actions") { call in
            try await call.s.step("actions") { try await call.s.perform(actions: call.body) }
            return .null
        },
        .init(.DELETE, "session/:sid/actions") { _ in .null },
        .init(.POST, "session/:sid/back") { call in
            try await call.s.step("back") { try await call.s.back() }
            return .null
        },
        .init(.POST, "session/:sid/execute/sync") { call in try await execute(call) },
        .init(.POST, "session/:sid/execute/async") { call in try await execute(call) },
        .init(.POST, "session/:sid/execute") { call in try await execute(call) },
        .init(.POST, "session/:sid/appium/start_recording_screen") { call in .string(try await call.s.startScreenRecording(call.body)) },
        .init(.POST, "session/:sid/appium/stop_recording_screen") { call in .string(try await call.s.stopScreenRecording(call.body)) },
    ]

    private static func execute(_ call: Call) async throws(WebDriverError) -> JSONValue {
        guard let script = call.body["script"]?.string else { return try await call.s.execute(call.body) }
        return try await call.s.step(script) { try await call.s.execute(call.body) }
    }
}

extension WebDriverSession {
    /// `POST /timeouts`: `implicit` (milliseconds) is the find commands' wait, on the device
    /// clock; `pageLoad` and `script` are accepted and have nothing to time here.
    func setTimeouts(_ body: JSONValue) throws(WebDriverError) {
        for key in ["implicit", "pageLoad", "script"] {
            guard let value = body[key], !value.isNull else { continue }
            guard let number = value.number, number.isFinite, number >= 0, number <= 3_600_000, number.rounded() == number else {
                throw .invalidArgument(
                    "The timeout '\(key)' must be a whole number of milliseconds from 0 to 3600000, got \(value.kind == "a number" ? "\(value.number!)" : value.kind)."
                )
            }
            if key == "implicit" { implicitWait = .milliseconds(Int64(number)) }
        }
    }
}
