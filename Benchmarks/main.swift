import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#endif

// showreel-bench: the recorder against libx264's own limit and the ffmpeg command line, VFR
// against constant rate, peak memory, the display stream, suites and flows. Child modes
// (hidden, the parent's protocol with its children, not options): `--scenario NAME ...` runs one
// measured scenario and prints its figures as JSON; `--display-subscriber SOCKET COUNT`;
// `--device-recorders WORK_DIR`. Everything else is `ShowreelBench`'s options.

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
default:
    ShowreelBench.main()
}
