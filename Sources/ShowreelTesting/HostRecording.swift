import Foundation
import ShowreelWire

/// A screen recorder run through a tunnel host, as an iOS suite runs `xcrun simctl io booted
/// recordVideo` through SBTUITestTunnelHost: launched asynchronously, ready once it says it
/// has the first frame, interrupted in teardown and waited for until the file is final.
///
///     let recording = try await HostRecording.start(host: host, argv: ["showreel", "io", udid, "recordVideo", "out.mov"])
///     ... drive the app ...
///     try await recording.stop()   // SIGINT, then waits for the recorder to finalise the file
public struct HostRecording: Sendable {
    /// What a recorder prints once it has the first frame: the recording has started.
    public static let readyLine = DisplayStream.recordingStartedLine

    /// Which of the host's protocols runs the recorder.
    public enum HostProtocol: Sendable {
        /// `/v1`: argv, environment, an interrupt that waits for the exit.
        case v1
        /// SBTUITestTunnelHost's `/launch`, `/interrupt` and `/status`, exactly as an iOS
        /// suite calls them (argv joined into a command line, no environment).
        case legacy
    }

    public let host: TunnelHostClient
    public let id: UUID
    public let api: HostProtocol

    /// Starts `argv` on the host (no shell; `environment` added to the host's, v1 only) and
    /// waits, up to `timeout`, for the recorder to print `readyLine`. A recorder that exits
    /// first, or never gets ready, is stopped and reported with what it printed.
    public static func start(
        host: TunnelHostClient, argv: [String], environment: [String: String]? = nil,
        api: HostProtocol = .v1, timeout: Duration = .seconds(30)
    ) async throws -> HostRecording {
        let id: UUID
        switch api {
        case .v1: id = try await host.run(argv: argv, environment: environment).id
        case .legacy:
            guard environment == nil else {
                throw TunnelHostClient.HostError(statusCode: 0, message: "the legacy protocol cannot pass an environment; use the v1 API")
            }
            id = try await host.launch(ShellWords.join(argv))
        }
        let recording = HostRecording(host: host, id: id, api: api)
        switch try await recording.wait(for: readyLine, timeout: timeout) {
        case .printed: return recording
        case let .exited(info, output):
            throw TunnelHostClient.HostError(
                statusCode: 0, message: "The recorder exited (\(info.terminationSummary)) before recording: \(output)")
        case let .timedOut(output):
            _ = try? await host.terminate(id, wait: true)
            throw TunnelHostClient.HostError(statusCode: 0, message: "The recorder did not start within \(timeout): \(output)")
        }
    }

    /// Once the device ended the recorder's stream as discarded (`DisplayStreamEndReason`):
    /// waits, up to `timeout`, until the recorder says it wrote nothing and has exited, and
    /// returns the seconds of device time it spanned. Nil when it finished its file instead (a
    /// recorder that predates discarding). Throws with its output when it failed.
    public func discarded(timeout: Duration = .seconds(60)) async throws -> Double? {
        let deadline = ContinuousClock.now + timeout
        var info: TunnelHostClient.CommandInfo?
        let output: String
        switch try await wait(for: DisplayStream.recordingDiscardedLine, timeout: timeout) {
        case let .printed(printed): output = printed
        case let .exited(exited, printed): (info, output) = (exited, printed)
        case let .timedOut(printed):
            throw TunnelHostClient.HostError(statusCode: 0, message: "The recorder did not end within \(timeout): \(printed)")
        }
        // The line comes just before the recorder exits: done once it has.
        if info == nil {
            do {
                let left = max(ContinuousClock.now.duration(to: deadline), .milliseconds(1))
                _ = try await host.waitUntilFinished(id, timeout: left, pollInterval: .milliseconds(5))
            } catch let error as TunnelHostClient.HostError where error.statusCode == 0 {  // its timeout, not the host's answer
                throw TunnelHostClient.HostError(statusCode: 0, message: "The recorder did not exit within \(timeout): \(output)")
            }
            info = try await host.command(id)
        }
        guard let info, info.terminationReason == "exit", info.exitCode == 0 else {
            throw TunnelHostClient.HostError(
                statusCode: 0, message: "The recorder did not finish cleanly (\(info?.terminationSummary ?? "?")): \(output)")
        }
        return Self.discardedSeconds(in: output)
    }

    /// How a wait for a line of the recorder's ended, with what it had printed by then.
    private enum LineWait {
        case printed(String)
        case exited(TunnelHostClient.CommandInfo, String)
        case timedOut(String)
    }

    /// Waits, up to `timeout`, until the recorder prints `line` or exits. v1 waits on the host
    /// until the line comes (or the recorder exits); the legacy API has no such wait, and is
    /// asked again every 20 ms.
    private func wait(for line: String, timeout: Duration) async throws -> LineWait {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let output =
                api == .v1
                ? try await host.output(id, until: line, timeout: max(ContinuousClock.now.duration(to: deadline), .milliseconds(1)))
                : try await host.output(id)
            if output.contains(line) { return .printed(output) }
            let info = try await host.command(id)
            if !info.isRunning { return .exited(info, try await host.output(id)) }
            try await Task.sleep(for: .milliseconds(20))
        }
        return .timedOut(try await host.output(id))
    }

    /// The seconds in "Recording discarded: 1.234 s", if `output` has that line.
    public static func discardedSeconds(in output: String) -> Double? {
        let prefix = DisplayStream.recordingDiscardedLine + ": "
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) else { return nil }
        return Double(line.dropFirst(prefix.count).split(separator: " ").first ?? "")
    }

    /// Interrupts the recorder (SIGINT, as Ctrl-C) and waits until it has exited, so the file
    /// is complete (the legacy API polls `/status` for that). Throws with the recorder's output
    /// when it did not exit cleanly.
    public func stop(timeout: Duration = .seconds(60)) async throws {
        switch api {
        case .v1:
            let info = try await host.interrupt(id, wait: true, timeout: timeout)
            guard info.terminationReason == "exit", info.exitCode == 0 else {
                throw TunnelHostClient.HostError(
                    statusCode: 0,
                    message:
                        "The recorder did not finish cleanly (\(info.terminationSummary)): \(info.stderr ?? "")\(info.stdout ?? "")")
            }
        case .legacy:
            _ = try await host.interrupt(id)
            let status = try await host.waitUntilFinished(id, timeout: timeout)
            guard case .finished(status: 0, reason: .exit, _, _) = status else {
                throw TunnelHostClient.HostError(statusCode: 0, message: "The recorder did not finish cleanly: \(status)")
            }
        }
    }
}

extension TunnelHostClient.CommandInfo {
    /// "exit 0", "signal SIGKILL", or "still running".
    public var terminationSummary: String {
        if isRunning { return "still running" }
        if terminationReason == "signal" { return "signal \(signalName ?? signal.map(String.init) ?? "?")" }
        return "exit \(exitCode.map(String.init) ?? "?")"
    }
}
