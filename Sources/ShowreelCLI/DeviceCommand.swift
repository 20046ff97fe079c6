import ArgumentParser
import Foundation
import ShowreelDevice
import ShowreelRender
import ShowreelTesting
import ShowreelTrace
import ShowreelUI
import ShowreelWire

#if canImport(Glibc)
import Glibc
#endif

/// `showreel device ...`: boot, list and shut down devices, like `simctl boot/list/shutdown`.
struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Boot, list, shut down and erase devices; launch and terminate apps; override the status bar.",
        subcommands: [Boot.self, List.self, Shutdown.self, Erase.self, Launch.self, Terminate.self, StatusBar.self, UI.self]
            + systemCommands)

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

        @Flag(help: "Draw a circle where taps and drags touch the screen (for demo recordings).")
        var showTouches = false

        @Option(help: "light or dark, for every app and the system screens.")
        var appearance: InterfaceStyle = .light

        @Option(help: "The device's language (repeat for more, most preferred first): what apps use when launched without -AppleLanguages.")
        var language: [String] = []

        @Option(help: "portrait, landscape-left or landscape-right: how the device is held from boot (recordings are landscape).")
        var orientation = "portrait"

        @Option(help: "Port for the automation API on 127.0.0.1 (0 picks a free one; the registry records it).")
        var port = 0

        @Option(help: "Bundle identifier of an app to launch once booted, e.g. \(ShowreelConfiguration.current.exampleApp).")
        var launch: String?

        @Argument(parsing: .postTerminator, help: "Launch arguments for the app, after --.")
        var launchArguments: [String] = []

        func run() async throws {
            try await reportingFailures {
                guard let screen = DeviceProfile.named(profile) else {
                    throw CLIFailure(
                        message: "Unknown profile '\(profile)'. Choose one of: \(DeviceProfile.all.map(\.name).joined(separator: ", ")).",
                        exitCode: CLIFailure.Code.usage)
                }
                let held = try UI.orientation(orientation)
                let device = try Device(
                    name: name, profile: screen, clock: clock, apps: ShowreelConfiguration.current.apps,
                    showsTouches: showTouches, interfaceStyle: appearance, languages: language, orientation: held)
                let listening = AsyncStream<Int>.makeStream()
                let server = Task {
                    defer { listening.continuation.finish() }
                    try await AutomationServer(device: device, port: port, traceExporter: TraceExport.exporter).run {
                        listening.continuation.yield($0)
                    }
                }
                let url: String
                do {
                    // A boot that fails leaves nothing behind: no "Booted" record without an API.
                    guard let bound = await listening.stream.first(where: { _ in true }) else {
                        if case let .failure(error) = await server.result { throw error }
                        throw CLIFailure(message: "The automation API stopped before it listened on port \(port).", exitCode: 1)
                    }
                    url = "http://127.0.0.1:\(bound)"
                    try await device.publishAutomationURL(url)
                    if let launch {
                        try await device.launch(launch, context: LaunchContext(arguments: launchArguments))
                    }
                } catch {
                    // The server is stopped and gone before the process exits: no thread of its
                    // is still at work while exit runs.
                    server.cancel()
                    _ = await server.result
                    await device.shutdown()
                    device.registry.remove(udid: device.udid)
                    if let failure = error as? CLIFailure { throw failure }
                    throw CLIFailure(message: "Could not boot \(name): \(ErrorSentence.describe(error))", exitCode: 1)
                }
                Console.out(device.udid)
                Console.status(
                    "Booted \(name) (\(device.udid)): \(screen.oriented(held).pixelWidth)x\(screen.oriented(held).pixelHeight), \(clock.rawValue) clock, automation API at \(url). Stop with Ctrl-C."
                )
                await waitForTerminationSignal()
                await device.shutdown()
                server.cancel()
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List devices: udid, name, profile, state, installed apps.")

        func run() async throws {
            let records = DeviceRegistry().records()
            if records.isEmpty {
                Console.status("No devices. Boot one with `\(ShowreelConfiguration.current.commandName) device boot`.")
                return
            }
            for record in records {
                let apps = record.installedApps.map { "  \($0.joined(separator: ","))" } ?? ""
                Console.out("\(record.udid)  \(record.name)  \(record.profile)  \(record.state.rawValue)\(apps)")
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
                        (try? registry.resolve(record.udid)) != nil, ContinuousClock.now < deadline
                    {
                        try await Task.sleep(for: .milliseconds(50))
                    }
                    Console.status("Shut down \(record.name) (\(record.udid))")
                }
            }
        }
    }

    struct Erase: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Wipe a shut-down device's app data containers (udid, name or all).")

        @Argument(help: "udid, name, or `all` (shut-down devices only, as simctl erase).")
        var device: String

        func run() async throws {
            try await reportingFailures {
                let registry = DeviceRegistry()
                let records = registry.records().filter { device == "all" || $0.udid == device || $0.name == device }
                guard !records.isEmpty else {
                    throw CLIFailure(
                        message: "No device '\(device)'. `showreel device list` shows the devices.",
                        exitCode: CLIFailure.Code.deviceNotFound)
                }
                for record in records {
                    guard record.state == .shutdown else {
                        throw CLIFailure(
                            message:
                                "\(record.name) (\(record.udid)) is booted; shut it down first (`showreel device shutdown \(record.udid)`).",
                            exitCode: CLIFailure.Code.usage)
                    }
                    try? FileManager.default.removeItem(at: registry.directory(for: record.udid).appendingPathComponent("data"))
                    Console.status("Erased \(record.name) (\(record.udid))")
                }
            }
        }
    }

    struct Launch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Launch an app on a booted device, like `simctl launch`.")

        @OptionGroup var app: AppOnDevice
        @Argument(parsing: .postTerminator, help: "Launch arguments, after --.")
        var arguments: [String] = []

        func run() async throws {
            try await reportingFailures {
                let status = try await automation(app.device) { try await $0.launch(app.bundleIdentifier, arguments: arguments) }
                Console.out("\(app.bundleIdentifier): \(status.state.rawValue)")
            }
        }
    }

    struct Terminate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Terminate an app on a booted device, like `simctl terminate`.")

        @OptionGroup var app: AppOnDevice

        func run() async throws {
            try await reportingFailures {
                _ = try await automation(app.device) { try await $0.terminate(app.bundleIdentifier) }
            }
        }
    }

    struct StatusBar: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status_bar", abstract: "Override the status bar for clean demo frames, like `simctl status_bar`.",
            usage:
                "showreel device status_bar <device> override [--time 9:41] [--battery-level 100] ...\nshowreel device status_bar <device> clear"
        )

        @Argument(help: "udid, name, or `booted`.")
        var device: String
        @Argument(help: "override or clear.")
        var action: String
        @Option var time: String?
        @Option(help: "hide, wifi, 3g, 4g, lte, 5g") var dataNetwork: StatusBarValues.DataNetwork?
        @Option var wifiBars: Int?
        @Option var cellularBars: Int?
        @Option var operatorName: String?
        @Option(help: "charging, charged, discharging") var batteryState: StatusBarValues.BatteryState?
        @Option var batteryLevel: Int?

        func run() async throws {
            try await reportingFailures {
                switch action {
                case "override":
                    let values = StatusBarOverride(
                        time: time, dataNetwork: dataNetwork, wifiBars: wifiBars, cellularBars: cellularBars,
                        operatorName: operatorName, batteryState: batteryState, batteryLevel: batteryLevel)
                    _ = try await automation(device) { try await $0.perform(.overrideStatusBar(values)) }
                case "clear":
                    _ = try await automation(device) { try await $0.perform(.clearStatusBar) }
                default:
                    throw CLIFailure(
                        message: "Unknown status_bar action '\(action)'. Use override or clear.", exitCode: CLIFailure.Code.usage)
                }
            }
        }
    }
}

