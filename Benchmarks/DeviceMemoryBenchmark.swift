import Dispatch
import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelDevice
import ShowreelRecorder
import ShowreelRender
import ShowreelUI
import ShowreelWire
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Peak memory of a device with two recorders subscribed in-process (what `showreel demo` and
/// a test with a recording trait hold), in a child process of its own so the figure is that
/// process's whole peak.
///
/// The bound, for a W x H screen (F = W x H x 4 bytes of BGRA, 5.3 MB at 780x1688):
///   the process before the device boots (Swift, Foundation, Cairo, FFmpeg: measured, "base")
///   + the device: its latest frame and the one being rendered, 2 F
///   + per recorder: the frames in flight, its queue's capacity (`FrameQueueRecorder`: 8 frames
///     or 32 MiB, whichever is fewer: 6 F at this size), plus the one being encoded, 1 F, plus the
///     encoder's state E: the YUV 4:2:0 input frame, x264's own pictures (padded, one reference,
///     no lookahead with zerolatency), swscale's slices and the muxer's fragment. E is measured in
///     the same run: the resident growth of one recorder opened alone and fed 10 frames.
///   + the spare frame pool: freed frame buffers kept for reuse, at most 24 MiB of each frame
///     size (`PixelBuffer.spareMemoryLimit`; one size here), so that a new frame costs no page faults
/// = base + 2 F + 2 x (7 F + E) + 24 MiB. Frames are shared between the two recorders (the queues hold
/// the device's buffers, not copies), so the real peak sits under the bound; a recorder that
/// kept frames beyond its queue, or freed frames that stay resident, would break it.
enum DeviceMemoryBenchmark {
    /// Runs the child and returns the report lines.
    static func run(executable: String, work: String) throws -> [String] {
        let process = try SpawnedProcess.spawn(executable, ["--device-recorders", work], pipeStdout: true)
        let output = String(decoding: process.readAllStdout(), as: UTF8.self)
        guard process.wait() == 0, let line = output.split(separator: "\n").last,
            let figures = try? JSONDecoder().decode(Figures.self, from: Data(line.utf8))
        else {
            throw BenchmarkError("the device-with-recorders child failed: \(output)")
        }
        let frame = Double(figures.frameBytes) / 1_048_576
        let base = Double(figures.baseKiB) / 1024
        let encoder = Double(figures.encoderKiB) / 1024
        let spares = Double(PixelBuffer.spareMemoryLimit) / 1_048_576
        let bound = base + 2 * frame + 2 * (Double(figures.queueCapacity + 1) * frame + encoder) + spares
        let peak = Double(figures.peakKiB) / 1024
        BenchFigures.shared.record("memory.device_two_recorders_peak_mib", peak)
        BenchFigures.shared.record("memory.device_two_recorders_bound_mib", bound)
        return [
            "Device with two subscribed recorders (one process, \(figures.size), \(figures.frames) frames each)",
            String(
                format:
                    "  peak RSS %.1f MiB; base before boot %.1f MiB; bound %.1f MiB = base + 2 frames (device) + 2 x (%d queued + 1 encoding frames + %.1f MiB encoder state) + %.0f MiB spare frames, at %.2f MiB a frame",
                peak, base, bound, figures.queueCapacity, encoder, spares, frame),
            String(format: "  %@  peak memory within the bound: %.1f <= %.1f MiB", peak <= bound ? "PASS" : "FAIL", peak, bound),
        ]
    }

    struct Figures: Codable {
        var size: String
        var frames: Int
        var frameBytes: Int
        var queueCapacity: Int
        var baseKiB: Int
        var encoderKiB: Int
        var peakKiB: Int
    }

    /// The child: boots a device, subscribes two recorders, drives the Countries and Hello apps
    /// (pushes, taps, waits) and prints its figures as JSON.
    static func child(work: String) throws {
        // Current and high-water resident memory from /proc: ru_maxrss would carry the forked
        // parent's peak across exec.
        let base = residentKiB()
        let result = Mutex<Result<Figures, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let outcome: Result<Figures, any Error>
            do { outcome = .success(try await drive(work: work, base: base)) } catch { outcome = .failure(error) }
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        let figures = try result.withLock { try $0!.get() }
        FileHandle.standardOutput.write(try JSONEncoder().encode(figures) + Data("\n".utf8))
    }

    private static func drive(work: String, base: Int) async throws -> Figures {
        let home = URL(fileURLWithPath: work).appendingPathComponent("device-home")
        let device = try Device(apps: ShowcaseCatalog.apps, registry: DeviceRegistry(home: home))
        let profile = device.profile
        let encoder = try encoderState(work: work, screen: await device.screenshot())
        let sessions = try (0..<2).map { index in
            try RecordingSession(
                url: URL(fileURLWithPath: work).appendingPathComponent("two-\(index).mp4"),
                info: device.display.info, framesAreShared: true)
        }
        let subscriptions = sessions.map { device.display.subscribe($0) }
        let canada = ElementQuery(steps: [.init(axis: .descendants, type: .cell, key: "Canada")])
        for _ in 0..<4 {
            try await device.launch(
                CountriesApp.bundleIdentifier, context: LaunchContext(arguments: ["--countries-datasource", "local-mock"]))
            try await device.wait(.milliseconds(300))
            try await device.tap(canada)
            try await device.wait(.seconds(1))  // the push animates, a frame per 1/60 s
            try await device.launch(HelloApp.bundleIdentifier)
            for _ in 0..<5 {
                try await device.tap(.button("tapButton"))
                try await device.wait(.milliseconds(200))
            }
        }
        for subscription in subscriptions { subscription.stop() }
        let summaries = try sessions.map { try $0.finish() }
        await device.shutdown()
        let queue = FrameQueueRecorder.capacity(forFrameBytes: profile.pixelWidth * profile.pixelHeight * 4)
        return Figures(
            size: "\(profile.pixelWidth)x\(profile.pixelHeight)", frames: summaries[0].framesEncoded,
            frameBytes: profile.pixelWidth * profile.pixelHeight * 4, queueCapacity: queue,
            baseKiB: base, encoderKiB: encoder, peakKiB: peakResidentKiB())
    }

    /// The resident growth of one recorder opened alone and fed 10 frames of `screen`, in KiB.
    private static func encoderState(work: String, screen: PixelBuffer) throws -> Int {
        let before = residentKiB()
        let url = URL(fileURLWithPath: work).appendingPathComponent("encoder-state.mp4")
        let recorder = try VideoRecorder(url: url, width: screen.width, height: screen.height)
        for index in 0..<10 { try recorder.append(Frame(pixels: screen, presentationTime: .milliseconds(100 * index))) }
        let grown = residentKiB() - before
        try recorder.finish(stopTime: .seconds(1))
        try? FileManager.default.removeItem(at: url)
        return max(0, grown)
    }

    /// This process's peak resident memory (VmHWM, which starts afresh at exec).
    private static func peakResidentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Resident memory now (not the peak), from /proc/self/statm.
    static func residentKiB() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }
}
