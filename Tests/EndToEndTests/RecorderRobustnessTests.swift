import Foundation
import ShowcaseApps
import ShowreelDevice
import ShowreelRecorder
import ShowreelTestSupport
import ShowreelTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The recorder as a second adversarial pass used it (issue 24): interrupted through the tunnel
/// host in its first milliseconds, given numbers that cannot be durations, and left holding an
/// idle screen when its device is killed.
@Suite("Recorder robustness, end to end")
struct RecorderRobustnessTests {
    @Test("20 interrupts sent 0-30 ms after /v1 launch each end the recorder with exit 0 and a finalised file")
    func interruptsRightAfterLaunch() async throws {
        let workspace = try Workspace()
        let showreel = try BuildProducts.showreel
        let host = try ChildProcess(showreel, ["host", "--port", "0"], environment: workspace.environment, in: workspace, name: "host")
        let client = TunnelHostClient(baseURL: URL(string: "http://127.0.0.1:\(try await host.listeningPort())")!)
        let device = try Device(apps: ShowcaseCatalog.apps, registry: workspace.registry)
        try await device.launch(HelloApp.bundleIdentifier)
        for attempt in 0..<20 {
            let video = workspace.file("early-\(attempt).mp4")
            let started = try await client.run(argv: [showreel.path, "io", device.udid, "recordVideo", video.path])
            try await Task.sleep(for: .milliseconds(attempt * 30 / 19))
            let finished = try await client.interrupt(started.id, wait: true, timeout: .seconds(60))
            #expect(
                finished.terminationReason == "exit" && finished.exitCode == 0,
                "attempt \(attempt): \(finished.signalName ?? "exit \(finished.exitCode ?? -1)"); stderr: \(finished.stderr ?? "")")
            // Either a finalised video, or (no frame had arrived) no file and a sentence saying so.
            if FileManager.default.fileExists(atPath: video.path) {
                #expect(try MediaProbe.probe(video).frameCount >= 1, "attempt \(attempt)")
            } else {
                #expect(
                    finished.stderr?.contains("nothing was recorded") == true, "attempt \(attempt): no file and \(finished.stderr ?? "")")
            }
        }
        await device.shutdown()
        host.signal(SIGTERM)
        #expect(try await host.waitForExit() == 0)
    }

    @Test(
        "numbers that are no durations or out of range are usage errors (exit 64), not crashes",
        arguments: [
            ["io", "booted", "recordVideo", "--keyframe-interval", "inf", "x.mp4"],
            ["io", "booted", "recordVideo", "--keyframe-interval", "nan", "x.mp4"],
            ["io", "booted", "recordVideo", "--scale", "inf", "x.mp4"],
            ["io", "booted", "recordVideo", "--quality", "99", "x.mp4"],
            ["io", "booted", "recordVideo", "--preset", "bogus", "x.mp4"],
            ["io", "booted", "recordVideo", "--max-frame-rate", "0", "x.mp4"],
            ["io", "booted", "recordVideo", "--max-frame-rate", "nan", "x.mp4"],
            ["io", "booted", "recordVideo", "--threads", "99", "x.mp4"],
            ["host", "--grace", "inf"],
            ["host", "--grace", "1e300"],
            ["host", "--standbys", "99"],
        ])
    func numbersOutOfRange(arguments: [String]) async throws {
        let workspace = try Workspace()
        let child = try ChildProcess(
            try BuildProducts.showreel, arguments, environment: workspace.environment,
            in: workspace, name: "cli", directory: workspace.url)
        #expect(try await child.waitForExit() == 64, "\(arguments): \(child.stderr)")
        #expect(child.terminationReason == .exit)
        let option = arguments.first { $0.hasPrefix("--") }!.dropFirst(2)
        #expect(child.stderr.contains(String(option)), "\(arguments): the message names the option: \(child.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.file("x.mp4").path))
    }

    @Test("a real-clock device killed during an idle .mov recording: the video lasts until the recorder noticed")
    func deviceKilledWhileIdle() async throws {
        let workspace = try Workspace()
        let device = try ChildProcess(
            try BuildProducts.showreel, ["device", "boot", "--clock", "real", "--launch", HelloApp.bundleIdentifier],
            environment: workspace.environment, in: workspace, name: "device")
        try await eventually("the device to boot") { device.stderr.contains("automation API at") }
        let video = workspace.file("idle.mov")
        let launched = ContinuousClock.now
        let recorder = try ChildProcess(
            try BuildProducts.showreel, ["io", "booted", "recordVideo", video.path],
            environment: workspace.environment, in: workspace, name: "rec")
        try await eventually("Recording started") { recorder.stderr.contains("Recording started") }
        try await Task.sleep(for: .seconds(3))  // idle: the device sends no frame at all
        device.signal(SIGKILL)
        #expect(try await recorder.waitForExit() == 0, "\(recorder.stderr)")
        // At least the 3 s the screen sat idle after the first frame; at most the recorder's life.
        let life = (ContinuousClock.now - launched).seconds
        let info = try MediaProbe.probe(video)
        #expect(info.duration >= 2.9 && info.duration <= life, "a recorder that ran \(life) s wrote \(info.duration) s of video")
        #expect(recorder.stderr.contains("holds its last frame until the recorder noticed"), "\(recorder.stderr)")
    }
}
