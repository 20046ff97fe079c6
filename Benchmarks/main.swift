import Foundation

#if canImport(Glibc)
import Glibc
#endif

// showreel-bench: the recorder against the ffmpeg command line, VFR against constant rate,
// peak memory, and the display stream. Child modes (hidden): `--scenario NAME ...` runs one
// measured scenario and prints its figures as JSON; `--display-subscriber SOCKET COUNT`.

let arguments = Array(CommandLine.arguments.dropFirst())

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("showreel-bench: \(message)\n".utf8))
    exit(code)
}

switch arguments.first {
case "--scenario":
    do { try Scenario.run(Array(arguments.dropFirst())) } catch { fail("scenario \(arguments.dropFirst().first ?? ""): \(error)", code: 1) }
case "--display-subscriber":
    guard arguments.count == 3, let count = Int(arguments[2]) else { fail("usage: --display-subscriber SOCKET COUNT", code: 64) }
    do { try DisplayStreamBenchmark.subscribe(socketPath: arguments[1], count: count) } catch { fail("\(error)", code: 1) }
case "--device-recorders":
    guard arguments.count == 2 else { fail("usage: --device-recorders WORK_DIR", code: 64) }
    do { try DeviceMemoryBenchmark.child(work: arguments[1]) } catch { fail("\(error)", code: 1) }
case "-h", "--help":
    print(
        """
        usage: showreel-bench [--rounds N] [--sizes phone,phone-3x] [--skip-display-stream] [--skip-flows] [--only-flows] [--only-ui-suite] [--only-traces] [--only-webdriver] [--skip-webdriver] [--only-studio] [--skip-studio] [--only-text] [--skip-matrix] [--only-matrix] [--skip-steps] [--only-steps] [--skip-x11] [--only-x11] [--x11-seconds N] [--keep]
          --rounds N             encode runs per encoder and size; the fastest counts (default 3; the UI suite runs 9 rounds at least)
          --sizes LIST           device profiles to record (default phone,phone-3x: 780x1688 and 1170x2532)
          --skip-display-stream  skip the display stream transport benchmark
          --skip-flows           skip `showreel run` throughput (Fixtures/Flows, workers 2 against 1)
          --only-flows           only `showreel run` throughput
          --only-ui-suite        only the UI suite with and without recording (needs `swift build --build-tests`)
          --only-text            only what text shaping costs against the toy Cairo text path
          --only-traces          only what step traces add to `showreel run`, and `showreel diff` speed
          --only-studio          only `showreel studio`: frame delay to the page, idle events and CPU
          --only-webdriver       only `showreel webdriver`: a round trip against the Swift client, the pytest suite with and without recording
          --skip-webdriver       skip that
          --skip-steps           skip what chapters, subtitles and previews add to a flow video
          --only-steps           only that
          --skip-matrix          skip the 16-cell matrix run against the single cell, and the App Store preview's cost
          --only-matrix          only that
          --skip-x11             skip recording an X display (Xvfb; Showreel against ffmpeg's x11grab)
          --only-x11             only recording an X display
          --x11-seconds N        how long the mostly idle browser is recorded (default 60)
          --keep                 keep the frames and videos in the work folder and print where
        """)
default:
    var configuration = BenchmarkRun.Configuration()
    var onlyFlows = false
    var onlyUISuite = false
    var onlyX11 = false
    var onlyTraces = false
    var onlyText = false
    var onlySteps = false
    var onlyWebDriver = false
    var onlyStudio = false
    var onlyMatrix = false
    var index = 0
    while index < arguments.count {
        switch arguments[index] {
        case "--rounds":
            index += 1
            guard index < arguments.count, let rounds = Int(arguments[index]), rounds >= 1 else {
                fail("--rounds needs a number >= 1", code: 64)
            }
            configuration.rounds = rounds
        case "--sizes":
            index += 1
            guard index < arguments.count else { fail("--sizes needs a list of profiles", code: 64) }
            configuration.profiles = arguments[index].split(separator: ",").map(String.init)
        case "--skip-display-stream": configuration.displayStream = false
        case "--skip-flows": configuration.flows = false
        case "--only-flows": onlyFlows = true
        case "--only-ui-suite": onlyUISuite = true
        case "--skip-steps": configuration.stepTracks = false
        case "--only-steps": onlySteps = true
        case "--skip-matrix": configuration.matrix = false
        case "--only-matrix": onlyMatrix = true
        case "--skip-x11": configuration.x11 = false
        case "--only-x11": onlyX11 = true
        case "--only-traces": onlyTraces = true
        case "--only-webdriver": onlyWebDriver = true
        case "--skip-webdriver": configuration.webDriver = false
        case "--only-studio": onlyStudio = true
        case "--skip-studio": configuration.studio = false
        case "--only-text": onlyText = true
        case "--x11-seconds":
            index += 1
            guard index < arguments.count, let seconds = Int(arguments[index]), seconds >= 1 else {
                fail("--x11-seconds needs a number >= 1", code: 64)
            }
            configuration.x11Seconds = seconds
        case "--keep": configuration.keep = true
        default: fail("unknown argument \(arguments[index]) (see --help)", code: 64)
        }
        index += 1
    }
    do {
        if onlyStudio {
            BenchmarkRun(configuration: configuration).printStudio()
        } else if onlyWebDriver {
            BenchmarkRun(configuration: configuration).printWebDriver()
        } else if onlyMatrix {
            BenchmarkRun(configuration: configuration).printMatrix()
        } else if onlyText {
            BenchmarkRun(configuration: configuration).printTextShaping()
        } else if onlySteps {
            BenchmarkRun(configuration: configuration).printStepTracks()
        } else if onlyFlows {
            BenchmarkRun(configuration: configuration).printFlows()
        } else if onlyTraces {
            BenchmarkRun(configuration: configuration).printTraces()
        } else if onlyX11 {
            BenchmarkRun(configuration: configuration).printX11()
        } else if onlyUISuite {
            for line in try UISuiteBenchmark.run(rounds: configuration.rounds) { print(line) }
        } else {
            try BenchmarkRun(configuration: configuration).run()
        }
    } catch {
        fail("\(error)", code: 1)
    }
}
