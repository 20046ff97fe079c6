import Foundation
import NIOCore
import ShowreelWire

// The bodies are HostAPI's (ShowreelWire), shared with TunnelHostClient; the host builds them
// from its command snapshots here.

extension HostAPI.LegacyStatusResponse {
    init(_ snapshot: CommandSnapshot) {
        let result: Result
        if let termination = snapshot.termination {
            // NSTask.TerminationReason: 1 = exit, 2 = uncaught signal.
            switch termination {
            case .exited(let code):
                result = .finished(
                    terminationStatus: code, terminationReason: 1,
                    stdOut: LegacyOutput.marked(snapshot.stdout ?? "", dropped: snapshot.droppedBytes), stdErr: snapshot.stderr ?? "")
            case .signaled(let signal):
                result = .finished(
                    terminationStatus: signal, terminationReason: 2,
                    stdOut: LegacyOutput.marked(snapshot.stdout ?? "", dropped: snapshot.droppedBytes), stdErr: snapshot.stderr ?? "")
            }
        } else if snapshot.failure != nil {
            result = .finished(
                terminationStatus: -1, terminationReason: 1,
                stdOut: LegacyOutput.marked(snapshot.stdout ?? "", dropped: snapshot.droppedBytes),
                stdErr: (snapshot.stderr ?? "") + (snapshot.failure ?? ""))
        } else {
            result = .running(pid: snapshot.pid ?? 0)
        }
        self.init(result: result)
    }
}

/// The legacy protocol has no field saying output was cut, so the text says it: a first line
/// naming how many of the oldest bytes each command's bounded output dropped.
enum LegacyOutput {
    static func marked(_ text: String, dropped: Int) -> String {
        marker(dropped: dropped) + text
    }

    static func marker(dropped: Int) -> String {
        dropped > 0
            ? "[showreel host: output truncated, the first \(dropped) bytes were dropped; each command keeps its newest bytes only]\n" : ""
    }
}

extension HostAPI.CommandInfo {
    init(_ s: CommandSnapshot, timedOut: Bool? = nil) {
        self.init(
            id: s.id, argv: s.argv, executable: s.executablePath, pid: s.pid,
            state: s.isFinished ? "finished" : "running", startedAt: s.startedAt, outputBytes: s.outputBytes)
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
        outputTruncated = s.droppedBytes > 0 ? true : nil
        stdout = s.stdout
        stderr = s.stderr
    }
}

/// The one body the host writes by hand, for its size.
extension WireJSON {
    /// `{"result":"<prefix><text>","status":N}` exactly as `WireJSON.encode(HostAPI.LegacyResultResponse)` writes
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
