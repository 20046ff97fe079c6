import Foundation
import ShowreelGraphics
import ShowreelRecorder
import ShowreelRender
import ShowreelTestSupport
import ShowreelTesting
import ShowreelWire
import ShowreelX11
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Recording X displays: a real Xvfb, the real `showreel` process stopped by real signals, every
/// file read back through FFmpeg.
@Suite("X display recording")
struct X11RecordingTests {
    /// A display filled with one colour, and a recorder recording it into `file` (started).
    func recordFilledDisplay(_ file: String, red: UInt8, green: UInt8, blue: UInt8) async throws
        -> (workspace: Workspace, display: TestDisplay, video: URL, recorder: ChildProcess)
    {
        let workspace = try Workspace()
        let display = try TestDisplay()
        try display.fill(red: red, green: green, blue: blue)
        let video = workspace.file(file)
        return (workspace, display, video, try await record(display.name, video, workspace))
    }

    /// Starts a recorder of `display` (under `prlimit` with `limits`) and waits for its first frame.
    func record(_ display: String, _ video: URL, _ workspace: Workspace, options: [String] = [], limits: [String] = [])
        async throws -> ChildProcess
    {
        let arguments = [try BuildProducts.showreel.path, "io", display, "recordVideo"] + options + [video.path]
        let recorder =
            limits.isEmpty
            ? try ChildProcess(
                try BuildProducts.showreel, Array(arguments.dropFirst()), environment: workspace.environment,
                in: workspace, name: "rec")
            : try ChildProcess(
                URL(fileURLWithPath: "/usr/bin/prlimit"), limits + ["--"] + arguments,
                environment: workspace.environment, in: workspace, name: "rec")
        try await eventually("Recording started", timeout: .seconds(60)) {
            guard recorder.process.isRunning else { throw TestFailure("the recorder exited: \(recorder.stderr)") }
            return recorder.stderr.contains("Recording started")
        }
        return recorder
    }

    @Test(
        "recordVideo on an X display: Recording started, SIGINT or SIGTERM finalises with exit 0, frames show the screen",
        arguments: [(SIGINT, "x.mp4"), (SIGTERM, "x.mov")])
    func recordAndStop(signal: Int32, file: String) async throws {
        let launched = ContinuousClock.now
        let (workspace, display, video, recorder) = try await recordFilledDisplay(file, red: 30, green: 30, blue: 200)
        let started = ContinuousClock.now  // a little after the first frame: "Recording started" is polled
        try await Task.sleep(for: .milliseconds(700))
        try display.fill(red: 230, green: 200, blue: 20)
        try await Task.sleep(for: .milliseconds(700))
        recorder.signal(signal)
        let span = (ContinuousClock.now - started).seconds
        #expect(try await recorder.waitForExit() == 0, "stderr: \(recorder.stderr)")
        let lifetime = (ContinuousClock.now - launched).seconds
        let info = try MediaProbe.probe(video)
        #expect(info.width == 320 && info.height == 240)
        // The true duration: at least the span seen from here, at most the recorder's whole life.
        #expect(info.duration >= span - 0.3 && info.duration <= lifetime, "\(info.duration) s for \(span) s (recorder ran \(lifetime) s)")
        let frames = try await decodedFrames(video)
        #expect(frames.count == info.frameCount)
        #expect(pixel(try #require(frames.first).pixels, isNear: 30, 30, 200, x: 5, y: 5))
        #expect(pixel(try #require(frames.last).pixels, isNear: 230, 200, 20, x: 5, y: 5))
        #expect(recorder.stderr.contains("Wrote \(video.path)"))
        withExtendedLifetime((workspace, display)) {}
    }

    @Test("kill -9 mid-recording leaves a playable fragmented file missing at most the last second")
    func killNine() async throws {
        let (workspace, display, video, recorder) = try await recordFilledDisplay("killed.mp4", red: 0, green: 0, blue: 0)
        let started = ContinuousClock.now
        for index in 0..<4 {
            try display.fill(red: UInt8(40 * index), green: 100, blue: 100)
            try await Task.sleep(for: .milliseconds(400))
        }
        try await Task.sleep(for: .seconds(2))  // idle: no frames captured, the held one kept on disk
        let frames = try await RecorderProcessTests.killNineLosesUnderASecond(recorder, video, startedAt: started)
        #expect(frames.count >= 5)
        withExtendedLifetime((workspace, display)) {}
    }

