import Foundation
import ShowreelGraphics
import ShowreelWire

/// A client for the Showreel tunnel host (and any SBTUITestTunnelHost-compatible host).
///
/// The legacy calls (`exec`, `launch`, `status`, `interrupt`, `terminate`) send exactly what
/// the SBTUITestTunnelHost iOS client sends: a form-urlencoded POST with `command` (base64 of
/// the command line, or a command id), `app_frame`, `simulator_device_name` and
/// `simulator_device_runtime`. The `run(argv:)` family uses the JSON API under `/v1`.
public struct TunnelHostClient: Sendable {
    /// Why a finished command ended (NSTask.TerminationReason values).
    public enum TerminationReason: Int, Sendable, Equatable {
        case exit = 1
        case uncaughtSignal = 2
    }

    /// A legacy `/status` answer.
    public enum CommandStatus: Sendable, Equatable {
        case running(pid: Int32)
        /// `status` is the exit code, or the signal number when `reason` is `.uncaughtSignal`.
        case finished(status: Int32, reason: TerminationReason, stdout: String, stderr: String)

        public var isFinished: Bool {
            if case .finished = self { return true }
            return false
        }
    }

    /// A failed request: the HTTP status (0 when there was no HTTP answer) and the host's message.
    public struct HostError: Error, Sendable, CustomStringConvertible {
        public var statusCode: Int
        public var message: String
        public var description: String {
            statusCode == 0 ? "tunnel host: \(message)" : "tunnel host answered \(statusCode): \(message)"
        }
    }

    /// A command as the v1 API reports it (the host's own body type).
    public typealias CommandInfo = HostAPI.CommandInfo

    public typealias Health = HostAPI.HealthResponse

    public let baseURL: URL
    /// Sent as `Authorization: Bearer` on every call: a host started with `--token` requires it
    /// on every endpoint but `/v1/health`, the legacy ones included.
    public var token: String?
    /// The extra form fields of the legacy protocol (the iOS client fills them from the
    /// simulator's environment and the app's window frame).
    public var appFrame: String
    public var simulatorDeviceName: String
    public var simulatorDeviceRuntime: String
    /// Per-request timeout; long-running `exec` and waits need a generous one.
    public var requestTimeout: TimeInterval

    public init(
        baseURL: URL = URL(string: "http://127.0.0.1:8667")!,
        token: String? = nil,
        requestTimeout: TimeInterval = 600
    ) {
        self.baseURL = baseURL
        self.token = token
        let environment = ProcessInfo.processInfo.environment
        self.appFrame = "{{0, 0}, {0, 0}}"
        self.simulatorDeviceName = environment["SIMULATOR_DEVICE_NAME"] ?? environment["SHOWREEL_DEVICE_NAME"] ?? "showreel"
        self.simulatorDeviceRuntime = environment["SIMULATOR_RUNTIME_VERSION"] ?? "1.0"
        self.requestTimeout = requestTimeout
    }

    // MARK: Legacy protocol

    /// Runs `commandLine` to completion and returns its output (stdout and stderr).
    /// Throws when the host could not start it (`status` -1).
    public func exec(_ commandLine: String) async throws -> String {
        try Self.startedResult(try await legacy(Legacy.exec, command: Self.base64(commandLine)), commandLine)
    }

    /// Starts `commandLine` and returns its id at once.
    public func launch(_ commandLine: String) async throws -> UUID {
        let result = try Self.startedResult(try await legacy(Legacy.launch, command: Self.base64(commandLine)), commandLine)
        guard let id = UUID(uuidString: result) else {
            throw HostError(statusCode: 200, message: "launch answered '\(result)', which is not a command id")
        }
        return id
    }

    public func status(_ id: UUID) async throws -> CommandStatus {
        Self.commandStatus(try await legacy(Legacy.status, command: id.uuidString))
    }

    /// Sends SIGINT to the command's process group. The Showreel host answers once the
    /// command exited (up to its wait limit); other hosts may answer while it still runs, so
    /// use `waitUntilFinished` when the final status matters.
    public func interrupt(_ id: UUID) async throws -> CommandStatus {
        Self.commandStatus(try await legacy(Legacy.interrupt, command: id.uuidString))
    }

