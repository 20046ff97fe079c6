import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelDevice
import ShowreelRecorder
import ShowreelRender
import ShowreelTestSupport
import ShowreelTesting
import ShowreelWire
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
            let recorder =
                limits.isEmpty
                ? try ChildProcess(showreel, arguments, environment: workspace.environment, in: workspace, name: "rec")
                : try ChildProcess(
                    URL(fileURLWithPath: "/usr/bin/prlimit"), limits + ["--", showreel.path] + arguments,
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

    @Test(
        "SIGINT and SIGTERM finalise the file; its duration is the recorded span",
        arguments: [(SIGINT, "a.mp4", "h264"), (SIGTERM, "b.mov", "h264"), (SIGINT, "c.mov", "hevc"), (SIGTERM, "d.mp4", "hevc")])
    func stopBySignal(signal: Int32, file: String, codec: String) async throws {
        let session = try await Session.start(file, ["--codec=\(codec)"])
        try await session.tap(3)
        session.recorder.signal(signal)
        #expect(try await session.recorder.waitForExit() == 0, "stderr: \(session.recorder.stderr)")
        let info = try MediaProbe.probe(session.video)
        #expect(info.codecName == codec)
        #expect(abs(info.duration - (try session.span)) <= 1.0 / 60)
        // Highlight and release per tap: the first screen the recorder got lasted no time (the
        // first tap's highlight came at the same instant), so the video opens on the highlight.
        #expect(info.frameCount == 6)
        #expect(session.recorder.stderr.contains("Wrote \(session.video.path)"))
        await session.device.shutdown()
    }

    @Test(
        "--max-frame-rate keeps the newest frame of each refresh, as a recording in a test's own process does (on one thread there: --threads=1)"
    )
    func maximumFrameRate() async throws {
        var frameTimes: [[Double]] = []
        for options in [[], ["--max-frame-rate=30", "--threads=1"]] {
            let session = try await Session.start("rate.mov", options)
            // A tap's release and the next one's highlight 5 ms apart: within one 1/30 s.
            try await session.tap(4, gap: .milliseconds(5))
            try await session.device.wait(.milliseconds(500))
            session.recorder.signal(SIGINT)
            #expect(try await session.recorder.waitForExit() == 0, "\(options): \(session.recorder.stderr)")
            frameTimes.append(try await decodedFrames(session.video).map(\.time))
            await session.device.shutdown()
        }
        let (every, capped) = (frameTimes[0], frameTimes[1])
        #expect(every.count == 8, "highlight and release per tap: \(every)")
        #expect(zip(every, every.dropFirst()).contains { $1 - $0 < 1.0 / 30 }, "\(every)")
        #expect(capped.count < every.count && capped.count >= 4, "\(capped)")
        #expect(zip(capped, capped.dropFirst()).allSatisfy { $1 - $0 >= 1.0 / 30 - 0.001 }, "\(capped)")
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
        #expect(info.frameCount == 8)  // highlight and release per tap (see stopBySignal)
        #expect(try await decodedFrames(session.video).count == 8)
        await session.device.shutdown()
    }

    @Test("SIGKILL on a virtual clock leaves a fragmented file with every frame but the last")
    func killNine() async throws {
        let session = try await Session.start("killed.mp4", ["--keyframe-interval=1"])
        try await session.tap(6)  // 12 frames: highlight and release per tap (see stopBySignal)
        // The encoder flushes the file within a second of wall time; only the last frame, whose
        // hold on screen the recorder cannot know yet, stays in memory.
        try await eventually("all but the last frame on disk") {
            ((try? MediaProbe.probe(session.video))?.frameCount ?? 0) >= 11
        }
        session.recorder.signal(SIGKILL)
        _ = try await session.recorder.waitForExit()
        let info = try MediaProbe.probe(session.video)
        #expect(info.codecName == "h264")
        #expect(info.frameCount == 11)
        let frames = try await decodedFrames(session.video)
        #expect(frames.count == 11)
        #expect(abs((frames.last?.time ?? 0) - 3.0) < 0.002)
        await session.device.shutdown()
    }

    /// A device process on the real clock (wall time), with the Hello app in front.
    func bootRealDevice(_ workspace: Workspace) async throws -> (ChildProcess, DeviceClient) {
        let device = try ChildProcess(
            try BuildProducts.showreel,
            ["device", "boot", "--clock", "real", "--launch", HelloApp.bundleIdentifier],
            environment: workspace.environment, in: workspace, name: "device")
        try await eventually("the device to boot") { device.stderr.contains("automation API at") }
        let udid = device.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return (device, try DeviceClient.named(udid, registry: workspace.registry))
    }

    @Test("SIGKILL on a real clock loses under a second of wall time, idle or busy", arguments: [0, 3])
    func killNineIdle(taps: Int) async throws {
        let workspace = try Workspace()
        let (device, client) = try await bootRealDevice(workspace)
        let video = workspace.file("idle-\(taps).mp4")
        let recorder = try ChildProcess(
            try BuildProducts.showreel, ["io", "booted", "recordVideo", video.path],
            environment: workspace.environment, in: workspace, name: "rec")
        // Polled, so this is a little after the recording's first frame: the span measured is short, if anything.
        try await eventually("Recording started") { recorder.stderr.contains("Recording started") }
        let started = ContinuousClock.now
        let app = Application(HelloApp.bundleIdentifier, device: client)
        for _ in 0..<taps { try await app.buttons["tapButton"].tap() }
        try await Task.sleep(for: .seconds(3))  // an idle screen: no frames at all from the device
        let frames = try await Self.killNineLosesUnderASecond(recorder, video, startedAt: started)
        #expect(frames.count >= 1 + 2 * taps)
        device.signal(SIGTERM)
        #expect(try await device.waitForExit() == 0)
    }

    /// Kills `recorder` with SIGKILL and checks its fragmented `video`: it decodes, and reaches
    /// within a second of the wall time since `startedAt`. Returns its frames.
    static func killNineLosesUnderASecond(_ recorder: ChildProcess, _ video: URL, startedAt started: ContinuousClock.Instant)
        async throws -> [DecodedFrame]
    {
        recorder.signal(SIGKILL)
        let span = (ContinuousClock.now - started).seconds
        _ = try await recorder.waitForExit()
        let info = try MediaProbe.probe(video)
        #expect(info.duration >= span - 1, "the file reaches \(info.duration) s of a \(span) s recording")
        let frames = try await decodedFrames(video)
        #expect(frames.count == info.frameCount)
        return frames
    }

    @Test("SIGINT at any moment of the recorder's start stops it cleanly with a video")
    func earlyInterrupt() async throws {
        let workspace = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: workspace.registry)
        try await device.launch(HelloApp.bundleIdentifier)
        for attempt in 0..<12 {
            let video = workspace.file("early-\(attempt).mp4")
            let recorder = try ChildProcess(
                try BuildProducts.showreel, ["io", "booted", "recordVideo", video.path],
                environment: workspace.environment, in: workspace, name: "rec-\(attempt)")
            // The recorder holds the signals from its first instruction; before that the dynamic
            // loader is still mapping libraries and no program can catch anything. So: from
            // the moment it runs, SIGINT 0 to 50 ms later.
            try await eventually("the recorder to run") { holdsStopSignals(recorder.process.processIdentifier) }
            try await Task.sleep(for: .milliseconds(attempt * 50 / 11))
            recorder.signal(SIGINT)
            let status = try await recorder.waitForExit()
            #expect(recorder.terminationReason == .exit, "attempt \(attempt): killed by the signal")
            #expect(status == 0, "attempt \(attempt): stderr: \(recorder.stderr)")
            #expect(try MediaProbe.probe(video).frameCount == 1, "attempt \(attempt)")
        }
        await device.shutdown()
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
        #expect(info.frameCount == 4)  // highlight and release per tap (see stopBySignal)
    }

    @Test(
        "--mask=black paints outside the screen shape; ignored keeps the raw framebuffer; alpha warns and is black",
        arguments: ["black", "ignored", "alpha"])
    func masks(policy: String) async throws {
        let session = try await Session.start("mask-\(policy).mp4", ["--mask=\(policy)", "--quality=0"])
        try await session.tap(1)
        session.recorder.signal(SIGINT)
        #expect(try await session.recorder.waitForExit() == 0)
        let frame = try #require(try await decodedFrames(session.video, limit: 1).first).pixels
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

    @Test("--scale=0.5: the device sends its frames shrunk to half, and the video is half size, masked, and the screen's picture")
    func halfSizeFrames() async throws {
        let session = try await Session.start("half.mp4", ["--scale=0.5", "--mask=black", "--quality=0"])
        try await session.tap(2)
        session.recorder.signal(SIGINT)
        #expect(try await session.recorder.waitForExit() == 0, "stderr: \(session.recorder.stderr)")
        let stream = try #require(session.device.display.sessions.last)
        // The first frame may leave before the device reads the request.
        #expect(stream.halfSizeFramesSent >= stream.framesSent - 1 && stream.halfSizeFramesSent >= 4, "\(stream)")
        let frame = try #require(try await decodedFrames(session.video).last).pixels
        #expect(frame.width == 390 && frame.height == 844)
        let screen = PixelBuffer(width: 390, height: 844)
        FrameScaler.shrink(await session.device.screenshot(), into: screen)
        for (x, y) in [(195, 422), (60, 300), (300, 700)] {
            #expect(isClose(frame.pixel(x: x, y: y), screen.pixel(x: x, y: y), tolerance: 6), "at (\(x), \(y))")
        }
        let (corner, island) = (frame.pixel(x: 1, y: 1), frame.pixel(x: 195, y: 25))
        #expect(corner.red < 20 && corner.green < 20 && corner.blue < 20, "corner is \(corner)")
        #expect(island.red < 20, "sensor housing is \(island)")
        await session.device.shutdown()
    }

    @Test(
        "--spool keeps frames unencoded: a stream the device ends as discarded leaves no file and says how long it spanned; one stopped as usual is encoded then, whole"
    )
    func spool() async throws {
        let dropped = try await Session.start("dropped.mov", ["--spool=64"])
        try await dropped.tap(3)
        let stream = try #require(dropped.device.display.latestRecorder)
        #expect(dropped.device.display.discardStream(of: stream.id))
        #expect(try await dropped.recorder.waitForExit() == 0, "stderr: \(dropped.recorder.stderr)")
        #expect(dropped.recorder.stderr.contains("\(DisplayStream.recordingDiscardedLine): "), "\(dropped.recorder.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dropped.video.path), "a discarded recording writes nothing")
        #expect(!dropped.recorder.stderr.contains("shut down"))
        await dropped.device.shutdown()

        let kept = try await Session.start("kept.mov", ["--spool=64"])
        try await kept.tap(3)
        let size = try FileManager.default.attributesOfItem(atPath: kept.video.path)[.size] as? Int
        #expect(size == 0, "nothing but the writer's claim is on disk while the frames fit the spool")
        kept.recorder.signal(SIGINT)
        #expect(try await kept.recorder.waitForExit() == 0, "stderr: \(kept.recorder.stderr)")
        let info = try MediaProbe.probe(kept.video)
        #expect(abs(info.duration - (try kept.span)) <= 1.0 / 60)
        #expect(info.frameCount == 6)  // as stopBySignal's, encoded as they came
        await kept.device.shutdown()
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

    /// Whether `pid` blocks SIGINT and SIGTERM (the `SigBlk` mask in /proc/PID/status).
    func holdsStopSignals(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
            let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        let wanted = UInt64(1) << (SIGINT - 1) | UInt64(1) << (SIGTERM - 1)
        return mask & wanted == wanted
    }

    @Test("a full disk mid-recording stops the recorder at once: exit 7, and the file decodes up to the failure")
    func diskFullStops() async throws {
        let session = try await Session.start("full.mp4", ["--quality=0"], limits: ["--fsize=400000"])
        var taps = 0
        while session.recorder.process.isRunning, taps < 60 {
            try await session.tap(1, gap: .milliseconds(300))
            taps += 1
            try await Task.sleep(for: .milliseconds(20))
        }
        // No signal: the write error alone ends the recording.
        let status = try await session.recorder.waitForExit(timeout: .seconds(10))
        #expect(status == 7, "stderr: \(session.recorder.stderr)")
        #expect(session.recorder.stderr.contains("incomplete"))
        #expect(!session.recorder.stderr.contains("Wrote "))
        let frames = try await decodedFrames(session.video)
        #expect(frames.count >= 2, "what was flushed before the failure decodes")
        await session.device.shutdown()
    }

    @Test("an encoder missing from this FFmpeg build is named, with the package that provides it")
    func missingEncoder() async throws {
        let workspace = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: workspace.registry)
        let video = workspace.file("x.mp4")
        let recorder = try ChildProcess(
            try BuildProducts.showreel,
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
        let recorder = try ChildProcess(
            try BuildProducts.showreel,
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
        let child = try ChildProcess(
            try BuildProducts.showreel, ["io", "booted", "screenshot", "--mask=black", target],
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
        let frame = try #require(try await decodedFrames(image, limit: 1).first).pixels
        #expect(frame.width == 780 && frame.height == 1688)
        #expect(frame.pixel(x: 1, y: 1).red < 20)
        let expected = await device.screenshot()
        #expect(frame.meanDifference(from: expected, rows: 600..<1600) < (kind == "jpeg" ? 3 : 0.5))
        await device.shutdown()
    }
}
