import ArgumentParser
import Foundation
import ShowreelFlows
import ShowreelRecorder
import ShowreelReport
import ShowreelUI
import ShowreelWire

/// `showreel run`: YAML flows in, one video per flow, a manifest, JUnit and an HTML report out.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run YAML flows on in-process devices and record each one as a video, with a report and JUnit.",
        discussion: """
            Each flow runs on its own device (virtual clock) and is recorded into <output>/<flow>.mov,
            with a chapter and a subtitle per step, and an animated preview <output>/<flow>.webp.
            The output folder also gets manifest.json, junit.xml, report.html and summary.md. Exit status: 0 when
            every flow passed, 1 when a flow failed, 64 for a usage error or an invalid flow (nothing runs),
            73 when the output folder cannot be created (nothing runs), 130 when interrupted (SIGINT or
            SIGTERM: running flows stop, keep their videos and are marked interrupted, the report is
            written, flows not started are marked skipped).
            """)

    @Argument(help: "Flow files (.yaml) or folders of them.")
    var paths: [String]

    @Option(help: "Where videos, manifest.json, junit.xml and report.html go.")
    var output = "Recordings"

    @Option(help: "How many flows run at once (default: the number of cores).")
    var workers: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Run only shard i of n (1-based), e.g. 2/4: a stable subset for CI matrix jobs.")
    var shard: Shard?

    @Flag(help: "Only validate the flows; run nothing.")
    var check = false

    @Option(
        name: .customShort("e"),
        help: "An env variable for every flow's scripts and ${...}, over the header's env: -e KEY=VALUE (repeat it).")
    var env: [String] = []

    @Option(help: "Run only flows with one of these tags (comma-separated), as Maestro's --include-tags.")
    var includeTags: String?

    @Option(help: "Leave out flows with any of these tags (comma-separated), as Maestro's --exclude-tags.")
    var excludeTags: String?

    @Flag(help: "assertScreenshot writes a missing reference image from the screen it sees instead of failing.")
    var writeMissingReferences = false

    @Option(help: "none, or steps: caption every step of the videos with what it does.")
    var captions: CaptionMode = .none

    @Option(help: "Video container: mov or mp4.")
    var container: VideoContainer = .mov

    @Option(help: "Video codec: h264 or hevc.")
    var codec: VideoCodec = .h264

    @Option(
        help:
            "Scale the videos relative to the screen's pixels: 0.5 (the default) is the screen's point size, 390x844 for the phone; 1 for every device pixel. With --app-store-previews the default is the previews' size."
    )
    var scale: Double?

    @Flag(
        inversion: .prefixedNo,
        help:
            "Write each video's step trace (<name>.trace.json: pictures before and after each step, its element tree and target) for the report."
    )
    var traces = true

    @Flag(
        inversion: .prefixedNo,
        help: "Write each video's animated preview (<name>.webp, at most 480 px wide, 10 fps) for summary.md and pull requests.")
    var previews = true

    @Flag(help: "Also join the passing flows' videos into <output>/reel.mp4 with title cards and chapters.")
    var reel = false

    @Option(help: "The report's title.")
    var title = "Showreel flows"

    @Option(
        help:
            "Put before the file links of summary.md (where the output folder is served, e.g. an artifact store); default: links relative to it."
    )
    var summaryLinks = ""

    @OptionGroup(title: "Matrix runs and App Store previews")
    var matrix: MatrixOptions

    enum CaptionMode: String, ExpressibleByArgument, CaseIterable { case none, steps }

    /// `-e KEY=VALUE`s as a map.
    var environment: [String: String] {
        get throws {
            var values: [String: String] = [:]
            for pair in env {
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                    throw ValidationError("-e takes KEY=VALUE, got '\(pair)'")
                }
                values[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
            return values
        }
    }

    func validate() throws {
        _ = try environment
        guard workers >= 1 else { throw ValidationError("--workers must be 1 or more, got \(workers)") }
        if let scale, !(scale > 0 && scale <= 8) { throw ValidationError("--scale must be above 0 and at most 8, got \(scale)") }
    }

    func run() async throws {
        try await reportingFailures { try await runFlows() }
    }

    private func runFlows() async throws {
        let runMatrix = try matrix.matrix()
        // A matrix is sharded by cell and flow, so a shard's flows are loaded whole first.
        let tags = { (list: String?) in list?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? [] }
        let flows = try FlowLoading.load(
            paths, shard: runMatrix.isEmpty ? shard : nil, include: tags(includeTags), exclude: tags(excludeTags))
        var jobs = runMatrix.jobs(for: flows)
        if !runMatrix.isEmpty, let shard { jobs = FlowDiscovery.shard(jobs, id: \.id, index: shard.index, count: shard.count) }
        let storePreviews = try matrix.previewPlan(for: jobs, scaleChosen: scale != nil)
        if check {
            Console.out("\(flows.count) \(flows.count == 1 ? "flow is" : "flows are") valid.")
            return
        }
        guard !jobs.isEmpty else {
            if let shard, !flows.isEmpty || (includeTags == nil && excludeTags == nil) {
                Console.out("Shard \(shard) has no flows (there are fewer flows than shards): nothing to run.")
            } else {
                Console.out("No flow has the tags asked for (--include-tags, --exclude-tags, config.yaml): nothing to run.")
            }
            return
        }
        let folder = URL(fileURLWithPath: output, isDirectory: true).standardizedFileURL
        try OutputFolder.prepare(folder, named: output)
        let recording = RecordingOptions(codec: codec, scale: scale ?? 0.5)
        var runOptions = FlowRunOptions(
            output: folder, apps: ShowreelConfiguration.current.apps, recording: recording,
            container: container, captionsSteps: captions == .steps, traces: traces,
            previews: previews)
        runOptions.environment = try environment
        runOptions.writesMissingReferences = writeMissingReferences
        let runner = MatrixRunner(options: runOptions, previews: storePreviews)
        let used = min(workers, jobs.count)
        let cells = Set(jobs.compactMap(\.cell)).count
        let across = cells > 0 ? " (\(flows.count) in \(cells) \(cells == 1 ? "cell" : "cells"))" : ""
        Console.status(
            "Running \(jobs.count) \(jobs.count == 1 ? "flow" : "flows")\(across) with \(used) \(used == 1 ? "worker" : "workers") into \(output)/"
        )
        let progress = ProgressLine(total: jobs.count)
        let started = ContinuousClock.now
        // Ctrl-C or SIGTERM: running flows stop before their next step and keep their videos,
        // the rest are skipped, and the report is still written.
        let work = Task { await runner.run(jobs, workers: workers) { progress.finished($0) } }
        let trap = SignalTrap { _ in work.cancel() }
        let result = await work.value
        let entries = result.entries
        trap.cancel()
        progress.end()
        for problem in result.previewProblems { Console.status("error: \(problem)") }

        let manifest = RunManifest(title: title, entries: entries)
        // A fallback to the source language is never silent: one line per flow and key.
        for entry in entries {
            for missing in entry.missingTranslations ?? [] {
                Console.warning(
                    "\(entry.name): \(missing.app) has no \(missing.language) translation for '\(missing.key)'; it showed the source text.")
            }
        }
        try ReportFiles.write(manifest, to: folder, pathPrefix: output, summaryLinks: summaryLinks)
        if reel, work.isCancelled {
            Console.warning("interrupted, so no reel")
        } else if reel, manifest.count(.passed) == 0 {
            Console.warning("no flow passed, so there is no reel")
        } else if reel {
            try ReelCommand.makeReel(from: manifest, folder: folder, to: folder.appendingPathComponent("reel.mp4"), options: recording)
        }
        let elapsed = (ContinuousClock.now - started)
        let failed = manifest.count(.failed)
        Console.out(
            "\(entries.count) \(entries.count == 1 ? "flow" : "flows"): \(manifest.outcome) "
                + "in \(String(format: "%.1f", Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)) s; "
                + "report: \(output)/\(HTMLReport.fileName)")
        if work.isCancelled {
            let stopped = manifest.count(.interrupted)
            Console.status(
                "Interrupted: \(stopped) \(stopped == 1 ? "flow was" : "flows were") stopped, "
                    + "\(manifest.count(.skipped)) not run.")
            throw ExitCode(130)
        }
        if failed > 0 || !result.previewProblems.isEmpty { throw ExitCode(1) }
    }
}