extension DeviceCommand {
    /// `showreel device ui booted appearance dark`, as `simctl ui <device> appearance dark`, and
    /// `ui booted orientation landscape-left` beside it.
    struct UI: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ui", abstract: "Switch a running device to light or dark appearance, or turn it, like `simctl ui`.",
            usage: """
                showreel device ui <device> appearance light|dark
                showreel device ui <device> orientation [portrait|landscape-left|landscape-right]
                """)

        @Argument(help: "udid, name, or `booted`.")
        var device: String
        @Argument(help: "appearance or orientation")
        var setting: String
        @Argument(help: "light or dark; portrait, landscape-left or landscape-right (none prints the orientation)")
        var value: String?

        func run() async throws {
            try await reportingFailures {
                switch setting {
                case "appearance":
                    guard let value, let style = InterfaceStyle(rawValue: value) else {
                        throw CLIFailure(
                            message: "Unknown appearance '\(value ?? "")'. Use light or dark.", exitCode: CLIFailure.Code.usage)
                    }
                    _ = try await automation(device) { try await $0.perform(.setInterfaceStyle(style)) }
                case "orientation":
                    guard let value else {
                        let held = try await automation(device) { try await $0.orientation() }
                        Console.out(held.orientation.argument)
                        return
                    }
                    _ = try await automation(device) { try await $0.perform(.setOrientation(try Self.orientation(value))) }
                default:
                    throw CLIFailure(
                        message: "Unknown ui setting '\(setting)'. Use: showreel device ui <device> appearance light|dark, "
                            + "or orientation portrait|landscape-left|landscape-right.",
                        exitCode: CLIFailure.Code.usage)
                }
            }
        }

        /// The orientation `value` names (portrait, landscape-left, landscape-right).
        static func orientation(_ value: String) throws -> DeviceOrientation {
            let names = DeviceOrientation.allCases.map(\.argument)
            guard let orientation = DeviceOrientation(spelling: value) else {
                let upsideDown = value.lowercased().contains("upside")
                throw CLIFailure(
                    message: "Unknown orientation '\(value)'\(upsideDown ? "" : Spelling.hint(for: value, in: names)). "
                        + "Use \(names.joined(separator: ", "))."
                        + (upsideDown ? " Upside down is not supported: phones do not show apps that way." : ""),
                    exitCode: CLIFailure.Code.usage)
            }
            return orientation
        }
    }
}

