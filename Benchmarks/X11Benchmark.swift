import Foundation
import ShowreelWire
import ShowreelX11

#if canImport(Glibc)
import Glibc
#endif

/// Recording an X display: what one frame costs to capture (shared-memory grab, copy, pointer)
/// at two screen sizes, and a mostly idle minute of a headed browser recorded by Showreel
/// (frames on damage) and by ffmpeg's x11grab at 25 fps, both at once on the same display:
/// CPU seconds and file size for each.
enum X11Benchmark {
    /// - Parameters:
    ///   - showreel: the `showreel` executable.
    ///   - seconds: how long the browser minute lasts (60 by default).
    static func run(showreel: String, work: String, seconds: Int) throws -> [String] {
        var lines = ["Recording an X display (Xvfb, depth 24)"]
        for (width, height) in [(1280, 800), (1920, 1080)] {
            lines.append(try captureCost(width: width, height: height))
        }
        lines += try browserMinute(showreel: showreel, work: work, seconds: seconds)
        return lines
    }

    /// Frames captured back to back: wall and CPU time per frame, ours and the X server's.
    static func captureCost(width: Int, height: Int, frames: Int = 200) throws -> String {
        let server = try XvfbServer.start(width: width, height: height)
        defer { server.stop() }
        let source = try X11DisplaySource(display: server.display)
        _ = source.captureFrame()  // warm: first-touch page faults, the pointer image
        let serverBefore = processCPUSeconds(server.pid)
        let cpuBefore = threadCPUSeconds()
        let start = monotonicSeconds()
        for _ in 0..<frames { guard source.captureFrame() != nil else { throw BenchmarkError("\(server.display) went away") } }
        let wall = (monotonicSeconds() - start) / Double(frames)
        let cpu = (threadCPUSeconds() - cpuBefore) / Double(frames)
        let serverCPU = (processCPUSeconds(server.pid) - serverBefore) / Double(frames)
        return String(
            format: "  capture %dx%d: %.2f ms a frame (%.2f ms CPU in the recorder, %.2f ms in Xvfb): shm grab, BGRA copy, pointer",
            width, height, wall * 1000, cpu * 1000, serverCPU * 1000)
    }

    /// A browser showing a page that changes once every few seconds, recorded for `seconds` by
    /// both recorders at once.
    static func browserMinute(showreel: String, work: String, seconds: Int) throws -> [String] {
        guard let ffmpeg = findOnPath("ffmpeg") else { throw BenchmarkError("ffmpeg is not on PATH (apt-get install ffmpeg)") }
        guard let chromium = findOnPath("chromium") ?? findOnPath("chromium-browser") else {
            throw BenchmarkError("chromium is not on PATH (apt-get install chromium)")
        }
        let server = try XvfbServer.start(width: 1280, height: 800)
        defer { server.stop() }
        let page = URL(fileURLWithPath: work).appendingPathComponent("mostly-idle.html")
        try Data(idlePage.utf8).write(to: page)
        setenv("DISPLAY", server.display, 1)
        let browser = try SpawnedProcess.spawn(
            chromium,
            [
                "--no-sandbox", "--kiosk", "--window-position=0,0", "--window-size=1280,800", "--no-first-run", "--test-type",
                "--disable-dev-shm-usage", "--user-data-dir=\(work)/chromium-profile", page.absoluteString,
            ], stderrToNull: true)
        defer { kill(browser.pid, SIGTERM); _ = browser.wait() }
        sleep(5)  // the browser up and the page drawn: what follows is the idle part

        let ours = URL(fileURLWithPath: work).appendingPathComponent("x11-showreel.mp4")
        let theirs = URL(fileURLWithPath: work).appendingPathComponent("x11-x11grab.mp4")
        let recorder = try SpawnedProcess.spawn(showreel, ["io", server.display, "recordVideo", "--force", ours.path], stderrToNull: true)
        let grabber = try SpawnedProcess.spawn(
            ffmpeg,
            [
                "-hide_banner", "-loglevel", "error", "-y", "-f", "x11grab", "-framerate", "25", "-video_size", "1280x800",
                "-i", server.display, "-t", "\(seconds)", "-c:v", "libx264", "-preset", "ultrafast",
            ] + Scenario.recorderQuality + ["-pix_fmt", "yuv420p", theirs.path], pipeStdin: true, stderrToNull: true)
        let serverBefore = processCPUSeconds(server.pid)
        sleep(UInt32(seconds))
        kill(recorder.pid, SIGINT)
        let ourUsage = try waitWithUsage(recorder.pid, "showreel")
        let theirUsage = try waitWithUsage(grabber.pid, "ffmpeg")
        if let fd = grabber.stdinWriter { close(fd) }
        let serverCPU = processCPUSeconds(server.pid) - serverBefore
        let ourSize = fileSize(ours), theirSize = fileSize(theirs)
        let share = ourUsage / max(theirUsage, 0.001)
        BenchFigures.shared.record("x11.cpu_fraction_of_x11grab", share)
        return [
            String(
                format: "  a mostly idle headed Chromium (the page changes every 5 s), %d s at 1280x800, both recording at once:", seconds),
            String(format: "    Showreel (frames on damage): %.2f CPU s, %.0f KiB", ourUsage, Double(ourSize) / 1024),
            String(format: "    ffmpeg x11grab 25 fps:       %.2f CPU s, %.0f KiB", theirUsage, Double(theirSize) / 1024),
            String(
                format: "    Showreel uses %.0f%% of x11grab's CPU and %.0f%% of its bytes; Xvfb used %.2f CPU s for both",
                share * 100, Double(ourSize) / Double(max(theirSize, 1)) * 100, serverCPU),
            targetLine(share <= 0.25, String(format: "X display capture <= 25%% of x11grab's CPU: %.0f%%", share * 100)),
        ]
    }

    /// A page that redraws one small line every five seconds: a test waiting on something.
    static let idlePage = """
        <!doctype html><html><body style="margin:0;font:32px sans-serif;background:#f4f4f4">
        <h1 style="background:#1e5aa8;color:white;padding:40px;margin:0">Waiting for the order to ship</h1>
        <p id="status" style="padding:40px">Checked 0 times</p>
        <script>let n = 0; setInterval(() => { n += 1; document.getElementById("status").textContent = `Checked ${n} times` }, 5000)</script>
        </body></html>
        """

    /// Waits for `pid` and returns its CPU seconds (user + system, from wait4).
    private static func waitWithUsage(_ pid: pid_t, _ name: String) throws -> Double {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchmarkError("waiting for \(name): \(String(cString: strerror(errno)))") }
        }
        guard status == 0 else { throw BenchmarkError("\(name) ended with status \(status)") }
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// A process's CPU seconds so far (/proc/PID/stat utime + stime).
    private static func processCPUSeconds(_ pid: pid_t) -> Double {
        guard let stat = ProcessStat.read(pid) else { return 0 }
        return Double(stat.cpuTicks) / ProcessStat.ticksPerSecond
    }

    private static func fileSize(_ url: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    }
}