/// `--shard i/n`.
struct Shard: ExpressibleByArgument, CustomStringConvertible {
    let index: Int
    let count: Int

    init?(argument: String) {
        let parts = argument.split(separator: "/")
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, (1...count).contains(index) else {
            return nil
        }
        self.index = index
        self.count = count
    }

    var description: String { "\(index)/\(count)" }
}

/// Finding, parsing and sharding flows, with the CLI's errors (exit 64, nothing runs).
enum FlowLoading {
    /// `include`/`exclude`: tags from the command line, with those of a folder's config.yaml.
    static func load(_ paths: [String], shard: Shard?, include: [String] = [], exclude: [String] = []) throws -> [Flow] {
        let files: [String]
        do { files = try FlowDiscovery.files(in: paths) } catch {
            throw CLIFailure(message: error.description, exitCode: CLIFailure.Code.usage)
        }
        let parser = FlowParser(knownApps: ShowreelConfiguration.current.bundleIdentifiers)
        var flows: [Flow] = []
        var problems: [FlowDiagnostic] = []
        for file in files {
            do { flows.append(try parser.parse(fileAt: URL(fileURLWithPath: file), id: file)) } catch {
                problems += error.diagnostics
            }
        }
        var workspace = WorkspaceConfig()
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { continue }
            do {
                if let config = try WorkspaceConfig.load(folder: FlowDiscovery.normalized(path)) { workspace = config }
            } catch { problems += error.diagnostics }
        }
        flows = workspace.select(flows, include: include, exclude: exclude)
        guard problems.isEmpty else {
            for problem in problems { Console.status("\(problem.location): error: \(problem.message)") }
            let count = Set(problems.map(\.location.file)).count
            throw CLIFailure(
                message:
                    "\(problems.count) \(problems.count == 1 ? "problem" : "problems") in \(count) \(count == 1 ? "file" : "files"); nothing ran.",
                exitCode: CLIFailure.Code.usage)
        }
        guard let shard else { return flows }
        return FlowDiscovery.shard(flows, id: \.id, index: shard.index, count: shard.count)
    }
}

