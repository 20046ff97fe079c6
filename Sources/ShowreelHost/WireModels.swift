import Foundation
import NIOCore

// MARK: Legacy (SBTUITestTunnelHost) responses

/// `/exec` and `/launch`: `{"result": "...", "status": 1 | -1}`.
struct LegacyResultResponse: Encodable, Sendable {
    var result: String
    var status: Int
}

/// `/status`, `/interrupt`, `/terminate`: `{"result": {"pid": N}}` or the finished form.
struct LegacyStatusResponse: Encodable, Sendable {
    enum Result: Encodable, Sendable {
        case running(pid: Int32)
        case finished(terminationStatus: Int32, terminationReason: Int, stdOut: String, stdErr: String)

        private enum CodingKeys: String, CodingKey {
            case pid, terminationStatus, terminationReason, stdOut, stdErr
        }

        func encode(to encoder: any Encoder) throws {
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
    }

    var result: Result

    init(_ snapshot: CommandSnapshot) {
        if let termination = snapshot.termination {
            // NSTask.TerminationReason: 1 = exit, 2 = uncaught signal.
            switch termination {
            case .exited(let code):
                result = .finished(terminationStatus: code, terminationReason: 1, stdOut: LegacyOutput.marked(snapshot.stdout ?? "", dropped: snapshot.droppedBytes), stdErr: snapshot.stderr ?? "")
            case .signaled(let signal):
                result = .finished(terminationStatus: signal, terminationReason: 2, stdOut: LegacyOutput.marked(snapshot.stdout ?? "", dropped: snapshot.droppedBytes), stdErr: snapshot.stderr ?? "")
            }
        } else if snapshot.failure != nil {
            result = .finished(terminationStatus: -1, terminationReason: 1, stdOut: LegacyOutput.marked(snapshot.stdout ?? "", dropped: snapshot.droppedBytes), stdErr: (snapshot.stderr ?? "") + (snapshot.failure ?? ""))
        } else {
            result = .running(pid: snapshot.pid ?? 0)
        }
    }
}

/// The legacy protocol has no field saying output was cut, so the text says it: a first line
/// naming how many of the oldest bytes each command's bounded output dropped.
enum LegacyOutput {
    static func marked(_ text: String, dropped: Int) -> String {
        marker(dropped: dropped) + text
    }

    static func marker(dropped: Int) -> String {
        dropped > 0 ? "[showreel host: output truncated, the first \(dropped) bytes were dropped; each command keeps its newest bytes only]\n" : ""
    }
}

// MARK: v1

struct ErrorResponse: Encodable, Sendable {
    var error: String
}

struct HealthResponse: Encodable, Sendable {
    var status: String
    var version: String
    var running: Int
}

/// `POST /v1/commands` body.
struct CreateCommandRequest: Decodable, Sendable {
    var argv: [String]
    var env: [String: String]?
    var cwd: String?
    var wait: Bool?
    /// With `wait`: seconds before the command is terminated (SIGTERM, then SIGKILL after the
    /// grace period) and reported with `timedOut: true`.
    var timeout: Double?
}

/// One command as the v1 API shows it.
struct CommandInfo: Encodable, Sendable {
    var id: String
    var argv: [String]
    var executable: String
    var pid: Int32?
    /// `running` or `finished`.
    var state: String
    var startedAt: Date
    var finishedAt: Date?
    var durationSeconds: Double?
    /// `exit` or `signal` once finished.
    var terminationReason: String?
    var exitCode: Int32?
    var signal: Int32?
    var signalName: String?
    var error: String?
    var signalsSent: [String]?
    var killedAfterTimeout: Bool?
    var timedOut: Bool?
    var outputBytes: Int
    var outputTruncated: Bool?
    var stdout: String?
    var stderr: String?

    init(_ s: CommandSnapshot, timedOut: Bool? = nil) {
        id = s.id.uuidString
        argv = s.argv
        executable = s.executablePath
        pid = s.pid
        state = s.isFinished ? "finished" : "running"
        startedAt = s.startedAt
        finishedAt = s.finishedAt
        durationSeconds = s.finishedAt.map { ($0.timeIntervalSince(s.startedAt) * 1000).rounded() / 1000 }
        switch s.termination {
        case .exited(let code)?:
            terminationReason = "exit"
            exitCode = code
        case .signaled(let number)?:
            terminationReason = "signal"
            signal = number
            signalName = CommandTable.signalName(number)
        case nil:
            break
        }
        error = s.failure
        signalsSent = s.signalsSent.isEmpty ? nil : s.signalsSent
        killedAfterTimeout = s.killedAfterTimeout ? true : nil
        self.timedOut = timedOut
        outputBytes = s.outputBytes
        outputTruncated = s.droppedBytes > 0 ? true : nil
        stdout = s.stdout
        stderr = s.stderr
    }
}

struct CommandListResponse: Encodable, Sendable {
    var commands: [CommandInfo]
}

enum WireJSON {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static func encode(_ value: some Encodable) -> Data {
        (try? encoder.encode(value)) ?? Data(#"{"error":"could not encode the response"}"#.utf8)
    }
}

extension WireJSON {
    /// `{"result":"<prefix><text>","status":N}` exactly as `encode(LegacyResultResponse)` writes
    /// it, escaped straight into one buffer: /exec answers carry up to `outputLimit` bytes, and
    /// the encoder would hold two more copies of them (its Data and the response's buffer).
    static func legacyResult(prefix: String, text: String, status: Int) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(prefix.utf8.count + text.utf8.count + 64)
        buffer.writeString(#"{"result":""#)
        escape(prefix, into: &buffer)
        escape(text, into: &buffer)
        buffer.writeString(#"","status":\#(status)}"#)
        return buffer
    }

    /// JSON string escaping as Foundation's encoder does it (no escaped slashes).
    private static func escape(_ text: String, into buffer: inout ByteBuffer) {
        let hex = Array("0123456789abcdef".utf8)
        var run: [UInt8] = []
        run.reserveCapacity(64 * 1024)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): run += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): run += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: run += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: run += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: run += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: run += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: run += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0..<0x20: run += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: run.append(byte)
            }
            if run.count >= 64 * 1024 - 8 {
                buffer.writeBytes(run)
                run.removeAll(keepingCapacity: true)
            }
        }
        buffer.writeBytes(run)
    }
}