    @Test("a full disk stops an X display's recording at once: exit 7, and the file decodes up to the failure")
    func diskFull() async throws {
        let workspace = try Workspace()
        let display = try TestDisplay()
        let video = workspace.file("full.mp4")
        // RLIMIT_FSIZE makes writes fail (EFBIG) past 400 kB, as a full disk fails them with ENOSPC.
        let recorder = try await record(display.name, video, workspace, options: ["--quality=0"], limits: ["--fsize=400000"])
        var rounds = 0
        while recorder.process.isRunning, rounds < 200 {
            try display.scribble()
            rounds += 1
            try await Task.sleep(for: .milliseconds(60))
        }
        // No signal: the write error alone ends the recording.
        #expect(try await recorder.waitForExit(timeout: .seconds(30)) == 7, "stderr: \(recorder.stderr)")
        #expect(recorder.stderr.contains("incomplete"))
        #expect(try await decodedFrames(video).count >= 2, "what was flushed before the failure decodes")
    }

    @Test("a display that does not exist is a clear error, with no file and no hang")
    func missingDisplay() async throws {
        let workspace = try Workspace()
        let video = workspace.file("none.mp4")
        for operation in [["recordVideo", video.path], ["screenshot", workspace.file("none.png").path]] {
            let process = try ChildProcess(
                try BuildProducts.showreel, ["io", ":87"] + operation,
                environment: workspace.environment, in: workspace, name: "missing")
            #expect(try await process.waitForExit() == 3)
            #expect(process.stderr.contains("Cannot open X display :87"), "stderr: \(process.stderr)")
            #expect(process.stderr.contains("showreel display start"))
        }
        #expect(!FileManager.default.fileExists(atPath: video.path))
    }

    @Test("a display that closes mid-recording ends it with an error and a finalised file")
    func displayCloses() async throws {
        let (workspace, display, video, recorder) = try await recordFilledDisplay("closed.mov", red: 10, green: 150, blue: 10)
        try await Task.sleep(for: .milliseconds(500))
        display.server.stop()
        #expect(try await recorder.waitForExit() == 8, "stderr: \(recorder.stderr)")
        #expect(recorder.stderr.contains("X display \(display.name) closed during the recording"))
        let frames = try await decodedFrames(video)  // a .mov is readable only once finalised
        #expect(pixel(try #require(frames.first).pixels, isNear: 10, 150, 10, x: 5, y: 5))
        withExtendedLifetime(workspace) {}
    }

    @Test("display start registers an Xvfb that io, booted and device list find; display stop ends it")
    func displayLifecycle() async throws {
        let workspace = try Workspace()
        let showreel = try BuildProducts.showreel
        func run(_ arguments: [String]) async throws -> ChildProcess {
            let process = try ChildProcess(showreel, arguments, environment: workspace.environment, in: workspace, name: arguments[1])
            #expect(try await process.waitForExit() == 0, "\(arguments): \(process.stderr)")
            return process
        }
        let start = try await run(["display", "start", "--size", "400x300"])
        let name = start.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(name.hasPrefix(":"))
        let record = try workspace.registry.resolve("booted")
        #expect(record.x11Display == name)
        #expect(try await run(["device", "list"]).stdout.contains("\(name)  display 400x300x24  Booted"))
        let png = workspace.file("shot.png")
        _ = try await run(["io", "booted", "screenshot", png.path])
        let shot = try PixelBuffer(pngData: Array(try Data(contentsOf: png)))
        #expect(shot.width == 400 && shot.height == 300)
        #expect(shot.pixel(x: 1, y: 1).alpha == 255)
        _ = try await run(["display", "stop", name])
        #expect(!XvfbServer.isRunning(record.pid), "Xvfb still runs")
        #expect(workspace.registry.records().isEmpty)
        let bad = try ChildProcess(
            showreel, ["display", "start", "--size", "big"], environment: workspace.environment,
            in: workspace, name: "bad")
        #expect(try await bad.waitForExit() == 64)
        #expect(bad.stderr.contains("--size 'big' is not WIDTHxHEIGHT"))
        var withoutXvfb = workspace.environment
        withoutXvfb["PATH"] = "/nonexistent"
        let missing = try ChildProcess(showreel, ["display", "start"], environment: withoutXvfb, in: workspace, name: "missing")
        #expect(try await missing.waitForExit() == 1)
        #expect(missing.stderr.contains("Xvfb is not installed"), "\(missing.stderr)")
        #expect(workspace.registry.records().isEmpty, "a failed start leaves no entry")
    }

