import Foundation
import ShowreelDevice
import ShowreelReport
import ShowreelWire

/// Appium's screen recording endpoints, the session's own recording, and the end of a session.
extension WebDriverSession {
    static let defaultTimeLimit = 180.0
    static let maxTimeLimit = 1800.0

    /// `start_recording_screen`: starts a new recording. With `forceRestart: false` a previous
    /// recording (running or stopped by its time limit, not yet fetched) is stopped and returned
    /// here; otherwise it is thrown away. Returns "" or that previous video.
    func startScreenRecording(_ body: JSONValue) async throws(WebDriverError) -> String {
        let options = body["options"]?.object ?? [:]
        var limit = Self.defaultTimeLimit
        if let value = options["timeLimit"], !value.isNull {
            guard let seconds = value.number ?? value.string.flatMap(Double.init), seconds > 0, seconds <= Self.maxTimeLimit else {
                throw .invalidArgument("timeLimit must be a number of seconds above 0 and at most \(Int(Self.maxTimeLimit)).")
            }
            limit = seconds
        }
        if let value = options["forceRestart"], !value.isNull, value.bool == nil {
            throw .invalidArgument("forceRestart must be true or false, got \(value.kind).")
        }
        let forceRestart = options["forceRestart"]?.bool ?? true
        var previous = ""
        if let running = screenRecording {
            screenRecording = nil
            if forceRestart { running.video.discard() } else { previous = (try? await running.collect()) ?? "" }
        }
        do {
            screenRecording = try ScreenRecording(videoSource, timeLimit: .milliseconds(Int64(limit * 1000)), start: await device.now())
        } catch {
            throw WebDriverError(.unknownError, "The screen recording could not start: \(error)")
        }
        return previous
    }

    /// `stop_recording_screen`: the video as base64 MP4, or "" when nothing was recorded.
    func stopScreenRecording(_ body: JSONValue) async throws(WebDriverError) -> String {
        if let remote = body["options"]?["remotePath"]?.string, !remote.isEmpty {
            throw .unsupported("Uploading the video (remotePath) is not supported; the video comes back in the answer.")
        }
        guard let recording = screenRecording else { return "" }
        screenRecording = nil
        do { return try await recording.collect() } catch {
            throw WebDriverError(.unknownError, "The screen recording could not be finished: \(error)")
        }
    }

    /// After every command: a screen recording past its time limit stops.
    func enforceRecordingLimit() async {
        guard let recording = screenRecording else { return }
        await recording.enforceLimit(now: await device.now())
    }

    /// Runs `body` as one step of the session's video (`showreel:record`): a chapter and
    /// subtitle, a manifest step with how it went, and on a device in this process a step of the
    /// trace, with the screen before and after and the element it acted on.
    func step<T: Sendable>(_ title: String, _ body: @Sendable () async throws -> T) async throws(WebDriverError) -> T {
        guard let sessionRecording else { return try await Self.translated(body) }
        let open = await sessionRecording.begin(title, at: await device.now())
        do {
            let result = try await Self.translated(body)
            await sessionRecording.end(open, error: nil)
            return result
        } catch {
            await sessionRecording.end(open, error: error.message)
            throw error
        }
    }

    /// What `body` returns; what it throws as a WebDriver error (the commands' own already are).
    private static func translated<T>(_ body: () async throws -> T) async throws(WebDriverError) -> T {
        do { return try await body() } catch let error as WebDriverError { throw error } catch {
            throw WebDriverError(.unknownError, ErrorSentence.describe(error))
        }
    }

    /// Ends the session: a running screen recording is thrown away, the session's video is
    /// finished with its manifest entry, and a device the session booted is shut down.
    /// Returns the manifest entry when the session was recorded.
    func end() async -> ManifestEntry? {
        screenRecording?.video.discard()
        screenRecording = nil
        var entry: ManifestEntry?
        if let sessionRecording {
            self.sessionRecording = nil
            entry = await sessionRecording.finish(failure: reportedFailure)
        }
        await ownedDevice?.shutdown()
        return entry
    }
}
