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
            A folder's config.yaml picks and orders its flows as in Maestro (flows, includeTags,
            excludeTags, executionOrder); -e KEY=VALUE gives the flows variables.
            The output folder also gets manifest.json, junit.xml, report.html and summary.md. Exit status: 0 when
            every flow passed, 1 when a flow failed, 64 for a usage error or an invalid flow (nothing runs),
            73 when the output folder cannot be created (nothing runs), 130 when interrupted (SIGINT or
            SIGTERM: running flows stop, keep their videos and are marked interrupted, the report is
            written, flows not started are marked skipped).
            """)

    @Argument(help: "Flow files (.yaml) or folders of them; a folder with a config.yaml is a Maestro workspace.")
    var paths: [String]

    @Option(help: "Where videos, manifest.json, junit.xml and report.html go.")
    var output = "Recordings"

    @Option(help: "How many flows run at once (default: the number of cores).")
    var workers: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: "Run only shard i of n (1-based), e.g. 2/4: a stable subset for CI matrix jobs.")
    var shard: Shard?

    @Flag(help: "Only validate the flows (and the workspace's config.yaml); run nothing.")
    var check = false

    @Option(
        name: [.customShort("e"), .customLong("env")], parsing: .singleValue,
        help: ArgumentHelp(
            "A variable for the flows, over the same name in a flow's header env: (and in the launched app's environment); repeat for more.",
            valueName: "KEY=VALUE"))
    var env: [String] = []

    @Option(
        parsing: .singleValue,
        help: "Run only the flows with at least one of these tags (comma-separated; added to config.yaml's includeTags).")
    var includeTags: [String] = []

    @Option(
        parsing: .singleValue,
        help: "Leave out the flows with any of these tags (comma-separated; added to config.yaml's excludeTags).")
    var excludeTags: [String] = []

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

    func validate() throws {
        guard workers >= 1 else { throw ValidationError("--workers must be 1 or more, got \(workers)") }
        _ = try Self.variables(env)
        if let scale, !(scale > 0 && scale <= 8) { throw ValidationError("--scale must be above 0 and at most 8, got \(scale)") }
    }

    func run() async throws {
        try await reportingFailures { try await runFlows() }
    }

    /// `-e KEY=VALUE` as a map (the last of a name wins, as in Maestro); a value without `=` or
    /// with an empty name is a usage error saying what to write.
    static func variables(_ pairs: [String]) throws -> [String: String] {
        var variables: [String: String] = [:]
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw ValidationError(
                    "-e '\(pair)' is not a variable: write -e KEY=VALUE (a name, '=', then the value, e.g. -e USERNAME=ada)")
            }
            variables[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        return variables
    }

    /// `--include-tags a,b --include-tags c` as [a, b, c].
    static func tags(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private func runFlows() async throws {
        let runMatrix = try matrix.matrix()
        let variables = try Self.variables(env)
        let request = FlowWorkspace.Request(
            paths: paths, includeTags: Self.tags(includeTags), excludeTags: Self.tags(excludeTags), variables: variables)
        // A matrix is sharded by cell and flow, so a shard's flows are loaded whole first.
        let selection = try FlowLoading.select(request, shard: runMatrix.isEmpty ? shard : nil)
        if shard != nil, selection.order != nil {
            throw CLIFailure(
                message:
                    "--shard cannot split a run with config.yaml's executionOrder (its flows run one at a time, in order): "
                    + "run without --shard, or remove flowsOrder",
                exitCode: CLIFailure.Code.usage)
        }
        let flows = selection.flows
        var jobs = runMatrix.jobs(for: flows)
        if !runMatrix.isEmpty, let shard { jobs = FlowDiscovery.shard(jobs, id: \.id, index: shard.index, count: shard.count) }
        let storePreviews = try matrix.previewPlan(for: jobs, scaleChosen: scale != nil)
        let leftOut =
            selection.leftOutByTags == 0
            ? "" : " (\(selection.leftOutByTags) left out by tags)"
        if check {
            Console.out("\(flows.count) \(flows.count == 1 ? "flow is" : "flows are") valid\(leftOut).")
            return
        }
        guard !jobs.isEmpty else {
            Console.out("Shard \(shard!) has no flows (there are fewer flows than shards): nothing to run.")
            return
        }
        let folder = URL(fileURLWithPath: output, isDirectory: true).standardizedFileURL
        try OutputFolder.prepare(folder, named: output)
        let recording = RecordingOptions(codec: codec, scale: scale ?? 0.5)
        let runner = MatrixRunner(
            options: FlowRunOptions(
                output: folder, apps: ShowreelConfiguration.current.apps, recording: recording,
                container: container, captionsSteps: captions == .steps, traces: traces,
                previews: previews, variables: variables), previews: storePreviews)
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
        let work = Task { await runner.run(jobs, workers: workers, order: selection.order) { progress.finished($0) } }
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
                + "in \(String(format: "%.1f", Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)) s\(leftOut); "
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

/// Finding, parsing, picking and sharding flows, with the CLI's errors (exit 64, nothing runs).
enum FlowLoading {
    static func load(_ paths: [String], shard: Shard?) throws -> [Flow] {
        try select(FlowWorkspace.Request(paths: paths), shard: shard).flows
    }

    /// The flows of `request` (a workspace's config.yaml, tags, variables), sharded. An ordered
    /// run (`executionOrder`) cannot be sharded, as in Maestro.
    static func select(_ request: FlowWorkspace.Request, shard: Shard?) throws -> FlowSelection {
        var selection: FlowSelection
        do {
            selection = try FlowWorkspace.select(request, parser: FlowParser(knownApps: ShowreelConfiguration.current.bundleIdentifiers))
        } catch let .invalid(error) {
            let problems = error.diagnostics
            for problem in problems { Console.status("\(problem.location): error: \(problem.message)") }
            let count = Set(problems.map(\.location.file)).count
            throw CLIFailure(
                message:
                    "\(problems.count) \(problems.count == 1 ? "problem" : "problems") in \(count) \(count == 1 ? "file" : "files"); nothing ran.",
                exitCode: CLIFailure.Code.usage)
        } catch {
            throw CLIFailure(message: error.description, exitCode: CLIFailure.Code.usage)
        }
        guard let shard else { return selection }
        selection.flows = FlowDiscovery.shard(selection.flows, id: \.id, index: shard.index, count: shard.count)
        return selection
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
