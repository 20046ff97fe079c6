import Foundation
import ShowreelKit
import ShowreelReport
import Testing

/// The iOS workflow end to end: a real `showreel host` process launches the recorder
/// (`showreel io <udid> recordVideo`) for the test and interrupts it in teardown.
@Suite("Recording through a tunnel host")
struct TunnelHostRecordingTests {
    @Test("a test recorded via .tunnelHost gets a complete video made by a recorder the host ran")
    func recordsThroughTheHost() async throws {
        let folder = RecordingTraitTests.Folder()
        let host = try HostProcess()
        defer { host.stop() }
        let url = try await host.url()
        let test = try #require(Test.current)
        let configuration = RecordingConfiguration(.on, via: .tunnelHost(url), folder: folder.url)
        try await DeviceTrait.device().provideScope(for: test, testCase: nil) {
            try await RecordingTrait.recorded(configuration).provideScope(for: test, testCase: nil) {
                let app = Application("dev.showreel.hello")
                try await app.launch()
                for _ in 0..<3 { try await app.buttons["tapButton"].tap() }
                #expect(try await app.staticTexts["tapCount"].label == "Tapped 3 times")
            }
        }
        let entry = try #require(try folder.manifest().entries.first)
        #expect(entry.status == .passed)
        let info = try MediaProbe.probe(folder.url.appendingPathComponent(try #require(entry.video)))
        #expect(info.codecName == "h264")
        #expect(info.width == 390, "the trait's scale reaches the recorder's command line")
        #expect(info.frameCount >= 7)  // the first screen, then a pressed and a released button per tap
        // The host ran the recorder and it exited cleanly after the interrupt.
        let commands = try await TunnelHostClient(baseURL: url).commands()
        #expect(commands.count == 1)
        #expect(commands.first?.argv.contains("recordVideo") == true)
        #expect(commands.first?.exitCode == 0)
    }
}

/// `showreel host --port 0`, its port read from what it prints.
final class HostProcess: @unchecked Sendable {
    let process = Process()
    let log = URL(fileURLWithPath: "/tmp").appendingPathComponent("srh-\(UUID().uuidString.prefix(8)).log")

    init() throws {
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        process.executableURL = URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent("showreel")
        process.arguments = ["host", "--port", "0"]
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
    }

    func url() async throws -> URL {
        for _ in 0..<200 {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let port = HostAPI.ListeningLine.port(in: text) { return URL(string: "http://127.0.0.1:\(port)")! }
            guard process.isRunning else { throw ShowreelKitError("showreel host exited: \(text)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ShowreelKitError("showreel host did not say where it listens within 10 s")
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
    }
}
