import Foundation
import ShowreelTesting
import Testing

/// A test target that depends on ShowreelTesting alone (no Cairo, no HTTP server, no FFmpeg)
/// and drives a device booted in another process with `showreel device boot`.
@Suite("A device booted with showreel device boot, driven by ShowreelTesting alone")
struct ExternalDeviceTests {
    @Test("launch, tap and read labels on an external device through the registry")
    func drivesAnExternalDevice() async throws {
        let booted = try BootedDevice()
        do {
            try await drive(try await booted.client())
        } catch {
            await booted.stop()
            throw error
        }
        await booted.stop()
    }

    private func drive(_ device: DeviceClient) async throws {
        let app = Application("dev.showreel.countries", launchArguments: ["--countries-datasource", "local-mock"], device: device)
        try await app.launch()
        try await app.cells["Canada"].tap()
        #expect(try await app.staticTexts["countryName"].label == "Canada")
        #expect(try await app.staticTexts["countryName"].waitForHittable(timeout: .seconds(0)))
        #expect(try await app.state == .runningForeground)
        let png = try await app.screenshot()
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
}

/// `showreel device boot` in a private SHOWREEL_HOME, stopped with SIGTERM.
final class BootedDevice: @unchecked Sendable {
    let home = URL(fileURLWithPath: "/tmp").appendingPathComponent("sre-\(UUID().uuidString.prefix(8))", isDirectory: true)
    let process = Process()

    init() throws {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let binary = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("showreel")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw ExternalDeviceFailure("no showreel binary at \(binary.path): run `swift build --build-tests` (make test does) first")
        }
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        process.executableURL = binary
        process.arguments = ["device", "boot"]
        var environment = ProcessInfo.processInfo.environment
        environment["SHOWREEL_HOME"] = home.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// The booted device's client, once its automation API is in the registry.
    func client() async throws -> DeviceClient {
        let registry = DeviceRegistry(home: home)
        for _ in 0..<200 {
            if let client = try? DeviceClient.named("booted", registry: registry) { return client }
            guard process.isRunning else { throw ExternalDeviceFailure("showreel device boot exited with \(process.terminationStatus)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ExternalDeviceFailure("the device did not publish its automation API within 10 s")
    }

    /// SIGTERM, then waits for the exit on a thread of its own (never on Swift's cooperative pool).
    func stop() async {
        if process.isRunning { process.terminate() }
        await withCheckedContinuation { (exited: CheckedContinuation<Void, Never>) in
            Thread { [process] in
                process.waitUntilExit()
                exited.resume()
            }.start()
        }
        try? FileManager.default.removeItem(at: home)
    }
}

struct ExternalDeviceFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
