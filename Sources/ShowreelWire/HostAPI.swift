import Foundation

/// The tunnel host's wire protocol: the SBTUITestTunnelHost endpoints (form-urlencoded POSTs
/// answered with JSON) and the JSON API under `/v1`. The host serves these routes and writes
/// these bodies; `TunnelHostClient` calls the same routes and reads the same bodies.
public enum HostAPI {
    public enum Routes {
        /// SBTUITestTunnelHost's endpoints: POST with a form whose `command` is base64 of a
        /// command line (exec, launch) or a command id (status, interrupt, terminate).
        public enum Legacy {
            package static let exec = Route(.post, "/exec")
            package static let launch = Route(.post, "/launch")
            package static let status = Route(.post, "/status")
            package static let interrupt = Route(.post, "/interrupt")
            package static let terminate = Route(.post, "/terminate")

            package static let all: [Route] = [exec, launch, status, interrupt, terminate]
        }

        public enum V1 {
            package static let health = Route(.get, "/v1/health")
            package static let commands = Route(.get, "/v1/commands")
            package static let create = Route(.post, "/v1/commands")
            package static let command = Route(.get, "/v1/commands/:id")
            package static let remove = Route(.delete, "/v1/commands/:id")
            package static let output = Route(.get, "/v1/commands/:id/output")
            package static let interrupt = Route(.post, "/v1/commands/:id/interrupt")
            package static let terminate = Route(.post, "/v1/commands/:id/terminate")

            package static let all: [Route] = [health, commands, create, command, remove, output, interrupt, terminate]
        }

        package static let all: [Route] = Legacy.all + V1.all
    }

    // MARK: Legacy (SBTUITestTunnelHost) bodies

    /// `/exec` and `/launch`: `{"result": "...", "status": 1 | -1}` (-1: the command did not start).
    public struct LegacyResultResponse: Codable, Equatable, Sendable {
        public var result: String
        public var status: Int

        public init(result: String, status: Int) {
            self.result = result
            self.status = status
        }

        private enum CodingKeys: String, CodingKey { case result, status }

