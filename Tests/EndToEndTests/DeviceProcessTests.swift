import Foundation
import ShowreelTestSupport
import ShowreelTesting
import ShowreelWire
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `showreel device ...` as a user runs it: a device process, commands against it, signals.
@Suite("Device process")
struct DeviceProcessTests {
    func showreel(_ arguments: [String], _ workspace: Workspace, name: String = "cmd") async throws -> ChildProcess {
        let child = try ChildProcess(try BuildProducts.showreel, arguments, environment: workspace.environment, in: workspace, name: name)
        _ = try await child.waitForExit()
        return child
    }

    func bootDevice(_ workspace: Workspace, _ extra: [String] = []) async throws -> (ChildProcess, String) {
        let device = try ChildProcess(
            try BuildProducts.showreel, ["device", "boot", "--clock", "virtual", "--name", "CLI Phone"] + extra,
            environment: workspace.environment, in: workspace, name: "device")
        try await eventually("the device to boot") { device.stderr.contains("automation API at") }
        let udid = device.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return (device, udid)
    }

    @Test("boot, list, launch, terminate, shut down, erase")
    func lifecycle() async throws {
        let workspace = try Workspace()
        let (device, udid) = try await bootDevice(workspace)
        #expect(try await showreel(["device", "list"], workspace).stdout.contains("\(udid)  CLI Phone  phone  Booted"))

        let launch = try await showreel(["device", "launch", "booted", "dev.showreel.hello", "--", "-flag"], workspace)
        #expect(launch.terminationStatus == 0)
        #expect(launch.stdout.contains("runningForeground"))
        let client = try DeviceClient.named(udid, registry: workspace.registry)
        try await Application("dev.showreel.hello", device: client).buttons["tapButton"].tap()
        let container = workspace.registry.directory(for: udid).appendingPathComponent("data/dev.showreel.hello")
        #expect(FileManager.default.fileExists(atPath: container.path))

        let unknown = try await showreel(["device", "launch", "booted", "dev.showreel.nope"], workspace)
        #expect(unknown.terminationStatus == 1)
        #expect(unknown.stderr.contains("No app with bundle identifier 'dev.showreel.nope'"))

        #expect(try await showreel(["device", "terminate", "booted", "dev.showreel.hello"], workspace).terminationStatus == 0)
        #expect(try await client.status(of: "dev.showreel.hello").state == .notRunning)

        let erasingBooted = try await showreel(["device", "erase", udid], workspace)
        #expect(erasingBooted.terminationStatus == 64)
        #expect(erasingBooted.stderr.contains("shut it down first"))

        #expect(try await showreel(["device", "shutdown", "booted"], workspace).terminationStatus == 0)
        #expect(try await device.waitForExit() == 0)
        #expect(try await showreel(["device", "list"], workspace).stdout.contains("CLI Phone  phone  Shutdown"))
        #expect(try await showreel(["device", "erase", "all"], workspace).terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: container.path))
    }

    @Test("a boot that fails exits at once with the reason and registers nothing: a port in use, an unknown app")
    func bootFailures() async throws {
        let workspace = try Workspace()
        // Hold a port the way another server would.
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let held = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(holder, pointer, length) == 0 && listen(holder, 1) == 0 && getsockname(holder, pointer, &length) == 0
            }
        }
        try #require(held)
        let port = Int(UInt16(bigEndian: address.sin_port))
        for (arguments, message) in [
            (["--port", "\(port)"], "port \(port) is in use"),
            (["--launch", "dev.showreel.nope"], "No app with bundle identifier 'dev.showreel.nope'"),
        ] {
            let boot = try ChildProcess(
                try BuildProducts.showreel, ["device", "boot", "--clock", "virtual"] + arguments,
                environment: workspace.environment, in: workspace, name: "boot")
            // It exits by itself (a hang fails here); how fast is for the bench, not a loaded test machine.
            let status = try await boot.waitForExit(timeout: .seconds(120))
            #expect(status != 0)
            #expect(boot.stderr.contains(message), "stderr: \(boot.stderr)")
            #expect(workspace.registry.records().isEmpty, "a failed boot leaves no registry entry")
        }
    }

    @Test("a device killed with SIGKILL is detected by its pid and never trusted as booted")
    func crashedDevice() async throws {
        let workspace = try Workspace()
        let (device, udid) = try await bootDevice(workspace)
        device.signal(SIGKILL)
        _ = try await device.waitForExit()
        let list = try await showreel(["device", "list"], workspace)
        #expect(list.stdout.contains("\(udid)  CLI Phone  phone  Shutdown"))
        let recorder = try await showreel(["io", "booted", "recordVideo", workspace.file("x.mov").path], workspace)
        #expect(recorder.terminationStatus == 3)
        #expect(recorder.stderr.contains("No booted device"))
        // A new device boots fine over the stale socket of the old one.
        let (second, _) = try await bootDevice(workspace)
        second.signal(SIGTERM)
        #expect(try await second.waitForExit() == 0)
    }

    @Test("status_bar override reaches the device; bad values are refused with the allowed ones")
    func statusBar() async throws {
        let workspace = try Workspace()
        let (device, udid) = try await bootDevice(workspace)
        let set = try await showreel(["device", "status_bar", udid, "override", "--time", "10:09", "--battery-level", "55"], workspace)
        #expect(set.terminationStatus == 0)
        let info = try #require(
            try await DeviceClient.named(udid, registry: workspace.registry).perform(.overrideStatusBar(StatusBarOverride())).statusBar)
        #expect(info.time == "10:09" && info.batteryLevel == 55)
        let bad = try await showreel(["device", "status_bar", udid, "override", "--data-network", "6g"], workspace)
        #expect(bad.terminationStatus == 64)
        #expect(bad.stderr.contains("'6g' is invalid for '--data-network") && bad.stderr.contains("- 5g"), "\(bad.stderr)")
        device.signal(SIGINT)
        #expect(try await device.waitForExit() == 0)
    }
}
