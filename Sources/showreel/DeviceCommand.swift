import ArgumentParser
import Foundation
import ShowcaseApps
import ShowreelDevice
import ShowreelRender
import ShowreelUI
import ShowreelWire
#if canImport(Glibc)
import Glibc
#endif

/// `showreel device ...`: boot, list and shut down devices, like `simctl boot/list/shutdown`.
struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Boot, list and shut down devices.",
        subcommands: [Boot.self, List.self, Shutdown.self])

    struct Boot: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Boot a device and keep it running until SIGINT or SIGTERM.",
            discussion: "The device registers under $SHOWREEL_HOME (default ~/.showreel); recorders find it as `booted`.")

        @Option(help: "Screen profile: \(DeviceProfile.all.map(\.name).joined(separator: ", ")).")
        var profile = DeviceProfile.phone.name

        @Option(help: "The device's name.")
        var name = "Showreel Phone"

        @Option(help: "real (wall time) or virtual (time moves only when automation waits).")
        var clock: DeviceClock.Kind = .real

        @Option(help: "Bundle identifier of an app to launch once booted, e.g. \(HelloApp.bundleIdentifier).")
        var launch: String?

        @Argument(parsing: .postTerminator, help: "Launch arguments for the app, after --.")
        var launchArguments: [String] = []

        func run() async throws {
            try await reportingFailures {
                guard let screen = DeviceProfile.named(profile) else {
                    throw CLIFailure(message: "Unknown profile '\(profile)'. Choose one of: \(DeviceProfile.all.map(\.name).joined(separator: ", ")).",
                                     exitCode: CLIFailure.Code.usage)
                }
                let device = try Device(name: name, profile: screen, clock: clock, apps: ShowcaseCatalog.apps)
                if let launch {
                    try await device.launch(launch, context: LaunchContext(arguments: launchArguments))
                }
                Console.out(device.udid)
                Console.status("Booted \(name) (\(device.udid)); \(screen.pixelWidth)x\(screen.pixelHeight) \(clock.rawValue) clock. Stop with Ctrl-C.")
                await waitForTerminationSignal()
                await device.shutdown()
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List devices: udid, name, profile, state.")

        func run() async throws {
            let records = DeviceRegistry().records()
            if records.isEmpty { Console.status("No devices. Boot one with `showreel device boot`."); return }
            for record in records {
                Console.out("\(record.udid)  \(record.name)  \(record.profile)  \(record.state.rawValue)")
            }
        }
    }

    struct Shutdown: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Shut down a device (udid, name, booted or all).")

        @Argument(help: "udid, name, `booted`, or `all`.")
        var device: String

        func run() async throws {
            try await reportingFailures {
                let registry = DeviceRegistry()
                let targets = device == "all" ? registry.records().filter { $0.state == .booted } : [try resolveDevice(device)]
                for record in targets {
                    kill(record.pid, SIGTERM)
                    let deadline = ContinuousClock.now + .seconds(10)
                    while DeviceRegistry.isAlive(pid: record.pid, startTime: record.processStartTime),
                          (try? registry.resolve(record.udid)) != nil, ContinuousClock.now < deadline {
                        try await Task.sleep(for: .milliseconds(50))
                    }
                    Console.status("Shut down \(record.name) (\(record.udid))")
                }
            }
        }
    }
}

extension DeviceClock.Kind: ExpressibleByArgument {}

/// Suspends until the process gets SIGINT or SIGTERM.
func waitForTerminationSignal() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let once = OnceFlag()
        let trap = SignalTrap { _ in if once.claim() { continuation.resume() } }
        once.keepAlive(trap)
    }
}

/// True for the first caller only; holds what must live as long as the wait.
final class OnceFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false
    private var retained: [AnyObject] = []
    func claim() -> Bool { lock.withLock { defer { claimed = true }; return !claimed } }
    func keepAlive(_ object: AnyObject) { lock.withLock { retained.append(object) } }
}