    /// Sends SIGTERM to the command's process group; see `interrupt(_:)`.
    public func terminate(_ id: UUID) async throws -> CommandStatus {
        Self.commandStatus(try await legacy(Legacy.terminate, command: id.uuidString))
    }

    /// Polls `/status` until the command finished; throws when `timeout` passes first.
    public func waitUntilFinished(_ id: UUID, timeout: Duration = .seconds(30), pollInterval: Duration = .milliseconds(50)) async throws
        -> CommandStatus
    {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let current = try await status(id)
            if current.isFinished { return current }
            if clock.now >= deadline {
                throw HostError(statusCode: 0, message: "command \(id.uuidString) still running after \(timeout) (\(current))")
            }
            try await Task.sleep(for: pollInterval)
        }
    }

    // MARK: v1 API

    public func health() async throws -> Health {
        try await v1(Health.self, V1.health)
    }

    /// Starts `argv` (no shell). With `wait`, returns after it finished, with its output;
    /// `timeout` (with `wait`) terminates it when it runs longer.
    public func run(
        argv: [String],
        environment: [String: String]? = nil,
        workingDirectory: String? = nil,
        wait: Bool = false,
        timeout: Duration? = nil
    ) async throws -> CommandInfo {
        let body = HostAPI.CreateCommandRequest(
            argv: argv, env: environment, cwd: workingDirectory, wait: wait, timeout: timeout?.seconds)
        return try await v1(CommandInfo.self, V1.create, body: WireJSON.encode(body))
    }

    public func command(_ id: UUID) async throws -> CommandInfo {
        try await v1(CommandInfo.self, V1.command, id.uuidString)
    }

    public func commands() async throws -> [CommandInfo] {
        try await v1(HostAPI.CommandListResponse.self, V1.commands).commands
    }

    /// SIGINT to the command's process group. With `wait`, returns its final state; if it is
    /// still running after `timeout` (default: the host's grace period) it gets SIGKILL and
    /// the answer says `killedAfterTimeout`.
    public func interrupt(_ id: UUID, wait: Bool, timeout: Duration? = nil) async throws -> CommandInfo {
        try await signal(V1.interrupt, id, wait: wait, timeout: timeout)
    }

    /// SIGTERM to the command's process group; see `interrupt(_:wait:timeout:)`.
    public func terminate(_ id: UUID, wait: Bool, timeout: Duration? = nil) async throws -> CommandInfo {
        try await signal(V1.terminate, id, wait: wait, timeout: timeout)
    }

    /// The command's output so far (`follow: false`) or all of it, waiting until it exits
    /// (`follow: true`). `stream` is `stdout`, `stderr` or nil for both interleaved.
    public func output(_ id: UUID, follow: Bool = false, stream: String? = nil) async throws -> String {
        try await output(id, [URLQueryItem(name: "follow", value: follow ? "true" : "false")], stream: stream)
    }

    /// The command's output once it contains `text`, once the command has finished, or after
    /// `timeout`, whichever comes first (the host waits: no polling). A host from before
    /// `until` answers at once with the output so far.
    public func output(_ id: UUID, until text: String, timeout: Duration, stream: String? = nil) async throws -> String {
        try await output(
            id, [URLQueryItem(name: "until", value: text), URLQueryItem(name: "timeout", value: String(timeout.seconds))], stream: stream)
    }

    private func output(_ id: UUID, _ query: [URLQueryItem], stream: String?) async throws -> String {
        let query = query + (stream.map { [URLQueryItem(name: "stream", value: $0)] } ?? [])
        let (data, status) = try await send(V1.output, id.uuidString, query: query, body: nil, contentType: nil)
        guard status == 200 else { throw Self.error(from: data, status: status) }
        return String(decoding: data, as: UTF8.self)
    }

    private func signal(_ route: Route, _ id: UUID, wait: Bool, timeout: Duration?) async throws -> CommandInfo {
        var query = [URLQueryItem(name: "wait", value: wait ? "true" : "false")]
        if let timeout { query.append(URLQueryItem(name: "timeout", value: String(timeout.seconds))) }
        return try await v1(CommandInfo.self, route, id.uuidString, query: query)
    }

    // MARK: Transport

    private typealias Legacy = HostAPI.Routes.Legacy
    private typealias V1 = HostAPI.Routes.V1

    /// A legacy call: the form the iOS client sends; the answer's JSON is decoded as `Answer`.
    private func legacy<Answer: Decodable>(_ route: Route, command: String) async throws -> Answer {
        let fields = [
            ("command", command),
            ("app_frame", appFrame),
            ("simulator_device_name", simulatorDeviceName),
            ("simulator_device_runtime", simulatorDeviceRuntime),
        ]
        let body = fields.map { "\($0.0)=\(Self.formEncode($0.1))" }.joined(separator: "&")
        let (data, status) = try await send(route, query: [], body: Data(body.utf8), contentType: "application/x-www-form-urlencoded")
        guard status == 200 else { throw Self.error(from: data, status: status) }
        do {
            return try WireJSON.decoder.decode(Answer.self, from: data)
        } catch {
            throw HostError(
                statusCode: status,
                message:
                    "\(route.template) answered something that is not its JSON reply (\(describeDecodingError(error))): \(String(decoding: data.prefix(200), as: UTF8.self))"
            )
        }
    }

    private func v1<T: Decodable>(_ type: T.Type, _ route: Route, _ parameters: String..., query: [URLQueryItem] = [], body: Data? = nil)
        async throws -> T
    {
        let (data, status) = try await send(
            route, parameters, query: query, body: body, contentType: body == nil ? nil : "application/json")
        guard (200..<300).contains(status) else { throw Self.error(from: data, status: status) }
        do {
            return try WireJSON.decoder.decode(T.self, from: data)
        } catch {
            throw HostError(
                statusCode: status, message: "unexpected answer to \(route.method.rawValue) \(route.path(parameters)): \(error)")
        }
    }

    private func send(_ route: Route, _ parameters: String..., query: [URLQueryItem], body: Data?, contentType: String?) async throws -> (
        Data, Int
    ) {
        try await send(route, parameters, query: query, body: body, contentType: contentType)
    }

    private func send(_ route: Route, _ parameters: [String], query: [URLQueryItem], body: Data?, contentType: String?) async throws -> (
        Data, Int
    ) {
        guard let url = route.url(relativeTo: baseURL, parameters, query: query) else {
            throw HostError(statusCode: 0, message: "bad URL for \(route.path(parameters)) on \(baseURL)")
        }
        var headers: [(name: String, value: String)] = []
        if let contentType { headers.append(("Content-Type", contentType)) }
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        let request = HTTPExchange(route.method.rawValue, url, headers: headers, body: body, timeout: .seconds(requestTimeout))
        let response: HTTPExchange.Response
        do {
            response = try await request.send()
        } catch {
            throw HostError(
                statusCode: 0,
                message: "cannot reach the tunnel host at \(baseURL): \(ErrorSentence.describe(error)) (is 'showreel host' running?)")
        }
        return (response.body, response.status)
    }

    // MARK: Helpers

    static func base64(_ commandLine: String) -> String {
        Data(commandLine.utf8).base64EncodedString()
    }

    /// application/x-www-form-urlencoded: unreserved characters stay, the rest is %XX.
    static func formEncode(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    private static func startedResult(_ answer: HostAPI.LegacyResultResponse, _ commandLine: String) throws -> String {
        guard answer.status != -1 else {
            throw HostError(statusCode: 200, message: "could not run '\(commandLine)': \(answer.result)")
        }
        return answer.result
    }

    private static func commandStatus(_ answer: HostAPI.LegacyStatusResponse) -> CommandStatus {
        switch answer.result {
        case .running(let pid):
            return .running(pid: pid)
        case .finished(let status, let reason, let stdOut, let stdErr):
            return .finished(status: status, reason: TerminationReason(rawValue: reason) ?? .exit, stdout: stdOut, stderr: stdErr)
        }
    }

    private static func error(from data: Data, status: Int) -> HostError {
        HostError(statusCode: status, message: ErrorBody.message(in: data))
    }
}
