import Foundation
import Logging
import ShowreelAccessibility
import ShowreelDevice
import ShowreelRecorder
import ShowreelRender
import ShowreelReport
import ShowreelSession
import ShowreelTrace
import ShowreelUI
import ShowreelWire

/// How flows are run and recorded.
package struct FlowRunOptions: Sendable {
    /// Where videos and screenshots go.
    package var output: URL
    package var apps: [AppDefinition]
    package var recording: RecordingOptions
    package var container: VideoContainer
    /// Caption every step with its plain-words summary (`--captions steps`).
    package var captionsSteps: Bool
    /// Write each video's step trace (`<name>.trace.json`) for the report.
    package var traces: Bool
    /// Write each video's animated preview (`<name>.webp`) for pull requests and summary.md.
    package var previews: Bool
    /// The run's variables (`-e KEY=VALUE`), which each flow's `environment` already holds over
    /// its header's `env:`: kept here for what reads variables by name.
    package var variables: [String: String]
    /// `assertScreenshot` writes a reference image that is missing (from the screen it sees)
    /// instead of failing (`--write-missing-references`).
    package var writesMissingReferences = false
    package var logger: Logger

    package init(
        output: URL, apps: [AppDefinition], recording: RecordingOptions = RecordingOptions(),
        container: VideoContainer = .mov, captionsSteps: Bool = false, traces: Bool = true, previews: Bool = true,
        variables: [String: String] = [:],
        logger: Logger = Logger(label: "showreel.flows", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.output = output
        self.apps = apps
        self.recording = recording
        self.container = container
        self.captionsSteps = captionsSteps
        self.traces = traces
        self.previews = previews
        self.variables = variables
        self.logger = logger
    }
}

/// Runs flows, each on its own in-process device (virtual clock, private registry) recorded
/// in-process into one video, and describes each run as a manifest entry.
package struct FlowRunner: Sendable {
    package var options: FlowRunOptions

    package init(options: FlowRunOptions) { self.options = options }

    /// Runs `flows` with up to `workers` at a time; calls `progress` as each one finishes.
    /// Entries come back in the order of `flows`. When the task is cancelled (Ctrl-C), running
    /// flows stop before their next step and keep their videos; flows not started are skipped.
    ///
    /// Recordings that run side by side keep to one thread each when their options leave the
    /// encoder's threads to the recorder (`threads` 0): the workers already keep the cores busy,
    /// and x264's slice threads and swscale's would only add hand-offs between them.
    package func run(
        _ flows: [Flow], workers: Int,
        progress: @Sendable (ManifestEntry) -> Void = { _ in }
    ) async -> [ManifestEntry] {
        var runner = self
        if workers > 1, flows.count > 1, options.recording.threads == 0 { runner.options.recording.threads = 1 }
        return await runner.runEach(flows, workers: workers, progress: progress)
    }

    private func runEach(
        _ flows: [Flow], workers: Int, progress: @Sendable (ManifestEntry) -> Void
    ) async -> [ManifestEntry] {
        let names = Self.videoNames(for: flows)
        var results = [ManifestEntry?](repeating: nil, count: flows.count)
        await withTaskGroup(of: (Int, ManifestEntry).self) { group in
            var next = 0
            func startNext() {
                guard next < flows.count, !Task.isCancelled else { return }
                let index = next
                next += 1
                group.addTask { (index, await run(flows[index], videoName: names[index])) }
            }
            for _ in 0..<max(1, workers) { startNext() }
            while let (index, entry) = await group.next() {
                results[index] = entry
                progress(entry)
                startNext()
            }
        }
        return zip(flows, results).map { flow, entry in
            entry
                ?? ManifestEntry(
                    id: flow.id, name: flow.name, status: .skipped, duration: 0,
                    failures: [ManifestEntry.Failure(message: "Not run: the run was interrupted.")])
        }
    }

    /// File names without extension, one per flow: the file's base name, numbered (" 2", " 3"...)
    /// when flows from different folders share one (`FileNaming`'s rule).
    static func videoNames(for flows: [Flow]) -> [String] {
        FileNaming.unique(flows.map { $0.url.deletingPathExtension().lastPathComponent })
    }

    /// Runs one flow: boots its device, records from the first step to the last (or the
    /// failing one), and shuts the device down. Never throws: problems become a failed entry.
    package func run(_ flow: Flow, videoName: String) async -> ManifestEntry {
        var entry = ManifestEntry(id: flow.id, name: flow.name, status: .passed, duration: 0)
        let home = URL(fileURLWithPath: "/tmp").appendingPathComponent("srf-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: home) }
        let device: Device
        let videoFile = "\(videoName).\(options.container.fileExtension)"
        do {
            device = try Device(
                name: flow.device.name, profile: flow.device.profile, clock: .virtual, apps: options.apps,
                registry: DeviceRegistry(home: home), showsTouches: flow.device.showsTouches,
                interfaceStyle: flow.device.appearance, languages: flow.device.languages, orientation: flow.device.orientation,
                logger: options.logger)
        } catch {
            return entry.failing("Could not boot the device: \(ErrorSentence.describe(error))")
        }
        await device.overrideStatusBar(flow.device.statusBar)
        let recorded: RecordedSession
        var captions: CaptionedSink?
        do {
            recorded = try await RecordedSession(
                device: device, video: options.output.appendingPathComponent(videoFile),
                options: options.recording, mask: ScreenMask(profile: flow.device.profile),
                traces: options.traces, previews: options.previews, logger: options.logger
            ) { session in
                let sink = CaptionedSink(next: session, scale: Double(flow.device.profile.scale))
                captions = sink
                return sink
            }
        } catch {
            await device.shutdown()
            return entry.failing("Could not start the recorder: \(ErrorSentence.describe(error))")
        }
        let execution = FlowExecution(
            flow: flow, device: device, sink: captions, start: recorded.videoStart,
            options: options, screenshotPrefix: videoName)
        await execution.run()
        // Encoded while the video is finished.
        let trace = await recorded.endTrace(kept: true).map(TraceFile.init)

        entry.steps = execution.steps
        entry.attachments = execution.attachments
        let untranslated = device.missingTranslations.entries
        if !untranslated.isEmpty {
            entry.missingTranslations = untranslated.map {
                ManifestEntry.MissingTranslation(app: $0.bundleIdentifier, language: $0.language, key: $0.key)
            }
        }
        if let failure = execution.failure {
            entry.status = execution.wasInterrupted ? .interrupted : .failed
            entry.failures = [failure]
            entry.screenshot = execution.failureScreenshot
        }
        do {
            // Ctrl-C asks to stop now: the video and its trace are kept, the preview is not made.
            let outcome = try await recorded.finish(
                steps: entry.steps.map { StepMark(title: $0.title, time: $0.time) }, trace: trace,
                preview: options.previews && entry.status != .interrupted)
            entry.video = videoFile
            entry.duration = outcome.duration
            entry.preview = outcome.preview?.lastPathComponent
        } catch {
            if entry.status != .interrupted { entry.status = .failed }
            entry.failures.append(ManifestEntry.Failure(message: "The video could not be written: \(ErrorSentence.describe(error))"))
        }
        await device.shutdown()
        return entry
    }
}

extension ManifestEntry {
    /// This entry, failed with `message` before any step ran.
    func failing(_ message: String) -> ManifestEntry {
        var entry = self
        entry.status = .failed
        entry.failures = [Failure(message: message)]
        return entry
    }
}

extension FlowRunner {
    /// What driving a flow did: its steps with their times, and the failure if one stopped it.
    package struct DriveResult: Sendable {
        package var steps: [ManifestEntry.Step]
        package var attachments: [String]
        package var failure: ManifestEntry.Failure?
        package var failureScreenshot: String?
        /// The failure is an interruption (Ctrl-C), not the app's.
        package var wasInterrupted: Bool
    }

    /// Drives `flow`'s steps on a device that is already booted, recorded by someone else (the
    /// demo's recorder, started through the tunnel host): step times count from now. Captions
    /// need the runner's own recording, so caption steps do nothing here.
    package func drive(_ flow: Flow, on device: Device, screenshotPrefix: String) async -> DriveResult {
        let execution = FlowExecution(
            flow: flow, device: device, sink: nil, start: device.clock.now, options: options,
            screenshotPrefix: screenshotPrefix)
        await execution.run()
        return DriveResult(
            steps: execution.steps, attachments: execution.attachments, failure: execution.failure,
            failureScreenshot: execution.failureScreenshot, wasInterrupted: execution.wasInterrupted)
    }
}
