import ShowreelAccessibility
import Foundation
import ShowcaseApps
import ShowreelDevice
import ShowreelRecorder
import ShowreelRender
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `showreel io ... recordVideo` and `screenshot` as real processes, stopped by real signals,
/// with every file read back through FFmpeg.
@Suite("Recorder process")
struct RecorderProcessTests {
    /// A booted device running the Hello app, and a recorder subscribed to it.
    struct Session {
        let workspace: Workspace
        let device: Device
        let recorder: ChildProcess
        let video: URL

        static func start(_ file: String, _ options: [String] = [], limits: [String] = []) async throws -> Session {
            let workspace = try Workspace()
            let device = try Device(apps: ShowcaseCatalog.apps, registry: workspace.registry)
            try await device.launch(HelloApp.bundleIdentifier)
            let video = workspace.file(file)
            let showreel = try BuildProducts.showreel
            let arguments = ["io", device.udid, "recordVideo"] + options + [video.path]
            let recorder = limits.isEmpty
                ? try ChildProcess(showreel, arguments, environment: workspace.environment, in: workspace, name: "rec")
                : try ChildProcess(URL(fileURLWithPath: "/usr/bin/prlimit"), limits + ["--", showreel.path] + arguments,
                                   environment: workspace.environment, in: workspace, name: "rec")
            try await eventually("Recording started") { recorder.stderr.contains("Recording started") }
            return Session(workspace: workspace, device: device, recorder: recorder, video: video)
        }

        /// Taps the button `count` times, `gap` apart, on the virtual clock.
        func tap(_ count: Int, gap: Duration = .milliseconds(500)) async throws {
            for _ in 0..<count {
                try await device.tap(.button("tapButton"))
                try await device.wait(gap)
            }
        }

        var span: Double {
            get throws {
                let session = try #require(device.display.sessions.first)
                return try #require(session.stopTime).seconds - (try #require(session.startTime)).seconds
            }
        }
    }

    @Test("SIGINT and SIGTERM finalise the file; its duration is the recorded span",
          arguments: [(SIGINT, "a.mp4", "h264"), (SIGTERM, "b.mov", "h264"), (SIGINT, "c.mov", "hevc"), (SIGTERM, "d.mp4", "hevc")])
    func stopBySignal(signal: Int32, file: String, codec: String) async throws {
        let session = try await Session.start(file, ["--codec=\(codec)"])
        try await session.tap(3)
        session.recorder.signal(signal)
        #expect(try await session.recorder.waitForExit() == 0, "stderr: \(session.recorder.stderr)")
        let info = try MediaProbe.probe(session.video)
        #expect(info.codecName == codec)
        #expect(abs(info.duration - (try session.span)) <= 1.0 / 60)
        #expect(info.frameCount == 7)  // the first screen, then highlight and release per tap
        #expect(session.recorder.stderr.contains("Wrote \(session.video.path)"))
        await session.device.shutdown()
    }

    @Test("a second signal during finalisation does not corrupt the file")
    func doubleSignal() async throws {
        let session = try await Session.start("twice.mov", ["--quality=10"])
        try await session.tap(4)
        session.recorder.signal(SIGINT)
        session.recorder.signal(SIGTERM)
        session.recorder.signal(SIGINT)
        #expect(try await session.recorder.waitForExit() == 0)
        let info = try MediaProbe.probe(session.video)
        #expect(info.frameCount == 9)
        #expect(try FrameDecoder.decodeFrames(session.video).count == 9)
        await session.device.shutdown()
    }

    @Test("SIGKILL leaves a fragmented file that decodes up to the last keyframe")
    func killNine() async throws {
        let session = try await Session.start("killed.mp4", ["--keyframe-interval=1"])
        try await session.tap(6)  // 3 s of virtual time: keyframes at 0, 1, 2 s
        // Frames at 0, 0.001, 0.1, 0.6, 0.7 | 1.2 (keyframe), 1.3, 1.8, 1.9 | 2.4 (keyframe), 2.5, 3.0, 3.1.
        // Once the recorder has muxed the keyframe at 2.4 s, everything before it is on disk.
        try await eventually("the second fragment on disk") {
            ((try? MediaProbe.probe(session.video))?.frameCount ?? 0) >= 9
        }
        session.recorder.signal(SIGKILL)
        _ = try await session.recorder.waitForExit()
        let info = try MediaProbe.probe(session.video)
        #expect(info.codecName == "h264")
        #expect(info.frameCount == 9, "every frame before the last keyframe survives, none after it")
        let frames = try FrameDecoder.decodeFrames(session.video)
        #expect(frames.count == 9)
        #expect(abs((frames.last?.time ?? 0) - 1.9) < 0.002)
        await session.device.shutdown()
    }

    @Test("the device shutting down mid-recording finalises what was captured, exits 0 and warns")
    func deviceShutdown() async throws {
        let session = try await Session.start("shutdown.mov")
        try await session.tap(2)
        await session.device.shutdown()
        #expect(try await session.recorder.waitForExit() == 0)
        #expect(session.recorder.stderr.contains("shut down during the recording"))
        let info = try MediaProbe.probe(session.video)
        #expect(abs(info.duration - (try session.span)) <= 1.0 / 60)
        #expect(info.frameCount == 5)
    }

