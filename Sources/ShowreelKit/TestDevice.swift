import Foundation
import ShowcaseApps
import ShowreelDevice
import ShowreelTesting
import ShowreelTrace

/// The device one test runs on: booted in the test process for that test (a private registry;
/// driven directly, or through an automation API on a free loopback port), or a running device
/// it borrows (over its automation API).
public final class TestDevice: Sendable {
    /// The current test's device, set up by the `.device()` trait and by `ShowreelTestCase`.
    public static var current: TestDevice? { RecordedTestContext.recorded?.testDevice }

    /// The automation API client that `Application` uses.
    public let client: DeviceClient
    public let udid: String
    public let name: String
    public let clock: ClockKind
    /// The in-process device, to drive or record directly (nil for an external one).
    package let device: Device?
    /// The registry the device is in: a recorder in another process finds it there.
    public let registry: DeviceRegistry
    private let server: Task<Void, any Error>?
    private let ownsRegistry: Bool

    private init(
        client: DeviceClient, record: DeviceRecord, device: Device?, registry: DeviceRegistry,
        server: Task<Void, any Error>?, ownsRegistry: Bool
    ) {
        self.client = client
        self.udid = record.udid
        self.name = record.name
        self.clock = record.clock
        self.device = device
        self.registry = registry
        self.server = server
        self.ownsRegistry = ownsRegistry
    }

    /// Boots (or finds) the device `configuration` describes. Fails at once with the reason:
    /// an unknown profile, a device that is not running, an automation API that cannot listen.
    public static func boot(_ configuration: DeviceConfiguration) async throws -> TestDevice {
        let testDevice: TestDevice
        switch configuration.source {
        case .inProcess: testDevice = try await bootInProcess(configuration)
        case let .external(name): testDevice = try external(name, registry: configuration.registry ?? DeviceRegistry())
        }
        if let statusBar = configuration.statusBar {
            do { _ = try await testDevice.client.perform(.overrideStatusBar(statusBar)) } catch {
                await testDevice.shutdown()
                throw error
            }
        }
        return testDevice
    }

    private static func bootInProcess(_ configuration: DeviceConfiguration) async throws -> TestDevice {
        let profile = configuration.profile
        // Short: the display socket's path lives under it, and Unix socket paths are short.
        let home = URL(fileURLWithPath: "/tmp").appendingPathComponent("srt-\(UUID().uuidString.prefix(8))")
        let registry = DeviceRegistry(home: home)
        let device: Device
        do {
            device = try Device(
                name: "Test Phone", profile: profile, clock: configuration.clock,
                apps: ShowcaseCatalog.apps + configuration.apps, registry: registry,
                showsTouches: configuration.showsTouches, interfaceStyle: configuration.appearance,
                languages: configuration.languages, orientation: configuration.orientation)
        } catch {
            try? FileManager.default.removeItem(at: home)
            throw ShowreelKitError("Could not boot an in-process device: \(ErrorSentence.describe(error))")
        }
        guard configuration.transport == .http else {
            let record = try registry.resolve(device.udid)
            return TestDevice(
                client: DeviceClient(.inProcess(device)), record: record, device: device, registry: registry, server: nil,
                ownsRegistry: true)
        }
        let listening = AsyncStream<Int>.makeStream()
        let server = Task {
            defer { listening.continuation.finish() }
            try await AutomationServer(device: device, traceExporter: TraceExport.exporter).run { listening.continuation.yield($0) }
        }
        guard let port = await listening.stream.first(where: { _ in true }) else {
            // The server stopped before it listened: say why, and leave nothing behind.
            let reason = await server.result
            await device.shutdown()
            try? FileManager.default.removeItem(at: home)
            throw ShowreelKitError("The in-process device's automation API could not start: \(reason)")
        }
        let url = "http://127.0.0.1:\(port)"
        try await device.publishAutomationURL(url)
        let record = try registry.resolve(device.udid)
        return TestDevice(
            client: DeviceClient(baseURL: URL(string: url)!), record: record, device: device,
            registry: registry, server: server, ownsRegistry: true)
    }

    private static func external(_ name: String, registry: DeviceRegistry) throws -> TestDevice {
        let record: DeviceRecord
        do { record = try registry.resolve(name) } catch {
            throw ShowreelKitError(
                "No running device '\(name)' to test on: \(ErrorSentence.describe(error)) Boot one with `showreel device boot`, "
                    + "or use .device() for an in-process device.")
        }
        return TestDevice(
            client: try DeviceClient.named(record.udid, registry: registry), record: record, device: nil,
            registry: registry, server: nil, ownsRegistry: false)
    }

    /// Shuts an in-process device down (recorders still attached get the end of the stream)
    /// and removes its private registry; an external device is left running.
    public func shutdown() async {
        guard let device else { return }
        await device.shutdown()
        server?.cancel()
        _ = await server?.result
        if ownsRegistry { try? FileManager.default.removeItem(at: registry.home) }
    }
}

/// A test set up wrongly (a bad profile, no device, no `showreel` binary): the sentence says
/// what was wrong and what to do.
public struct ShowreelKitError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
