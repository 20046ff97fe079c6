import Foundation
import ShowreelRecorder
import ShowreelRender

#if canImport(Glibc)
import Glibc
#endif

/// The parent process: runs every scenario in its own child process, probes the videos and
/// prints the tables and the targets.
struct BenchmarkRun {
    struct Configuration {
        var rounds = 3
        var profiles = ["phone", "phone-3x"]
        var displayStream = true
        var flows = true
        var stepTracks = true
        var x11 = true
        var webDriver = true
        var studio = true
        var x11Seconds = 60
        var keep = false
        var matrix = true
        /// Only the encoders on the rendered frames: the limit, the recorder, the CLI, memory.
        var recorderOnly = false
    }

    static let throughputTarget = 1.25
    /// The recorder's throughput as a fraction of libx264's alone.
    static let limitTarget = 0.90
    /// Rounds of the limit and the recorder fed from memory, at least: a round of each takes a
    /// second or two, and the fastest of five is steadier than of three on a shared machine.
    static let limitRounds = 5
    static let memoryTargetMiB = 150.0
    static let memoryTargetProfile = "phone-3x"
    static let cfrRate = 25
    /// The rate the CLI is told the raw frames come at (the script's animation rate).
    static let cliRate = 60

    /// For the reference row: the CLI tuned like the recorder (x264 zerolatency, swscale's SIMD chroma input).
    static let recorderLikeCLIOptions = "-tune zerolatency -sws_flags bilinear+full_chroma_inp"

    let configuration: Configuration

    struct SizeResult {
        var profile: DeviceProfile
        var frames: FrameSet
        var render: ScenarioResult
        var feed: ScenarioResult
        var inProcess: [ScenarioResult]
        /// The recorder fed from memory (`Scenario.inProcess(preloaded:)`), against the limit.
        var fromMemory: [ScenarioResult]
        var cli: [ScenarioResult]
        /// libx264 alone on pictures already in YUV (see `Scenario.encoderLimit`).
        var limit: [ScenarioResult]
        var cliTuned: ScenarioResult
        var fullQueue: ScenarioResult
        var cfr: ScenarioResult
        var vfrProbe: MediaInfo
        var cliProbe: MediaInfo
        var cfrProbe: MediaInfo

        var bestInProcess: ScenarioResult { inProcess.min { $0.wallSeconds < $1.wallSeconds }! }
        var bestCLI: ScenarioResult { cli.min { $0.wallSeconds < $1.wallSeconds }! }
        var bestLimit: ScenarioResult { limit.min { $0.wallSeconds < $1.wallSeconds }! }
        var bestFromMemory: ScenarioResult { fromMemory.min { $0.wallSeconds < $1.wallSeconds }! }
        var ratio: Double { bestCLI.wallSeconds / bestInProcess.wallSeconds }
        /// The recorder's throughput as a fraction of libx264's own.
        var limitFraction: Double { bestLimit.wallSeconds / bestFromMemory.wallSeconds }
        var size: String { "\(frames.width)x\(frames.height)" }
        var span: Double { Double(frames.stop) / 1e6 }
        var idleSeconds: Double { frames.idle.reduce(0) { $0 + $1[1] - $1[0] } }
        /// Probed VFR frame timestamps strictly inside an idle stretch (should be none).
        var framesInsideIdle: Int {
            vfrProbe.frameTimestamps.filter { t in frames.idle.contains { t > $0[0] + 0.001 && t < $0[1] - 0.001 } }.count
        }
        var idleHolds: Bool {
            vfrProbe.frameCount == frames.count && framesInsideIdle == 0 && abs(vfrProbe.duration - span) < 0.05
        }
    }