    @Test("--mask=black paints outside the screen shape; ignored keeps the raw framebuffer; alpha warns and is black",
          arguments: ["black", "ignored", "alpha"])
    func masks(policy: String) async throws {
        let session = try await Session.start("mask-\(policy).mp4", ["--mask=\(policy)", "--quality=0"])
        try await session.tap(1)
        session.recorder.signal(SIGINT)
        #expect(try await session.recorder.waitForExit() == 0)
        let frame = try #require(try FrameDecoder.decodeFrames(session.video, limit: 1).first).pixels
        let corner = frame.pixel(x: 2, y: 2)
        let island = frame.pixel(x: 390, y: 50)  // inside the sensor housing
        let centre = frame.pixel(x: 390, y: 844)
        #expect(centre.red > 200, "the app's background stays as it is")
        if policy == "ignored" {
            #expect(corner.red > 200 && island.red > 200)
        } else {
            #expect(corner.red < 20 && corner.green < 20 && corner.blue < 20, "corner is \(corner)")
            #expect(island.red < 20, "sensor housing is \(island)")
        }
        #expect(session.recorder.stderr.contains("rendered black") == (policy == "alpha"))
        await session.device.shutdown()
    }

    @Test("a full disk while writing: the recorder finalises what fits, exits non-zero, never reports success")
    func fileSizeLimit() async throws {
        // RLIMIT_FSIZE makes writes fail (EFBIG) past 150 kB, as a full disk fails them with ENOSPC.
        let session = try await Session.start("full.mov", ["--quality=0"], limits: ["--fsize=150000"])
        try await session.tap(8, gap: .milliseconds(100))
        session.recorder.signal(SIGINT)
        let status = try await session.recorder.waitForExit()
        #expect(status == 7, "stderr: \(session.recorder.stderr)")
        #expect(session.recorder.stderr.contains("incomplete"))
        #expect(!session.recorder.stderr.contains("Wrote "))
        await session.device.shutdown()
    }

    @Test("an encoder missing from this FFmpeg build is named, with the package that provides it")
    func missingEncoder() async throws {
        let workspace = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: workspace.registry)
        let video = workspace.file("x.mp4")
        let recorder = try ChildProcess(try BuildProducts.showreel,
                                        ["io", "booted", "recordVideo", "--codec=hevc", "--encoder=libx265_absent", video.path],
                                        environment: workspace.environment, in: workspace, name: "rec")
        #expect(try await recorder.waitForExit() == 6)
        #expect(recorder.stderr.contains("libx265_absent"))
        #expect(recorder.stderr.contains("libx265-199"))
        #expect(!FileManager.default.fileExists(atPath: video.path))
        await device.shutdown()
    }

    @Test("an unwritable path is refused with the reason")
    func unwritable() async throws {
        let workspace = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: workspace.registry)
        let recorder = try ChildProcess(try BuildProducts.showreel,
                                        ["io", "booted", "recordVideo", workspace.file("missing/dir/x.mov").path],
                                        environment: workspace.environment, in: workspace, name: "rec")
        #expect(try await recorder.waitForExit() == 5)
        #expect(recorder.stderr.contains("missing/dir/x.mov"))
        await device.shutdown()
    }

    @Test("screenshot writes PNG and JPEG of the current screen, to a file or stdout", arguments: ["png", "jpeg", "-"])
    func screenshot(kind: String) async throws {
        let workspace = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: workspace.registry)
        try await device.launch(HelloApp.bundleIdentifier)
        try await device.tap(.button("tapButton"))
        let target = kind == "-" ? "-" : workspace.file("shot.\(kind == "jpeg" ? "jpg" : "png")").path
        let child = try ChildProcess(try BuildProducts.showreel, ["io", "booted", "screenshot", "--mask=black", target],
                                     environment: workspace.environment, in: workspace, name: "shot")
        #expect(try await child.waitForExit() == 0, "stderr: \(child.stderr)")
        let bytes = try Data(contentsOf: kind == "-" ? child.stdoutURL : URL(fileURLWithPath: target))
        let image = workspace.file("decoded.\(kind == "jpeg" ? "jpg" : "png")")
        try bytes.write(to: image)
        if kind == "jpeg" {
            #expect(bytes.prefix(2) == Data([0xFF, 0xD8]))
        } else {
            #expect(bytes.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        }
        let frame = try #require(try FrameDecoder.decodeFrames(image, limit: 1).first).pixels
        #expect(frame.width == 780 && frame.height == 1688)
        #expect(frame.pixel(x: 1, y: 1).red < 20)
        let expected = await device.screenshot()
        #expect(frame.meanDifference(from: expected, rows: 600..<1600) < (kind == "jpeg" ? 3 : 0.5))
        await device.shutdown()
    }
}