    @Test("display start --display :N takes that number; a number another server holds is refused in one sentence")
    func displayNumberAsked() async throws {
        let workspace = try Workspace()
        let showreel = try BuildProducts.showreel
        // Another X server on some number, as a CI job's own Xvfb would be.
        let other = try TestDisplay()
        let taken = other.name
        let refused = try ChildProcess(
            showreel, ["display", "start", "--display", taken], environment: workspace.environment, in: workspace, name: "taken")
        #expect(try await refused.waitForExit() == 1)
        #expect(refused.stderr.contains("Display \(taken) is in use by another X server"), "\(refused.stderr)")
        #expect(workspace.registry.records().isEmpty, "a refused start leaves no entry")
        // A free number, far from those `display start` hands out (the lowest free ones).
        let number = try #require((700..<900).first { !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") })
        let start = try ChildProcess(
            showreel, ["display", "start", "--display", ":\(number)", "--size", "320x200"], environment: workspace.environment,
            in: workspace, name: "start")
        #expect(try await start.waitForExit() == 0, "\(start.stderr)")
        #expect(start.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == ":\(number)")
        #expect(try workspace.registry.resolve(":\(number)").x11Display == ":\(number)")
        let stop = try ChildProcess(
            showreel, ["display", "stop", ":\(number)"], environment: workspace.environment, in: workspace, name: "stop")
        #expect(try await stop.waitForExit() == 0)
        let bad = try ChildProcess(
            showreel, ["display", "start", "--display", "nope"], environment: workspace.environment, in: workspace, name: "bad")
        #expect(try await bad.waitForExit() == 64)
        #expect(bad.stderr.contains("--display 'nope' is not a display number"))
    }

    @Test("a screen resized while recorded (RandR, xrandr) goes on in the video, scaled to the size it started with")
    func resizedScreen() async throws {
        let (workspace, display, video, recorder) = try await recordFilledDisplay("resized.mp4", red: 20, green: 40, blue: 220)
        func xrandr(_ name: String, _ arguments: [String]) async throws {
            let process = try ChildProcess(
                URL(fileURLWithPath: "/usr/bin/xrandr"), ["-display", display.name] + arguments, environment: workspace.environment,
                in: workspace, name: name)
            #expect(try await process.waitForExit() == 0, "xrandr \(arguments): \(process.stderr)")
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xrandr") else {
            throw TestFailure("no xrandr: run scripts/install-deps (it installs Debian's x11-xserver-utils)")
        }
        try await Task.sleep(for: .milliseconds(600))
        // Xvfb's screen can shrink below the size it started with (and grow back to it).
        try await xrandr("newmode", ["--newmode", "160x120", "1.0", "160", "161", "162", "163", "120", "121", "122", "123"])
        try await xrandr("addmode", ["--addmode", "screen", "160x120"])
        try await xrandr("small", ["--output", "screen", "--mode", "160x120"])
        try await Task.sleep(for: .milliseconds(300))
        try display.fill(red: 230, green: 30, blue: 30)
        try await Task.sleep(for: .milliseconds(600))
        try await xrandr("large", ["--output", "screen", "--mode", "320x240"])
        try await Task.sleep(for: .milliseconds(300))
        try display.fill(red: 30, green: 200, blue: 40)
        try await Task.sleep(for: .milliseconds(600))
        recorder.signal(SIGINT)
        #expect(try await recorder.waitForExit() == 0, "stderr: \(recorder.stderr)")
        let frames = try await offPool { try FrameDecoder.decodeFrames(video) }
        let info = try await offPool { try MediaProbe.probe(video) }
        #expect(info.width == 320 && info.height == 240, "the video keeps its first size")
        #expect(pixel(try #require(frames.first).pixels, isNear: 20, 40, 220, x: 5, y: 5))
        #expect(frames.contains { pixel($0.pixels, isNear: 230, 30, 30, x: 5, y: 5) }, "the small screen's red is in the video")
        let last = try #require(frames.last).pixels
        #expect(pixel(last, isNear: 30, 200, 40, x: 5, y: 5) && pixel(last, isNear: 30, 200, 40, x: 314, y: 234), "not frozen")
    }

