import Foundation
import ShowreelRecorder
import ShowreelRender
import ShowreelReport

/// App Store previews to make of each passing flow's video in a run (`--app-store-previews`).
package struct AppStorePreviewPlan: Sendable {
    /// The classes asked for; each video gets one per class whose shape its device has.
    package var classes: [AppStorePreviewClass]
    package var holdsLast: Bool
    package var trims: Bool
    package var audio: URL?
    /// Record each flow at the size its previews need (down from the screen's pixels), not at
    /// the run's scale: set when the user did not choose `--scale`.
    package var sizesRecording: Bool

    package init(
        classes: [AppStorePreviewClass], holdsLast: Bool = false, trims: Bool = false, audio: URL? = nil, sizesRecording: Bool = true
    ) {
        self.classes = classes
        self.holdsLast = holdsLast
        self.trims = trims
        self.audio = audio
        self.sizesRecording = sizesRecording
    }

    /// The classes a device's screen fits.
    package func classes(for profile: DeviceProfile) -> [AppStorePreviewClass] {
        classes.filter { $0.fits(width: profile.pixelWidth, height: profile.pixelHeight) }
    }

    /// The recording scale that gives the largest fitting class's size or more (at most the
    /// screen's pixels), or nil when no class fits.
    func recordingScale(for profile: DeviceProfile) -> Double? {
        let fitting = classes(for: profile)
        guard !fitting.isEmpty else { return nil }
        let width = Double(profile.pixelWidth), height = Double(profile.pixelHeight)
        let needed: [Double] = fitting.map { max(Double($0.width) / width, Double($0.height) / height) }
        return min(1, needed.max() ?? 1)
    }

    /// The folder previews go into, in a run's output.
    package static let folder = "app-store-previews"

    /// A preview's file name: the video's, the cell's and the class's,
    /// `countries-de-phone-dark-iphone-6.9.mp4`.
    package static func fileName(video: String, cell: RunCell?, previewClass: AppStorePreviewClass) -> String {
        let name = (video as NSString).lastPathComponent
        let base = (name as NSString).deletingPathExtension
        return "\(base)\(cell.map { "-\($0.name)" } ?? "")-\(previewClass.rawValue).mp4"
    }
}

/// What a run of jobs gave: an entry per job, and the previews that could not be made.
package struct MatrixRunResult: Sendable {
    package var entries: [ManifestEntry]
    /// One sentence per refused or failed App Store preview, naming the flow and the cell.
    package var previewProblems: [String]
}

/// Runs jobs (flows in cells) with up to `workers` at a time across every cell, each into its
/// cell's folder, and makes the App Store previews of each as it finishes.
package struct MatrixRunner: Sendable {
    package var options: FlowRunOptions
    package var previews: AppStorePreviewPlan?

    package init(options: FlowRunOptions, previews: AppStorePreviewPlan? = nil) {
        self.options = options
        self.previews = previews
    }

    /// Runs the jobs of `order`'s flows first, one at a time in its order (in every cell), as
    /// Maestro runs a workspace's `executionOrder`; then the others, up to `workers` at a time.
    /// Entries come back in that order. When an ordered job fails and the order does not
    /// continue on failure, the ordered jobs after it are skipped; the others still run.
    package func run(
        _ jobs: [RunJob], workers: Int, order: RunOrder?, progress: @Sendable (ManifestEntry) -> Void = { _ in }
    ) async -> MatrixRunResult {
        guard let order, !order.flowIDs.isEmpty else { return await run(jobs, workers: workers, progress: progress) }
        let position = Dictionary(order.flowIDs.enumerated().map { ($1, $0) }) { first, _ in first }
        let ordered = jobs.enumerated().filter { position[$0.element.flow.id] != nil }
            .sorted { (position[$0.element.flow.id]!, $0.offset) < (position[$1.element.flow.id]!, $1.offset) }.map(\.element)
        var entries: [ManifestEntry] = []
        var problems: [String] = []
        var failed: String?
        for job in ordered {
            if Task.isCancelled {
                entries.append(Self.skipped(job, because: "Not run: the run was interrupted."))
            } else if let failed {
                entries.append(
                    Self.skipped(
                        job, because: "Not run: \(failed) failed before it, and config.yaml's executionOrder has continueOnFailure: false.")
                )
            } else {
                let (entry, jobProblems) = await run(job)
                progress(entry)
                entries.append(entry)
                problems += jobProblems
                if entry.status == .failed, !order.continueOnFailure { failed = entry.nameInCell }
            }
        }
        let others = await run(jobs.filter { position[$0.flow.id] == nil }, workers: workers, progress: progress)
        return MatrixRunResult(entries: entries + others.entries, previewProblems: problems + others.previewProblems)
    }

    /// The entry of a job that did not run, saying why.
    static func skipped(_ job: RunJob, because reason: String) -> ManifestEntry {
        ManifestEntry(
            id: job.id, name: job.flow.name, status: .skipped, duration: 0, failures: [ManifestEntry.Failure(message: reason)],
            cell: job.cell)
    }

    /// Entries come back in the order of `jobs`; on cancellation (Ctrl-C) running jobs stop and
    /// keep their videos, and jobs not started are skipped.
    package func run(_ jobs: [RunJob], workers: Int, progress: @Sendable (ManifestEntry) -> Void = { _ in }) async -> MatrixRunResult {
        var results = [(ManifestEntry, [String])?](repeating: nil, count: jobs.count)
        await withTaskGroup(of: (Int, (ManifestEntry, [String])).self) { group in
            var next = 0
            func startNext() {
                guard next < jobs.count, !Task.isCancelled else { return }
                let index = next
                next += 1
                group.addTask { (index, await run(jobs[index])) }
            }
            for _ in 0..<max(1, workers) { startNext() }
            while let (index, result) = await group.next() {
                results[index] = result
                progress(result.0)
                startNext()
            }
        }
        let entries = zip(jobs, results).map { job, result in result?.0 ?? Self.skipped(job, because: "Not run: the run was interrupted.") }
        return MatrixRunResult(entries: entries, previewProblems: results.flatMap { $0?.1 ?? [] })
    }

    /// Runs one job into its folder, with its entry's paths relative to the run's output.
    package func run(_ job: RunJob) async -> (ManifestEntry, [String]) {
        var jobOptions = options
        jobOptions.output = job.folder.isEmpty ? options.output : options.output.appendingPathComponent(job.folder, isDirectory: true)
        if let previews, previews.sizesRecording, let scale = previews.recordingScale(for: job.flow.device.profile) {
            jobOptions.recording.scale = scale
        }
        var entry = await FlowRunner(options: jobOptions).run(job.flow, videoName: job.videoName).rebased(onto: job.folder)
        entry.id = job.id
        entry.cell = job.cell
        guard let previews, entry.status == .passed, let video = entry.video else { return (entry, []) }
        var problems: [String] = []
        for previewClass in previews.classes(for: job.flow.device.profile) {
            let path =
                AppStorePreviewPlan.folder + "/" + AppStorePreviewPlan.fileName(video: video, cell: job.cell, previewClass: previewClass)
            let settings = AppStorePreviewOptions(
                previewClass: previewClass, holdsLast: previews.holdsLast, trims: previews.trims,
                audio: previews.audio)
            do {
                try AppStorePreview.make(
                    from: options.output.appendingPathComponent(video), to: options.output.appendingPathComponent(path),
                    options: settings, logger: options.logger)
                entry.attachments.append(path)
            } catch {
                problems.append("\(entry.nameInCell): no \(previewClass.rawValue) preview: \(error.description)")
            }
        }
        return (entry, problems)
    }
}
