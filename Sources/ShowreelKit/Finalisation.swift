import Foundation
import ShowreelRecorder
import ShowreelReport
import ShowreelSession
import ShowreelTesting
import ShowreelTrace
import ShowreelWire

/// What happens after a recorded test: hold the last screen, keep it as a screenshot, finish
/// the video, keep or delete it by the policy, and add the test to the manifest.
enum Finalisation {
    struct Result {
        /// A problem with the recording itself, recorded as an issue of the test.
        var problem: String?
        /// Files to attach to the test (the kept video and last screen).
        var attachments: [URL] = []
    }

    static func run(
        _ recording: TestRecording, testDevice: TestDevice, artifacts: TestArtifacts, issues: IssueLog,
        configuration: RecordingConfiguration
    ) async -> Result {
        var result = Result()
        var problems: [String] = []
        let status = issues.status
        let passed = status == .passed
        // A cancelled test's video is kept too: nobody knows yet whether it would have passed.
        let keep = configuration.policy == .on || !passed
        // The test's own actions end here: the tail and the last screenshot are not its steps.
        // Failed expectations join the actions, at the moment they were recorded.
        let trace = await recording.endTrace(kept: keep).map { $0.adding(failures: issues.all) }
        // The test's actions read as a flow's steps do: what, when in the video, how it went.
        let steps = trace?.steps.map { ManifestEntry.Step(title: $0.title, time: $0.start, status: $0.status) } ?? []
        // Its file is encoded from now on, while the tail plays and the video is finished.
        let traceFile = keep ? trace.map(TraceFile.init) : nil
        let screenshot = artifacts.file(".png")
        // The end state, held long enough to see; then the last screen as a picture, taken while
        // the video is finished (nothing moves on screen any more).
        if keep, configuration.tail.seconds > 0 { _ = try? await testDevice.client.perform(.wait(configuration.tail)) }
        async let screenshotProblem = keep ? capture(testDevice, into: screenshot) : nil
        var duration = 0.0
        // A video that could not be finished is not passed off as one: it stays on disk for a
        // look, but neither the manifest nor the attachments name it.
        var videoFinished = false
        var preview: URL?
        if keep {
            do {
                // The steps go into the video too: chapters and subtitles; the trace beside it.
                let outcome = try await recording.stop(
                    steps: steps.map { StepMark(title: $0.title, time: $0.time) }, trace: traceFile,
                    preview: true)
                duration = outcome.duration
                preview = outcome.preview
                videoFinished = true
            } catch {
                problems.append(
                    "the video \(recording.video.path) could not be finished, so it is incomplete or missing: \(ErrorSentence.describe(error))"
                )
            }
        } else {
            duration = await recording.discard()
        }
        if let problem = await screenshotProblem { problems.insert(problem, at: 0) }
        let screenshots = artifacts.settleScreenshots(passed: passed)
        if keep {
            result.attachments = (videoFinished ? [recording.video, screenshot] : [screenshot])
                .filter { FileManager.default.fileExists(atPath: $0.path) }
        }

        func relative(_ url: URL) -> String {
            let root = configuration.folder.standardizedFileURL.path + "/"
            return url.standardizedFileURL.path.hasPrefix(root) ? String(url.standardizedFileURL.path.dropFirst(root.count)) : url.path
        }
        let identity = artifacts.identity
        let entry = ManifestEntry(
            id: identity.id, name: identity.fileStem, suite: identity.suite, status: status,
            duration: duration,
            video: videoFinished && FileManager.default.fileExists(atPath: recording.video.path) ? relative(recording.video) : nil,
            screenshot: keep && FileManager.default.fileExists(atPath: screenshot.path) ? relative(screenshot) : nil,
            failures: issues.all, steps: steps, attachments: screenshots.map(relative), preview: preview.map(relative))
        do { try ManifestLog.add(entry, in: configuration.folder) } catch {
            problems.append("the manifest could not be written: \(ErrorSentence.describe(error))")
        }
        if !problems.isEmpty { result.problem = "Recording \(identity.id): " + problems.joined(separator: "; ") + "." }
        return result
    }

    /// Writes the device's screen as a PNG to `file`; what went wrong, if it could not.
    private static func capture(_ testDevice: TestDevice, into file: URL) async -> String? {
        do {
            try await testDevice.client.screenshotPNG().writeReplacing(file)
            return nil
        } catch {
            return "the last screen could not be captured (\(ErrorSentence.describe(error)))"
        }
    }
}
