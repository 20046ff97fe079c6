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

    /// The pid of a process that has exited: free now (or someone else's, with another start time).
    static func exitedProcessID() async throws -> Int32 {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        _ = try await child.exitStatus()
        return child.processIdentifier
    }

    @Test("a crashed device's entry is detected by its pid and cleaned, never trusted")
    func staleEntry() async throws {
        let home = try Workspace()
        let gone = try await Self.exitedProcessID()
        let record = DeviceRecord(
            udid: "STALE-0000", name: "Crashed", profile: "phone", state: .booted, clock: .virtual,
            pid: gone, processStartTime: 1, displaySocket: home.url.path + "/gone.sock",
            automationURL: nil, bootedAt: Date())
        try home.registry.save(record)
        #expect(throws: DeviceLookupError.self) { try home.registry.resolve("booted") }
        let cleaned = try #require(home.registry.records().first)
        #expect(cleaned.state == .shutdown)
        // The cleaning was written back to disk.
        let data = try Data(contentsOf: home.registry.directory(for: "STALE-0000").appendingPathComponent("device.json"))
        #expect(String(decoding: data, as: UTF8.self).contains("Shutdown"))
    }

    @Test("a dead X display's entry is reaped; a name several devices share is an error naming that name, not 'booted'")
    func deadDisplayAndSharedName() async throws {
        let home = try Workspace()
        let gone = try await Self.exitedProcessID()
        let me = getpid()
        func display(_ udid: String, pid: Int32, start: UInt64?) -> DeviceRecord {
            DeviceRecord(
                udid: udid, name: ":0", profile: "display 320x200x24", state: .booted, clock: .real, pid: pid,
                processStartTime: start, displaySocket: "", automationURL: nil, bootedAt: Date(), x11Display: ":0")
        }
        // A display whose Xvfb was killed, and a new one on the same number (this process stands in for its Xvfb).
        try home.registry.save(display("DEAD-0000", pid: gone, start: 1))
        try home.registry.save(display("LIVE-0000", pid: me, start: ProcessStat.read(me)?.startTicks))
        #expect(try home.registry.resolve(":0").udid == "LIVE-0000")
        #expect(home.registry.records().map(\.udid) == ["LIVE-0000"])
        #expect(!FileManager.default.fileExists(atPath: home.registry.directory(for: "DEAD-0000").path))

        let a = try Device(name: "Twin", apps: [], registry: home.registry)
        let b = try Device(name: "Twin", apps: [], registry: home.registry)
        let error = #expect(throws: DeviceLookupError.self) { try home.registry.resolve("Twin") }
        #expect(error?.description.contains("Several devices are named 'Twin'") == true, "\(String(describing: error))")
        #expect(error?.description.contains("'booted'") == false)
        await b.shutdown()
        #expect(try home.registry.resolve("Twin").udid == a.udid, "the booted one of a shared name")
        await a.shutdown()
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
