import ArgumentParser
import Foundation

/// `showreel-bench`'s options (swift-argument-parser, as the CLI takes its own): which sections
/// run, how many rounds, and where the figures go as JSON.
struct ShowreelBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "showreel-bench",
        abstract: "Figures and targets: the recorder against libx264's own limit and the ffmpeg command line, suites, flows, matrix.")

    @Option(
        help:
            "Encode runs per encoder and size; the fastest counts (the UI suite runs 9 rounds at least, libx264's limit and the recorder fed from memory 5)."
    )
    var rounds = 3
    @Option(
        help: "Device profiles to record (780x1688 and 1170x2532 by default).", transform: { $0.split(separator: ",").map(String.init) })
    var sizes = ["phone", "phone-3x"]
    @Option(help: "Also write every figure as JSON (flat dotted keys, each a number) to this file.")
    var json: String?

    @Flag(help: "Only the encoders on the rendered frames: libx264's limit, the recorder, the ffmpeg CLI, memory.") var onlyRecorder = false
    @Flag(help: "Skip the display stream transport benchmark.") var skipDisplayStream = false
    @Flag(help: "Skip `showreel run` throughput (Fixtures/Flows, 2 workers against 1, and --scale 1).") var skipFlows = false
    @Flag(help: "Only `showreel run` throughput.") var onlyFlows = false
    @Flag(help: "Only the UI suite with and without recording (needs `swift build --build-tests`).") var onlyUiSuite = false
    @Flag(help: "Only what text shaping costs against the toy Cairo text path.") var onlyText = false
    @Flag(help: "Only what step traces add to `showreel run`, and `showreel diff` speed.") var onlyTraces = false
    @Flag(help: "Only `showreel webdriver`: a round trip, the pytest suite with and without recording.") var onlyWebdriver = false
    @Flag(help: "Skip that.") var skipWebdriver = false
    @Flag(help: "Only `showreel studio`: a frame's delay to the page, idle events and CPU (headless Chromium).") var onlyStudio = false
    @Flag(help: "Skip that.") var skipStudio = false
    @Flag(help: "Skip what chapters, subtitles and previews add to a flow video.") var skipSteps = false
    @Flag(help: "Only that.") var onlySteps = false
    @Flag(help: "Skip the 16-cell matrix against its cells made one at a time, and the App Store preview's cost.") var skipMatrix = false
    @Flag(help: "Only that.") var onlyMatrix = false
    @Flag(help: "Skip recording an X display (Xvfb; Showreel against ffmpeg's x11grab).") var skipX11 = false
    @Flag(help: "Only recording an X display.") var onlyX11 = false
    @Option(name: .customLong("x11-seconds"), help: "How long the mostly idle browser is recorded.") var x11Seconds = 60
    @Flag(help: "Keep the frames and videos in the work folder and print where.") var keep = false

    func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds needs a number >= 1") }
        guard x11Seconds >= 1 else { throw ValidationError("--x11-seconds needs a number >= 1") }
        guard !sizes.isEmpty else { throw ValidationError("--sizes needs a list of profiles") }
    }

    func run() throws {
        var configuration = BenchmarkRun.Configuration()
        configuration.rounds = rounds
        configuration.profiles = sizes
        configuration.displayStream = !skipDisplayStream
        configuration.flows = !skipFlows
        configuration.stepTracks = !skipSteps
        configuration.matrix = !skipMatrix
        configuration.x11 = !skipX11
        configuration.webDriver = !skipWebdriver
        configuration.studio = !skipStudio
        configuration.x11Seconds = x11Seconds
        configuration.keep = keep
        configuration.recorderOnly = onlyRecorder
        let run = BenchmarkRun(configuration: configuration)
        defer { writeFigures() }
        if onlyStudio {
            run.printStudio()
        } else if onlyWebdriver {
            run.printWebDriver()
        } else if onlyMatrix {
            run.printMatrix()
        } else if onlyText {
            run.printTextShaping()
        } else if onlySteps {
            run.printStepTracks()
        } else if onlyFlows {
            run.printFlows()
        } else if onlyTraces {
            run.printTraces()
        } else if onlyX11 {
            run.printX11()
        } else if onlyUiSuite {
            run.printUISuite()
        } else {
            try run.run()
        }
    }

    private func writeFigures() {
        guard let json else { return }
        do {
            try BenchFigures.shared.write(to: json)
            print("\nFigures written to \(json) (\(BenchFigures.shared.all.count) keys, each a number; a section not run writes none)")
        } catch {
            FileHandle.standardError.write(Data("showreel-bench: cannot write \(json): \(error)\n".utf8))
        }
    }
}