    func run() throws {
        guard let ffmpeg = findOnPath("ffmpeg") else {
            throw BenchmarkError(
                "the ffmpeg command line is not on PATH; it is the baseline this benchmark compares against. Install it (Debian: apt-get install ffmpeg) and run again"
            )
        }
        let executable = try selfExecutable()
        let work = try makeWorkDirectory()
        defer { if !configuration.keep { try? FileManager.default.removeItem(atPath: work) } }
        // The raw frames take gigabytes of RAM-backed /dev/shm: remove them on Ctrl-C or SIGTERM too.
        let interruptions = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                try? FileManager.default.removeItem(atPath: work)
                FileHandle.standardError.write(Data("showreel-bench: interrupted; removed \(work)\n".utf8))
                exit(128 + number)
            }
            source.resume()
            return source
        }
        defer { for source in interruptions { source.cancel() } }

        let ffmpegVersion = (try? captureFirstLine(ffmpeg, ["-hide_banner", "-version"])) ?? "ffmpeg (version unknown)"
        let (events, stop, idle) = ScriptedSession.timeline()
        print("Showreel benchmark: in-process recorder vs the ffmpeg command line")
        print(
            "  machine: \(ProcessInfo.processInfo.activeProcessorCount) cores, \(ffmpegVersion.split(separator: " ").prefix(3).joined(separator: " ")), libx264 preset ultrafast, \(Scenario.recorderQuality.joined(separator: " ")), yuv420p"
        )
        print(
            String(
                format:
                    "  session: Hello sample app, 3 animations x 60 frames at 60 Hz, 5 taps, %d idle stretches (%.1f s idle), %.1f s recorded (%d scripted steps; a frame only where the screen changed)",
                idle.count, idle.reduce(0) { $0 + $1.upperBound - $1.lowerBound }, stop.seconds, events.count + 1))
        print("  method: each size is rendered once (WindowScene.render, Cairo) into raw BGRA frames in \(work);")
        print("          every encoder then reads the same frames from there (one copy per frame from the page cache),")
        print(
            "          each run in its own child process (\(configuration.rounds) rounds, fastest counts, in-process and CLI alternating;"
        )
        print(
            "          \(max(configuration.rounds, Self.limitRounds)) rounds of libx264's limit and the recorder fed from memory).")
        print("")

        var results: [SizeResult] = []
        for name in configuration.profiles {
            guard let profile = DeviceProfile.named(name) else { throw BenchmarkError("unknown profile \(name)") }
            FileHandle.standardError.write(Data("[bench] \(profile.pixelWidth)x\(profile.pixelHeight): rendering\n".utf8))
            results.append(try measure(profile: profile, executable: executable, ffmpeg: ffmpeg, work: work))
            try? FileManager.default.removeItem(atPath: results.last!.frames.rawPath)
        }

        printTables(results)
        if configuration.recorderOnly {
            printTargets(results)
            return
        }

        var displayLines: [String] = []
        if configuration.displayStream {
            FileHandle.standardError.write(Data("[bench] display stream\n".utf8))
            do {
                displayLines = try DisplayStreamBenchmark.run(executable: executable)
            } catch {
                displayLines = ["Display stream: could not run (\(error))"]
            }
            print("")
            for line in displayLines { print(line) }
        }

        FileHandle.standardError.write(Data("[bench] idle minute, device with two recorders\n".utf8))
        var memoryLines: [String]
        do { memoryLines = try IdleCostBenchmark.run(work: work) } catch { memoryLines = ["Idle minute: could not run (\(error))"] }
        do { memoryLines += try DeviceMemoryBenchmark.run(executable: executable, work: work) } catch {
            memoryLines.append("Device with two recorders: could not run (\(error))")
        }
        print("")
        for line in memoryLines { print(line) }

        FileHandle.standardError.write(Data("[bench] render cost per screen\n".utf8))
        print("")
        print(renderBenchmarkReport())

        print(HostMemoryBenchmark.report(besides: executable))

        if configuration.flows { printFlows(); printTraces(); printTextShaping() }
        if configuration.stepTracks { printStepTracks() }
        if configuration.matrix { printMatrix() }

        printTargets(results)

        printUISuite()
        if configuration.x11 { printX11() }
        if configuration.webDriver { printWebDriver() }
        if configuration.studio { printStudio() }
        if configuration.keep { print("\nFiles kept in \(work)") }
    }

    /// Recording an X display against ffmpeg's x11grab, or why it could not run.
    func printX11() {
        printSection("X display", "Recording an X display", needs: "it needs Xvfb, chromium and ffmpeg (scripts/install-deps)") {
            let executable = try selfExecutable()
            let showreel = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("showreel").path
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("showreel-bench-x11-\(getpid())").path
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            defer { if !configuration.keep { try? FileManager.default.removeItem(atPath: work) } }
            return try X11Benchmark.run(showreel: showreel, work: work, seconds: configuration.x11Seconds)
        }
    }

    /// What step traces add to `showreel run`, and `showreel diff`'s speed, or why it could not run.
    func printTextShaping() {
        printSection("text shaping", "Text shaping", needs: Self.fromTheRoot) { try TextShapingBenchmark.run(rounds: configuration.rounds) }
    }

    func printTraces() {
        printSection("step traces and diff", "Step traces", needs: Self.fromTheRoot) {
            try TraceBenchmark.run(rounds: configuration.rounds)
        }
    }

    /// `showreel run` throughput (workers 2 against 1), or why it could not run.
    func printFlows() {
        printSection("flows", "Flows", needs: Self.fromTheRoot) { try FlowBenchmark.run(rounds: configuration.rounds) }
    }

    /// What chapters, subtitles and previews add to a flow video, or why it could not run.
    func printStepTracks() {
        printSection("steps in the videos, previews", "Steps in the videos, previews", needs: Self.fromTheRoot) {
            try StepTracksBenchmark.run(rounds: configuration.rounds)
        }
    }

    /// `showreel webdriver` against the Swift client, and the pytest suite with and without recording.
    func printWebDriver() {
        printSection("WebDriver", "WebDriver", needs: Self.fromTheRoot) { try WebDriverBenchmark.run(rounds: configuration.rounds) }
    }

    /// The UI suite with and without recording, or why it could not run.
    func printUISuite() {
        printSection("UI suite with and without recording", "UI suite with and without recording", needs: Self.fromTheRoot) {
            try UISuiteBenchmark.run(rounds: configuration.rounds)
        }
    }

    /// `showreel studio`: frame delay to the page, idle cost.
    func printStudio() {
        printSection("studio", "Studio", needs: Self.fromTheRoot) { try StudioBenchmark.run() }
    }

    /// A 16-cell matrix run against the single cell, and an App Store preview's cost.
    func printMatrix() {
        printSection("matrix run, App Store preview", "Matrix run", needs: Self.fromTheRoot) {
            try MatrixBenchmark.run(rounds: configuration.rounds)
        }
    }

    private static let fromTheRoot = "run from the repository's root, where Fixtures/Flows is"

    /// One section of the report: progress on stderr, then its lines, or why it could not run.
    private func printSection(_ progress: String, _ name: String, needs: String, _ lines: () throws -> [String]) {
        FileHandle.standardError.write(Data("[bench] \(progress)\n".utf8))
        print("")
        do {
            for line in try lines() { print(line) }
        } catch {
            print("\(name): could not run (\(error)); \(needs)")
        }
    }

    // MARK: - Measuring one size

    private func measure(profile: DeviceProfile, executable: String, ffmpeg: String, work: String) throws -> SizeResult {
        let tag = "\(profile.pixelWidth)x\(profile.pixelHeight)"
        let index = "\(work)/frames-\(tag).json"
        let render = try child(executable, ["render", "--profile", profile.name, "--dir", work, "--index", index])
        let frames = try FrameSet.load(index)
        let feed = try child(executable, ["feed", "--index", index])

        let vfrPath = "\(work)/inprocess-\(tag).mp4"
        let cliPath = "\(work)/cli-\(tag).mp4"
        var inProcess: [ScenarioResult] = []
        var cli: [ScenarioResult] = []
        var limit: [ScenarioResult] = []
        var fromMemory: [ScenarioResult] = []
        let rounds = max(configuration.rounds, Self.limitRounds)
        for round in 1...rounds {
            FileHandle.standardError.write(Data("[bench] \(tag): round \(round) of \(rounds)\n".utf8))
            // Alternate the order, so none always runs on a warmer (or busier) machine.
            let order = round.isMultiple(of: 2) ? ["cli", "limit", "memory", "inproc"] : ["inproc", "memory", "limit", "cli"]
            // Past the configured rounds, only the limit and the recorder from memory.
            for kind in order where round <= configuration.rounds || kind == "limit" || kind == "memory" {
                if kind == "limit" {
                    limit.append(try child(executable, ["limit", "--index", index]))
                } else if kind == "memory" {
                    fromMemory.append(
                        try child(executable, ["inproc", "--index", index, "--out", "\(work)/memory-\(tag).mp4", "--preload", "1"]))
                } else if kind == "inproc" {
                    inProcess.append(try child(executable, ["inproc", "--index", index, "--out", vfrPath]))
                } else {
                    cli.append(
                        try child(
                            executable,
                            [
                                "cli", "--index", index, "--out", cliPath, "--ffmpeg", ffmpeg,
                                "--fps", String(Self.cliRate),
                            ]))
                }
            }
        }
        FileHandle.standardError.write(Data("[bench] \(tag): reference runs\n".utf8))
        let tunedPath = "\(work)/cli-tuned-\(tag).mp4"
        let cliTuned = try child(
            executable,
            [
                "cli", "--index", index, "--out", tunedPath, "--ffmpeg", ffmpeg,
                "--fps", String(Self.cliRate), "--extra", Self.recorderLikeCLIOptions,
            ])
        let fullQueue = try child(
            executable,
            [
                "inproc", "--index", index, "--out", "\(work)/inprocess-full-\(tag).mp4",
                "--fill-queue", "1",
            ])
        let cfrPath = "\(work)/cfr\(Self.cfrRate)-\(tag).mp4"
        let cfr = try child(executable, ["cfr", "--index", index, "--out", cfrPath, "--fps", String(Self.cfrRate)])

        return SizeResult(
            profile: profile, frames: frames, render: render, feed: feed, inProcess: inProcess, fromMemory: fromMemory, cli: cli,
            limit: limit,
            cliTuned: cliTuned, fullQueue: fullQueue, cfr: cfr,
            vfrProbe: try MediaProbe.probe(URL(fileURLWithPath: vfrPath)),
            cliProbe: try MediaProbe.probe(URL(fileURLWithPath: cliPath)),
            cfrProbe: try MediaProbe.probe(URL(fileURLWithPath: cfrPath)))
    }

    private func child(_ executable: String, _ arguments: [String]) throws -> ScenarioResult {
        let process = try SpawnedProcess.spawn(executable, ["--scenario"] + arguments, pipeStdout: true)
        let output = process.readAllStdout()
        let status = process.wait()
        guard status == 0 else { throw BenchmarkError("scenario '\(arguments.joined(separator: " "))' failed with status \(status)") }
        guard let line = String(decoding: output, as: UTF8.self).split(separator: "\n").last else {
            throw BenchmarkError("scenario '\(arguments[0])' printed nothing")
        }
        return try JSONDecoder().decode(ScenarioResult.self, from: Data(line.utf8))
    }

    // MARK: - Output

    private func printTables(_ results: [SizeResult]) {
        print("Render cost (WindowScene.render with Cairo, one thread; not part of the encoder figures below)")
        print(row(["size", "renders", "changed", "ms/frame", "frames/s"], [11, 8, 8, 9, 9]))
        for r in results {
            let rendered = r.render.framesRendered ?? 0
            let ms = (r.render.renderCPUSeconds ?? 0) * 1000 / Double(max(1, rendered))
            print(row([r.size, "\(rendered)", "\(r.frames.count)", f(ms, 2), f(1000 / ms, 0)], [11, 8, 8, 9, 9]))
        }

        print("")
        print("Throughput: the same \(results.first?.frames.count ?? 0) changed frames per size; wall = open encoder .. file complete")
        print("(CLI: spawn ffmpeg, pipe writes, ffmpeg exit); CPU = user+sys of the benchmark child and of ffmpeg")
        let widths = [11, 31, 7, 8, 9, 7, 9, 9]
        print(row(["size", "encoder", "frames", "wall s", "frames/s", "CPU s", "CPU ms/f", "file KiB"], widths))
        for r in results {
            let lines: [(String, ScenarioResult)] = [
                ("in-process FrameQueueRecorder", r.bestInProcess),
                ("ffmpeg CLI, raw BGRA pipe", r.bestCLI),
                ("  (ref) CLI tuned like recorder", r.cliTuned),
            ]
            for (index, (name, s)) in lines.enumerated() {
                print(
                    row(
                        [
                            index == 0 ? r.size : "", name, "\(s.framesEncoded)", f(s.wallSeconds, 2),
                            f(Double(s.framesIn) / s.wallSeconds, 1), f(s.cpuSeconds, 2),
                            f(s.cpuSeconds * 1000 / Double(s.framesIn), 1), f(Double(s.fileBytes) / 1024, 0),
                        ], widths))
            }
            let allIn = r.inProcess.map { f($0.wallSeconds, 2) }.joined(separator: ", ")
            let allCLI = r.cli.map { f($0.wallSeconds, 2) }.joined(separator: ", ")
            print(
                String(
                    format: "%11@  in-process/CLI: %.2fx throughput, %.2fx CPU per frame (walls: in-process %@ s; CLI %@ s)",
                    "", r.ratio, r.bestInProcess.cpuSeconds / r.bestCLI.cpuSeconds, allIn, allCLI))
        }
        print("  in-process: default RecordingOptions (.mp4, fragmented, keyframe every 1 s, x264 tune zerolatency = sliced threads,")
        print(
            "  BT.601 through libyuv), frames submitted with their VFR timestamps. CLI (the headline comparison), frames at a nominal \(Self.cliRate) fps:"
        )
        print(
            "  ffmpeg \(Scenario.ffmpegArguments(frames: results.first?.frames ?? FrameSet(width: 0, height: 0, rawPath: "", times: [], stop: 0, idle: [], areas: []), fps: Self.cliRate, output: "out.mp4", extra: []).joined(separator: " ").replacingOccurrences(of: "-s \(results.first?.size ?? "")", with: "-s WxH"))"
        )
        print("  The reference row adds \(Self.recorderLikeCLIOptions) (the recorder's x264 tuning and swscale")
        print("  input path). Files differ in size mainly by the recorder's 1 s keyframe interval (the CLI keeps x264's 250).")

        print("")
        printLimit(results)

        print("")
        print(
            "Frames per recorded second: our VFR recorder vs a constant \(Self.cfrRate) fps recorder (same in-process encoder, every 1/\(Self.cfrRate) s tick)"
        )
        let vw = [11, 8, 11, 8, 11, 8, 8, 8, 8]
        print(row(["size", "span s", "VFR frames", "per s", "CFR frames", "per s", "saved", "CPU VFR", "CPU CFR"], vw))
        for r in results {
            let vfr = r.vfrProbe.frameCount, cfr = r.cfrProbe.frameCount
            print(
                row(
                    [
                        r.size, f(r.span, 2), "\(vfr)", f(Double(vfr) / r.span, 2), "\(cfr)", f(Double(cfr) / r.span, 2),
                        String(format: "%.0f%%", 100 * (1 - Double(vfr) / Double(max(1, cfr)))),
                        f(r.bestInProcess.cpuSeconds, 2) + "s", f(r.cfr.cpuSeconds, 2) + "s",
                    ], vw))
        }
        print("  (frame counts read back from the files with MediaProbe; the animations run at 60 Hz, so VFR encodes more")
        print("   frames than CFR while they play and none while the screen is idle)")

        print("")
        print("Peak memory (max RSS of each scenario's own child process, MiB)")
        let mw = [11, 12, 10, 14, 12, 12, 12]
        print(row(["size", "in-process", "feed only", "recorder adds", "queue full", "CLI: bench", "CLI: ffmpeg"], mw))
        for r in results {
            let inRSS = mib(r.inProcess.map(\.own.maxRSSKiB).max()!)
            let feedRSS = mib(r.feed.own.maxRSSKiB)
            print(
                row(
                    [
                        r.size, f(inRSS, 1), f(feedRSS, 1), f(inRSS - feedRSS, 1), f(mib(r.fullQueue.own.maxRSSKiB), 1),
                        f(mib(r.cli.map(\.own.maxRSSKiB).max()!), 1), f(mib(r.cli.compactMap { $0.children?.maxRSSKiB }.max() ?? 0), 1),
                    ], mw))
        }
        let frameMiB = results.map { String(format: "%.1f MiB at %@", Double($0.frames.frameBytes) / 1_048_576, $0.size) }.joined(
            separator: ", ")
        print("  in-process = the whole child: binary and libraries, \(Scenario.inFlightFrames) BGRA frames in flight (one queued, one")
        print("  encoding, one being loaded; a frame is \(frameMiB)), the encoder, swscale, the muxer.")
        print("  feed only = the same child loading the same frames into the same buffers, no recorder: 'recorder adds' is")
        print("  the recorder's own share. queue full = the producer keeps the recorder's queue full (an encoder that fell")
        print(
            "  behind; its byte budget allows "
                + results.map { "\(($0.fullQueue.inFlight ?? 2) - 2) queued frames at \($0.size)" }.joined(separator: ", ") + "),")
        print("  the recorder's worst case. CLI columns: the benchmark child writing to the pipe (one frame buffer), and ffmpeg.")

        print("")
        print("Idle check (MediaProbe on the in-process VFR file)")
        for r in results {
            print(
                String(
                    format:
                        "  %@: %d frames in the file for %d changed frames; duration %.3f s for a %.3f s span; %d frames inside %d idle stretches (%.1f s); CFR: %d",
                    r.size, r.vfrProbe.frameCount, r.frames.count, r.vfrProbe.duration, r.span, r.framesInsideIdle,
                    r.frames.idle.count, r.idleSeconds, r.cfrProbe.frameCount))
            if r.cliProbe.frameCount != r.frames.count {
                print("  warning: the CLI's file has \(r.cliProbe.frameCount) frames, expected \(r.frames.count)")
            }
            let dropped = r.inProcess.map(\.framesDropped).max() ?? 0
            if dropped > 0 { print("  warning: the in-process recorder dropped \(dropped) frames") }
        }
    }

    /// The recorder against libx264 alone, and where the rest of its time goes.
    private func printLimit(_ results: [SizeResult]) {
        print("The limit: libx264 through libavcodec alone (the recorder's settings and timestamps) on the same frames")
        print("already converted to YUV; no conversion, no muxing, no I/O. The recorder against it is fed from memory (every")
        print("frame read before the clock starts, handed over with the areas the device says changed, as a device does).")
        print("Milliseconds per frame, fastest round of each:")
        let widths = [11, 9, 9, 10, 12, 10, 10, 11]
        print(row(["size", "libx264", "recorder", "of limit", "convert all", "the rest", "CPU x264", "CPU recorder"], widths))
        for r in results {
            let perFrame = { (seconds: Double) in seconds * 1000 / Double(r.frames.count) }
            let limit = perFrame(r.bestLimit.wallSeconds), recorder = perFrame(r.bestFromMemory.wallSeconds)
            let convert = perFrame(r.bestLimit.conversionSeconds ?? 0)
            print(
                row(
                    [
                        r.size, f(limit, 2), f(recorder, 2), String(format: "%.0f%%", r.limitFraction * 100), f(convert, 2),
                        f(recorder - limit, 2), f(perFrame(r.bestLimit.cpuSeconds), 2), f(perFrame(r.bestFromMemory.cpuSeconds), 2),
                    ], widths))
            BenchFigures.shared.record("recorder.limit_fraction_\(r.size)", r.limitFraction)
            BenchFigures.shared.record("recorder.limit_ms_per_frame_\(r.size)", limit)
            BenchFigures.shared.record("recorder.ms_per_frame_\(r.size)", recorder)
            BenchFigures.shared.record("recorder.conversion_ms_per_frame_\(r.size)", convert)
            BenchFigures.shared.record("recorder.load_copy_ms_per_frame_\(r.size)", perFrame(r.feed.wallSeconds))
        }
        print("  libx264 = open encoder .. last packet. recorder = FrameQueueRecorder, open .. file complete. convert all =")
        print("  libyuv BGRA -> I420 of whole frames (the recorder converts only the changed areas, on its encoding thread).")
        print("  the rest = recorder - libx264: conversion, muxing and writing each packet (fragmented mp4), queue hand-offs.")
        let loads = results.map { String(format: "%@ %.2f ms", $0.size, $0.feed.wallSeconds * 1000 / Double($0.frames.count)) }
        print("  The throughput table above streams frames from a file instead (load copy: \(loads.joined(separator: ", ")) a frame).")
    }

    private func printTargets(_ results: [SizeResult]) {
        print("")
        print("Targets")
        for r in results {
            print(
                targetLine(
                    r.limitFraction >= Self.limitTarget,
                    String(
                        format: "the recorder >= %.2f of libx264's own throughput at %@: %.2f (%.1f vs %.1f frames/s)", Self.limitTarget,
                        r.size, r.limitFraction, Double(r.frames.count) / r.bestFromMemory.wallSeconds,
                        Double(r.frames.count) / r.bestLimit.wallSeconds)))
        }
        for r in results {
            BenchFigures.shared.record("recorder.cli_ratio_\(r.size)", r.ratio)
            let pass = r.ratio >= Self.throughputTarget
            print(
                String(
                    format: "  %@  in-process >= %.2fx the ffmpeg CLI's throughput at %@: %.2fx (%.1f vs %.1f frames/s)",
                    pass ? "PASS" : "FAIL", Self.throughputTarget, r.size, r.ratio,
                    Double(r.frames.count) / r.bestInProcess.wallSeconds, Double(r.frames.count) / r.bestCLI.wallSeconds))
        }
        if let large = results.first(where: { $0.profile.name == Self.memoryTargetProfile }) {
            let peak = mib(large.inProcess.map(\.own.maxRSSKiB).max()!)
            let worst = mib(large.fullQueue.own.maxRSSKiB)
            BenchFigures.shared.record("memory.recorder_peak_mib_\(large.size)", peak)
            BenchFigures.shared.record("memory.recorder_queue_full_mib_\(large.size)", worst)
            print(
                String(
                    format: "  %@  peak memory <= %.0f MiB at %@: %.1f MiB (whole process, %d frames in flight included)",
                    peak <= Self.memoryTargetMiB ? "PASS" : "FAIL", Self.memoryTargetMiB, large.size, peak, Scenario.inFlightFrames))
            print(
                String(
                    format: "  %@  peak memory <= %.0f MiB at %@ with the queue full: %.1f MiB (%d frames in flight)",
                    worst <= Self.memoryTargetMiB ? "PASS" : "FAIL", Self.memoryTargetMiB, large.size, worst,
                    large.fullQueue.inFlight ?? 0))
        } else {
            print("  SKIP  peak memory at 1170x2532 (size not run)")
        }
        for r in results {
            BenchFigures.shared.record("idle.frames_inside_idle_\(r.size)", Double(r.framesInsideIdle))
            print(
                String(
                    format:
                        "  %@  an idle screen costs no frames at %@: %.1f s idle in %d stretches added %d frames (file: %d frames = %d changes)",
                    r.idleHolds ? "PASS" : "FAIL", r.size, r.idleSeconds, r.frames.idle.count, r.framesInsideIdle,
                    r.vfrProbe.frameCount, r.frames.count))
        }
    }

    private func row(_ cells: [String], _ widths: [Int]) -> String {
        var line = " "
        for (index, cell) in cells.enumerated() {
            let width = index < widths.count ? widths[index] : 10
            let padded =
                index == 0 || index == 1 && widths[1] > 20
                ? cell.padding(toLength: max(width, cell.count), withPad: " ", startingAt: 0)
                : String(repeating: " ", count: max(0, width - cell.count)) + cell
            line += " " + padded
        }
        return line
    }

    private func f(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
    private func mib(_ kib: Int) -> Double { Double(kib) / 1024 }

    // MARK: - Environment

    private func selfExecutable() throws -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if length > 0 { return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        let path = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        guard access(path, X_OK) == 0 else { throw BenchmarkError("cannot find my own executable to run scenarios") }
        return path
    }

    /// Raw frames of the large size take about 2.2 GB: RAM-backed /dev/shm when it has room.
    private func makeWorkDirectory() throws -> String {
        var candidates: [String] = []
        var stats = statvfs()
        if statvfs("/dev/shm", &stats) == 0, Double(stats.f_bavail) * Double(stats.f_frsize) > 4e9 { candidates.append("/dev/shm") }
        candidates.append(FileManager.default.temporaryDirectory.path)
        for base in candidates {
            let path = "\(base)/showreel-bench-\(getpid())"
            if (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil { return path }
        }
        throw BenchmarkError("cannot create a work folder in \(candidates.joined(separator: " or "))")
    }

    private func captureFirstLine(_ path: String, _ arguments: [String]) throws -> String {
        let process = try SpawnedProcess.spawn(path, arguments, pipeStdout: true, stderrToNull: true)
        let output = process.readAllStdout()
        _ = process.wait()
        return String(decoding: output, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    }
}