    @Test("kill -9 of a display's Xvfb: display start on its number, then display stop by that name, work; the dead entry is reaped")
    func killedDisplayIsReaped() async throws {
        let workspace = try Workspace()
        let showreel = try BuildProducts.showreel
        func run(_ name: String, _ arguments: [String]) async throws -> ChildProcess {
            let process = try ChildProcess(showreel, arguments, environment: workspace.environment, in: workspace, name: name)
            _ = try await process.waitForExit()
            return process
        }
        let number = try #require((900..<1100).first { !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") })
        let first = try await run("start-1", ["display", "start", "--display", ":\(number)", "--size", "320x200"])
        #expect(first.terminationStatus == 0, "\(first.stderr)")
        let dead = try workspace.registry.resolve(":\(number)")
        kill(dead.pid, SIGKILL)
        try await eventually("the killed Xvfb to be gone") { !XvfbServer.isRunning(dead.pid) }
        let second = try await run("start-2", ["display", "start", "--display", ":\(number)", "--size", "320x200"])
        #expect(second.terminationStatus == 0, "\(second.stderr)")
        let records = workspace.registry.records()
        #expect(records.count == 1 && records.first?.udid != dead.udid, "the dead display's entry is reaped: \(records)")
        let live = try #require(records.first)
        let stop = try await run("stop", ["display", "stop", ":\(number)"])
        #expect(stop.terminationStatus == 0, "\(stop.stderr)")
        #expect(!stop.stderr.contains("'booted'"), "\(stop.stderr)")
        #expect(!XvfbServer.isRunning(live.pid), "the second Xvfb still runs")
        #expect(workspace.registry.records().isEmpty)
    }

    @Test("the iOS workflow unchanged: /launch `showreel io :N recordVideo`, /interrupt; the file is final when it answers")
    func throughTheTunnelHost() async throws {
        let workspace = try Workspace()
        let display = try TestDisplay()
        try display.fill(red: 200, green: 100, blue: 0)
        let showreel = try BuildProducts.showreel
        let host = try ChildProcess(showreel, ["host", "--port", "0"], environment: workspace.environment, in: workspace, name: "host")
        let client = TunnelHostClient(baseURL: URL(string: "http://127.0.0.1:\(try await host.listeningPort())")!)
        let video = workspace.file("through host.mov")  // a .mov: readable only once finalised
        let id = try await client.launch("\(showreel.path) io \(display.name) recordVideo --codec=h264 '\(video.path)'")
        try await eventually("Recording started", timeout: .seconds(60)) {
            try await client.output(id, stream: "stderr").contains("Recording started")
        }
        try await Task.sleep(for: .milliseconds(500))
        try display.fill(red: 0, green: 100, blue: 200)
        try await Task.sleep(for: .milliseconds(500))
        guard case let .finished(exitStatus, _, _, stderr) = try await client.interrupt(id) else {
            throw TestFailure("the recorder was still running when /interrupt answered")
        }
        #expect(exitStatus == 0, "recorder stderr: \(stderr)")
        let frames = try await decodedFrames(video)
        #expect(pixel(try #require(frames.first).pixels, isNear: 200, 100, 0, x: 5, y: 5))
        #expect(pixel(try #require(frames.last).pixels, isNear: 0, 100, 200, x: 5, y: 5))

        // The /v1 way, as HostRecording drives it: interrupt with wait.
        let fragmented = workspace.file("v1.mp4")
        let recording = try await HostRecording.start(
            host: client, argv: [showreel.path, "io", display.name, "recordVideo", fragmented.path])
        try await recording.stop()
        #expect(try MediaProbe.probe(fragmented).frameCount >= 1)
        host.signal(SIGTERM)
        #expect(try await host.waitForExit() == 0)
    }
}
