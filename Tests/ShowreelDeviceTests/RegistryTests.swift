import Foundation
import ShowcaseApps
import ShowreelDevice
import ShowreelTestSupport
import ShowreelWire
import Testing

@Suite("Device registry")
struct RegistryTests {
    @Test("a booted device is found by udid, name and as `booted`")
    func resolve() async throws {
        let home = try Workspace()
        let device = try Device(name: "Resolver", apps: ShowcaseCatalog.apps, registry: home.registry)
        #expect(try home.registry.resolve("booted").udid == device.udid)
        #expect(try home.registry.resolve(device.udid).name == "Resolver")
        #expect(try home.registry.resolve("Resolver").udid == device.udid)
        await device.shutdown()
        #expect(throws: DeviceLookupError.noBootedDevice(registry: home.registry.devicesDirectory.path)) {
            try home.registry.resolve("booted")
        }
    }

    @Test("no device, or several, under `booted` is an error that says what to do")
    func lookupErrors() async throws {
        let home = try Workspace()
        let error = #expect(throws: DeviceLookupError.self) { try home.registry.resolve("booted") }
        #expect(error?.description.contains("showreel device boot") == true)
        let a = try Device(name: "A", apps: [], registry: home.registry)
        let b = try Device(name: "B", apps: [], registry: home.registry)
        let several = #expect(throws: DeviceLookupError.self) { try home.registry.resolve("booted") }
        #expect(several?.description.contains("udid") == true)
        #expect(throws: DeviceLookupError.self) { try home.registry.resolve("no-such-device") }
        await a.shutdown()
        await b.shutdown()
    }

    @Test("a crashed device's entry is detected by its pid and cleaned, never trusted")
    func staleEntry() async throws {
        let home = try Workspace()
        // A process that has exited: its pid is free (or someone else's, with another start time).
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        _ = try await child.exitStatus()
        let record = DeviceRecord(
            udid: "STALE-0000", name: "Crashed", profile: "phone", state: .booted, clock: .virtual,
            pid: child.processIdentifier, processStartTime: 1, displaySocket: home.url.path + "/gone.sock",
            automationURL: nil, bootedAt: Date())
        try home.registry.save(record)
        #expect(throws: DeviceLookupError.self) { try home.registry.resolve("booted") }
        let cleaned = try #require(home.registry.records().first)
        #expect(cleaned.state == .shutdown)
        // The cleaning was written back to disk.
        let data = try Data(contentsOf: home.registry.directory(for: "STALE-0000").appendingPathComponent("device.json"))
        #expect(String(decoding: data, as: UTF8.self).contains("Shutdown"))
    }

    @Test("a reused pid with another start time is not the device")
    func reusedPid() throws {
        let home = try Workspace()
        let me = getpid()
        let record = DeviceRecord(
            udid: "REUSED-0000", name: "Impostor", profile: "phone", state: .booted, clock: .virtual, pid: me,
            processStartTime: (ProcessStat.read(me)?.startTicks ?? 0) + 1, displaySocket: "/nonexistent",
            automationURL: nil, bootedAt: Date())
        try home.registry.save(record)
        #expect(home.registry.records().first?.state == .shutdown)
    }
}
