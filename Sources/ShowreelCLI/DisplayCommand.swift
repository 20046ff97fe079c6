import ArgumentParser
import Foundation
import ShowreelWire
import ShowreelX11

#if canImport(Glibc)
import Glibc
#endif

/// `showreel display start|stop`: virtual X displays (Xvfb) to run and record GUI suites on,
/// registered like devices so `booted`, `io` and `device list` find them.
struct DisplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "display",
        abstract: "Start and stop virtual X displays (Xvfb) to run GUI and browser suites on and record.",
        subcommands: [Start.self, Stop.self])

    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Start Xvfb on a free display number (or the one given), print it (e.g. :99) and register it.",
            discussion: "The display runs on after this command exits: `showreel display stop` ends it. "
                + "Record it with `showreel io :99 recordVideo out.mp4` (or `booted` when it is the only one).")

        @Option(help: "The screen size in pixels, WIDTHxHEIGHT.")
        var size = "1280x800"

        @Option(help: "Bits per pixel: 24 or 32.")
        var depth = 24

        @Option(help: "The display number to take, as DISPLAY writes it (:99); the first free one when left out.")
        var display: String?

        func validate() throws {
            if let display, Self.number(display) == nil {
                throw ValidationError("--display '\(display)' is not a display number: write it as DISPLAY does, e.g. :99")
            }
        }

        /// `:99` or `99` as 99.
        static func number(_ display: String) -> Int? {
            Int(display.hasPrefix(":") ? String(display.dropFirst()) : display).flatMap { $0 >= 0 ? $0 : nil }
        }

        func run() async throws {
            try await reportingFailures {
                let parts = size.lowercased().split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2 else {
                    throw CLIFailure(message: "--size '\(size)' is not WIDTHxHEIGHT, e.g. 1280x800.", exitCode: CLIFailure.Code.usage)
                }
                let registry = DeviceRegistry()
                let udid = UUID().uuidString
                let folder = registry.directory(for: udid)
                try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let server: XvfbServer
                do {
                    server = try XvfbServer.start(
                        width: parts[0], height: parts[1], depth: depth, number: display.flatMap(Self.number),
                        log: folder.appendingPathComponent("xvfb.log"))
                } catch let error as XvfbServer.StartError {
                    registry.remove(udid: udid)
                    if case .badScreen = error { throw CLIFailure(message: error.description, exitCode: CLIFailure.Code.usage) }
                    throw CLIFailure(message: error.description, exitCode: 1)
                }
                let record = DeviceRecord(
                    udid: udid, name: server.display, profile: "display \(parts[0])x\(parts[1])x\(depth)",
                    state: .booted, clock: .real, pid: server.pid,
                    processStartTime: ProcessStat.read(server.pid)?.startTicks,
                    displaySocket: "", automationURL: nil, bootedAt: Date(), x11Display: server.display)
                do { try registry.save(record) } catch {
                    server.stop()
                    registry.remove(udid: udid)
                    throw CLIFailure(
                        message: "Cannot register the display in \(registry.devicesDirectory.path): \(error.localizedDescription)",
                        exitCode: CLIFailure.Code.unwritable)
                }
                Console.out(server.display)
                Console.status(
                    "Started Xvfb on \(server.display) (\(parts[0])x\(parts[1])x\(depth), pid \(server.pid)). "
                        + "Run your suite with DISPLAY=\(server.display); stop it with `showreel display stop \(server.display)`.")
            }
        }
    }

    struct Stop: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop a display started with `showreel display start`, with everything in its process group.",
            discussion: "Programs still drawing on it lose their display; recorders finalise their files.")

        @Argument(help: "The display (:99), its udid, `booted`, or `all` (the default).")
        var display = "all"

        func run() async throws {
            try await reportingFailures {
                let registry = DeviceRegistry()
                let displays = registry.records().filter { $0.x11Display != nil }
                let targets: [DeviceRecord]
                if display == "all" {
                    targets = displays
                } else {
                    let record = try resolveDevice(display)
                    guard record.x11Display != nil else {
                        throw CLIFailure(
                            message: "\(display) is a device, not a display: stop it with `showreel device shutdown \(display)`.",
                            exitCode: CLIFailure.Code.usage)
                    }
                    targets = [record]
                }
                if targets.isEmpty { Console.status("No displays. Start one with `showreel display start`.") }
                for record in targets {
                    if record.state == .booted { XvfbServer(display: record.name, pid: record.pid).stop() }
                    registry.remove(udid: record.udid)
                    Console.status("Stopped \(record.name)")
                }
            }
        }
    }
}