        /// Lenient as the iOS client is: a missing field reads as an empty result, status 1.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            result = try container.decodeIfPresent(String.self, forKey: .result) ?? ""
            status = try container.decodeIfPresent(Int.self, forKey: .status) ?? 1
        }
    }

    /// `/status`, `/interrupt`, `/terminate`: `{"result": {"pid": N}}` while the command runs,
    /// `{"result": {"terminationStatus": N, "terminationReason": 1|2, "stdOut": "...", "stdErr": "..."}}` after.
    public struct LegacyStatusResponse: Codable, Equatable, Sendable {
        public enum Result: Codable, Equatable, Sendable {
            case running(pid: Int32)
            /// `terminationReason` is NSTask's: 1 = exit (status is the exit code), 2 = uncaught
            /// signal (status is the signal number).
            case finished(terminationStatus: Int32, terminationReason: Int, stdOut: String, stdErr: String)

            private enum CodingKeys: String, CodingKey {
                case pid, terminationStatus, terminationReason, stdOut, stdErr
            }

            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                switch self {
                case .running(let pid):
                    try container.encode(pid, forKey: .pid)
                case .finished(let status, let reason, let stdOut, let stdErr):
                    try container.encode(status, forKey: .terminationStatus)
                    try container.encode(reason, forKey: .terminationReason)
                    try container.encode(stdOut, forKey: .stdOut)
                    try container.encode(stdErr, forKey: .stdErr)
                }
            }

            /// Finished when `terminationStatus` is there, running when only `pid` is; a missing
            /// reason reads as an exit and missing output as empty, as other hosts may leave them out.
            public init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                if let status = try container.decodeIfPresent(Int32.self, forKey: .terminationStatus) {
                    self = .finished(
                        terminationStatus: status,
                        terminationReason: try container.decodeIfPresent(Int.self, forKey: .terminationReason) ?? 1,
                        stdOut: try container.decodeIfPresent(String.self, forKey: .stdOut) ?? "",
                        stdErr: try container.decodeIfPresent(String.self, forKey: .stdErr) ?? "")
                } else if let pid = try container.decodeIfPresent(Int32.self, forKey: .pid) {
                    self = .running(pid: pid)
                } else {
                    throw DecodingError.dataCorrupted(
                        .init(
                            codingPath: decoder.codingPath, debugDescription: "a status result has either 'pid' or 'terminationStatus'"))
                }
            }
        }

        public var result: Result

        public init(result: Result) { self.result = result }
    }

    // MARK: v1 bodies

    /// `GET /v1/health`.
    public struct HealthResponse: Codable, Equatable, Sendable {
        public var status: String
        public var version: String
        /// Commands running now.
        public var running: Int

        public init(status: String, version: String, running: Int) {
            self.status = status
            self.version = version
            self.running = running
        }
    }

    /// `POST /v1/commands` body.
    public struct CreateCommandRequest: Codable, Equatable, Sendable {
        public var argv: [String]
        public var env: [String: String]?
        public var cwd: String?
        public var wait: Bool?
        /// With `wait`: seconds before the command is terminated (SIGTERM, then SIGKILL after the
        /// grace period) and reported with `timedOut: true`.
        public var timeout: Double?

        public init(argv: [String], env: [String: String]? = nil, cwd: String? = nil, wait: Bool? = nil, timeout: Double? = nil) {
            self.argv = argv
            self.env = env
            self.cwd = cwd
            self.wait = wait
            self.timeout = timeout
        }

        /// What a 400 shows as a body to send instead.
        public static let example = #"{"argv": ["echo", "hello"], "env": {"NAME": "value"}, "cwd": "/tmp", "wait": false}"#
    }

    /// The longest a client may ask the host to wait for a command (`timeout` in a v1 body or
    /// query): a day.
    package static let waitLimit = SecondsLimit(max: 86_400, allowsZero: false)

    /// One command as the v1 API shows it.
    public struct CommandInfo: Codable, Equatable, Sendable {
        public var id: UUID
        public var argv: [String]
        public var executable: String
        public var pid: Int32?
        /// `running` or `finished`.
        public var state: String
        public var startedAt: Date
        public var finishedAt: Date?
        public var durationSeconds: Double?
        /// `exit` or `signal` once finished.
        public var terminationReason: String?
        public var exitCode: Int32?
        public var signal: Int32?
        public var signalName: String?
        public var error: String?
        public var signalsSent: [String]?
        public var killedAfterTimeout: Bool?
        public var timedOut: Bool?
        public var outputBytes: Int
        public var outputTruncated: Bool?
        public var stdout: String?
        public var stderr: String?

        public init(
            id: UUID, argv: [String], executable: String, pid: Int32? = nil, state: String, startedAt: Date,
            finishedAt: Date? = nil, durationSeconds: Double? = nil, terminationReason: String? = nil,
            exitCode: Int32? = nil, signal: Int32? = nil, signalName: String? = nil, error: String? = nil,
            signalsSent: [String]? = nil, killedAfterTimeout: Bool? = nil, timedOut: Bool? = nil,
            outputBytes: Int, outputTruncated: Bool? = nil, stdout: String? = nil, stderr: String? = nil
        ) {
            self.id = id; self.argv = argv; self.executable = executable; self.pid = pid; self.state = state
            self.startedAt = startedAt; self.finishedAt = finishedAt; self.durationSeconds = durationSeconds
            self.terminationReason = terminationReason; self.exitCode = exitCode; self.signal = signal
            self.signalName = signalName; self.error = error; self.signalsSent = signalsSent
            self.killedAfterTimeout = killedAfterTimeout; self.timedOut = timedOut; self.outputBytes = outputBytes
            self.outputTruncated = outputTruncated; self.stdout = stdout; self.stderr = stderr
        }

        public var isRunning: Bool { state == "running" }
    }

    /// `GET /v1/commands`.
    public struct CommandListResponse: Codable, Equatable, Sendable {
        public var commands: [CommandInfo]
        public init(commands: [CommandInfo]) { self.commands = commands }
    }
}
