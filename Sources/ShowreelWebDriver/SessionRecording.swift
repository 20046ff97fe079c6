import Foundation
import ShowreelDevice
import ShowreelRecorder
import ShowreelRender
import ShowreelReport
import Synchronization

/// A video of an in-process device from now until `stop`: the recorder subscribed to the
/// device's display, encoding in this process as the device draws.
final class DeviceVideo: Sendable {
    let url: URL
    let start: Duration
    private let session: RecordingSession
    private let subscription: DisplaySubscription
    private let stopped = Mutex<Result<RecordingSummary, RecorderError>?>(nil)

    init(_ device: Device, to url: URL, staged: Bool) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        self.url = url
        start = device.clock.now
        session = try RecordingSession(url: url, info: device.display.info, options: RecordingOptions(scale: 0.5),
                                       mask: ScreenMask(profile: device.profile), framesAreShared: true, staged: staged)
        subscription = device.display.subscribe(session)
    }

    var isRunning: Bool { stopped.withLock { $0 == nil } }

    /// Ends the recording and writes the file's end (once; later calls give the same answer),
    /// on a thread of its own: finishing waits for the encoder.
    func stop(steps: [StepMark] = []) async throws -> RecordingSummary {
        if let done = stopped.withLock({ $0 }) { return try done.get() }
        _ = subscription.stop()
        let session = self.session
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<RecordingSummary, RecorderError>, Never>) in
            let thread = Thread {
                continuation.resume(returning: Result { () throws(RecorderError) -> RecordingSummary in try session.finish(steps: steps) })
            }
            thread.name = "showreel.webdriver-finalise"
            thread.start()
        }
        stopped.withLock { $0 = result }
        return try result.get()
    }

    /// Ends the recording without a file.
    func discard() {
        guard isRunning else { try? FileManager.default.removeItem(at: url); return }
        _ = subscription.stop()
        session.discard()
        stopped.withLock { $0 = .failure(.noFrames(file: url.path)) }
        try? FileManager.default.removeItem(at: url)
    }
}

/// `showreel:record`: the whole session as `<output>/<name>.mov`, each command a chapter, and an
/// entry in the folder's manifest (so report.html and junit.xml list Appium suites too).
final class SessionRecording: Sendable {
    let video: DeviceVideo
    let name: String
    let folder: URL
    private let steps = Mutex<[ManifestEntry.Step]>([])

    init(_ device: Device, name: String, folder: URL) throws {
        self.name = name
        self.folder = folder
        video = try DeviceVideo(device, to: folder.appendingPathComponent("\(name).mov"), staged: true)
    }

    func note(_ title: String, at time: Duration) {
        let seconds = max(0, (time - video.start).seconds)
        steps.withLock { $0.append(ManifestEntry.Step(title: title, time: seconds, status: .passed)) }
    }

    /// Finishes the video and adds the session's entry to the manifest; returns the entry.
    func finish(failure: String?) async -> ManifestEntry {
        let steps = self.steps.withLock { $0 }
        var entry = ManifestEntry(id: "webdriver/\(name)", name: name, status: failure == nil ? .passed : .failed, duration: 0)
        entry.steps = steps
        if let failure { entry.failures = [ManifestEntry.Failure(message: failure)] }
        do {
            let summary = try await video.stop(steps: steps.map { StepMark(title: $0.title, time: $0.time) })
            entry.video = "\(name).mov"
            entry.duration = summary.duration.seconds
        } catch {
            entry.status = .failed
            entry.failures.append(ManifestEntry.Failure(message: "The video could not be written: \(error)"))
        }
        return entry
    }
}

/// Appium's `start_recording_screen` / `stop_recording_screen`: an MP4 in a temporary file, handed
/// back base64-encoded. A recording that reaches its time limit stops by itself and waits to be
/// fetched; one still running when the session ends is thrown away (Appium's semantics).
final class ScreenRecording: Sendable {
    let video: DeviceVideo
    let timeLimit: Duration

    init(_ device: Device, timeLimit: Duration) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("showreel-wd-\(UUID().uuidString.prefix(8)).mp4")
        video = try DeviceVideo(device, to: url, staged: false)
        self.timeLimit = timeLimit
    }

    /// Stops the recording when it has run past its time limit (device time).
    func enforceLimit(now: Duration) async {
        guard video.isRunning, now - video.start >= timeLimit else { return }
        _ = try? await video.stop()
    }

    /// The video, base64-encoded, and the file removed.
    func collect() async throws -> String {
        defer { try? FileManager.default.removeItem(at: video.url) }
        let summary = try await video.stop()
        return try Data(contentsOf: summary.url).base64EncodedString()
    }
}