extension InterfaceStyle: ExpressibleByArgument {}

/// The arguments `launch` and `terminate` share: which device, which app.
struct AppOnDevice: ParsableArguments {
    @Argument(help: "udid, name, or `booted`.")
    var device: String
    @Argument(help: "The app's bundle identifier.")
    var bundleIdentifier: String
}

/// Runs one automation call against a registered device, turning failures into CLI errors.
func automation<T>(_ device: String, _ call: (DeviceClient) async throws -> T) async throws -> T {
    let client: DeviceClient
    do { client = try DeviceClient.named(device) } catch let error as DeviceLookupError {
        throw CLIFailure(message: error.description, exitCode: CLIFailure.Code.deviceNotFound)
    }
    do { return try await call(client) } catch let failure as DeviceClient.Failure {
        throw CLIFailure(message: failure.message, exitCode: 1)
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
    func claim() -> Bool {
        lock.withLock {
            defer { claimed = true }; return !claimed
        }
    }
    func keepAlive(_ object: AnyObject) { lock.withLock { retained.append(object) } }
}

extension StatusBarValues.DataNetwork: ExpressibleByArgument {}
extension StatusBarValues.BatteryState: ExpressibleByArgument {}

/// Runs a server until SIGINT or SIGTERM cancels it; returns how it ended (a cancellation is
/// the signal, not a failure). After the signal the server has `grace` to close its
/// connections: a client that holds one open must not keep a stopped server alive, so past it
/// the command goes on to end its sessions and exit, and says so.
func serveUntilTerminated(
    grace: Duration = .seconds(20), _ serve: @escaping @Sendable () async throws -> Void
) async -> Result<Void, any Error> {
    let serving = Task { try await serve() }
    let (ends, end) = AsyncStream<Result<Void, any Error>>.makeStream()
    let finished = Task { end.yield(await serving.result) }
    let stop = Task {
        await waitForTerminationSignal()
        serving.cancel()
        do { try await Task.sleep(for: grace) } catch { return }
        Console.warning("the server still had connections open \(grace) after the stop signal; stopping without them")
        end.yield(.success(()))
    }
    var first = ends.makeAsyncIterator()
    let result = await first.next() ?? .success(())
    stop.cancel()
    finished.cancel()
    if case let .failure(error) = result, error is CancellationError { return .success(()) }
    return result
}