/// Done/total, failures and an estimate of the time left: one line redrawn on a terminal,
/// plain lines otherwise (pipes, CI=true).
final class ProgressLine: @unchecked Sendable {
    private let total: Int
    private let started = ContinuousClock.now
    private let interactive: Bool
    private let lock = NSLock()
    private var done = 0
    private var failed = 0

    init(total: Int) {
        self.total = total
        let ci = ProcessInfo.processInfo.environment["CI"].map { ["true", "1", "yes"].contains($0.lowercased()) } ?? false
        interactive = isatty(STDERR_FILENO) == 1 && !ci
        if interactive { FileHandle.standardError.write(Data("[0/\(total)] running…".utf8)) }
    }

    func finished(_ entry: ManifestEntry) {
        lock.lock()
        defer { lock.unlock() }
        done += 1
        if entry.status == .failed { failed += 1 }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let eta = seconds / Double(done) * Double(total - done)
        if interactive {
            let line =
                "[\(done)/\(total)] \(failed) failed, ETA \(String(format: "%.0f", eta.rounded(.up))) s · \(Self.mark(entry.status)) \(entry.nameInCell)"
            FileHandle.standardError.write(Data(("\r\u{1B}[2K" + line).utf8))
        } else {
            Console.status("[\(done)/\(total)] \(entry.status.rawValue) \(entry.id) (\(String(format: "%.1f", entry.duration)) s of video)")
        }
        for failure in entry.failures {
            if interactive { FileHandle.standardError.write(Data("\n".utf8)) }
            // An interruption says so itself: it is no error of the flow's.
            let label = entry.status == .interrupted ? "" : "error: "
            Console.status("  \(failure.location.map { "\($0): " } ?? "")\(label)\(failure.message)")
        }
    }

    static func mark(_ status: ManifestEntry.Status) -> String {
        switch status {
        case .passed: "✓"
        case .failed: "✗"
        case .interrupted: "■"
        case .skipped: "-"
        }
    }

    func end() {
        if interactive { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}

/// The run's output folder, made (or found writable) before any flow runs: a folder that
/// cannot be made would otherwise fail every flow in turn.
enum OutputFolder {
    static func prepare(_ folder: URL, named name: String) throws {
        if let (path, code) = makeFolders(folder.path) {
            let reason = String(cString: strerror(code))
            let place = path == folder.path ? "" : "\(path): "
            throw CLIFailure(
                message: "Cannot create the output folder \(name): \(place)\(reason). Choose another --output.",
                exitCode: CLIFailure.Code.cannotCreateOutput)
        }
        guard access(folder.path, W_OK | X_OK) == 0 else {
            throw CLIFailure(
                message: "Cannot write into the output folder \(name): \(String(cString: strerror(errno))). Choose another --output.",
                exitCode: CLIFailure.Code.cannotCreateOutput)
        }
    }

    /// `mkdir -p`, one folder at a time, so a failure names the folder and the system's reason
    /// (Foundation's would say neither); nil when `path` is a folder at the end.
    private static func makeFolders(_ path: String) -> (String, Int32)? {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            prefix += "/" + part
            var info = stat()
            if stat(prefix, &info) == 0 {
                if info.st_mode & S_IFMT != S_IFDIR { return (prefix, ENOTDIR) }
                continue
            }
            if mkdir(prefix, 0o777) != 0, errno != EEXIST { return (prefix, errno) }
        }
        return nil
    }
}

/// manifest.json, junit.xml, report.html and summary.md for a run, side by side.
enum ReportFiles {
    static func write(_ manifest: RunManifest, to folder: URL, pathPrefix: String, summaryLinks: String = "") throws {
        do {
            try manifest.writeReport(to: folder, pathPrefix: pathPrefix, summaryLinks: summaryLinks)
        } catch {
            throw CLIFailure(
                message: "Could not write the report into \(folder.path): \(ErrorSentence.describe(error))",
                exitCode: CLIFailure.Code.unwritable)
        }
    }
}

extension VideoContainer: ExpressibleByArgument {}
extension VideoCodec: ExpressibleByArgument {}
