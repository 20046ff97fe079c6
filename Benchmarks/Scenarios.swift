import Foundation
import ShowreelRecorder
import ShowreelRender
import ShowreelUI

#if canImport(Glibc)
import Glibc
#endif

/// The rendered session on disk: raw BGRA frames back to back, and when each became visible.
struct FrameSet: Codable {
    var width: Int
    var height: Int
    var rawPath: String
    /// Presentation time of each changed frame, microseconds from the first.
    var times: [Int64]
    /// When the recording stops (the last frame is held until then), microseconds.
    var stop: Int64
    /// Idle stretches of the script, seconds (no frame inside).
    var idle: [[Double]]
    /// Where each frame may differ from the one before, as the device tells its recorders
    /// (`WindowScene.changedAreas`): rows then columns, `[top, bottom, left, right]` each; nil
    /// for a frame that may differ anywhere (the first).
    var areas: [[[Int]]?]

    func changedAreas(_ index: Int) -> [PixelArea]? {
        areas[index].map { $0.map { PixelArea(rows: $0[0]..<$0[1], columns: $0[2]..<$0[3]) } }
    }

    var frameBytes: Int { width * height * 4 }
    var count: Int { times.count }

    static func load(_ path: String) throws -> FrameSet {
        try JSONDecoder().decode(FrameSet.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

/// What a scenario child measured, printed as one JSON line on its stdout.
struct ScenarioResult: Codable {
    var wallSeconds: Double
    /// This process during the measured phase (peak memory: the whole process lifetime).
    var own: Usage
    /// Waited-for children (the ffmpeg command line), if any.
    var children: Usage?
    var framesIn: Int
    var framesEncoded: Int
    var framesDropped: Int
    var fileBytes: Int64
    /// Render scenario only: thread CPU seconds spent in `WindowScene.render`, frames rendered.
    var renderCPUSeconds: Double?
    var framesRendered: Int?
    /// In-process scenarios: frame buffers the producer cycles through (queued + encoding + loading).
    var inFlight: Int?
    /// Limit scenario: wall seconds converting every frame to YUV before the encoder ran (not in `wallSeconds`).
    var conversionSeconds: Double?

    var cpuSeconds: Double { own.cpuSeconds + (children?.cpuSeconds ?? 0) }
}

enum Scenario {
    /// Buffers the producer cycles through for the in-process recorder: one being encoded,
    /// up to two waiting in the recorder's queue (the producer waits for a free one).
    static let inFlightFrames = 3

    /// Child entry point: `--scenario NAME KEY VALUE...`.
    static func run(_ arguments: [String]) throws {
        guard let name = arguments.first else { throw BenchmarkError("--scenario needs a name") }
        var options: [String: String] = [:]
        var index = 1
        while index + 1 < arguments.count {
            options[arguments[index]] = arguments[index + 1]
            index += 2
        }
        func option(_ key: String) throws -> String {
            guard let value = options[key] else { throw BenchmarkError("--scenario \(name) needs \(key)") }
            return value
        }
        let result: ScenarioResult
        switch name {
        case "render":
            guard let profile = DeviceProfile.named(try option("--profile")) else { throw BenchmarkError("unknown profile") }
            result = try render(profile: profile, directory: try option("--dir"), indexPath: try option("--index"))
        case "feed":
            result = try feed(frames: try FrameSet.load(try option("--index")))
        case "inproc":
            result = try inProcess(
                frames: try FrameSet.load(try option("--index")), output: try option("--out"),
                fillQueue: options["--fill-queue"] == "1", preloaded: options["--preload"] == "1")
        case "limit":
            result = try encoderLimit(frames: try FrameSet.load(try option("--index")))
        case "cfr":
            result = try constantRate(
                frames: try FrameSet.load(try option("--index")), output: try option("--out"),
                fps: Int(try option("--fps")) ?? 25)
        case "cli":
            result = try commandLine(
                frames: try FrameSet.load(try option("--index")), output: try option("--out"),
                ffmpeg: try option("--ffmpeg"), fps: Int(try option("--fps")) ?? 60,
                extra: options["--extra"].map { $0.split(separator: " ").map(String.init) } ?? [])
        default:
            throw BenchmarkError("unknown scenario \(name)")
        }
        let data = try JSONEncoder().encode(result)
        FileHandle.standardOutput.write(data)
        FileHandle.standardOutput.write(Data("\n".utf8))
    }

    // MARK: - Render: the script, into raw frames on disk

    static func render(profile: DeviceProfile, directory: String, indexPath: String) throws -> ScenarioResult {
        let start = Usage.current()
        let wallStart = monotonicSeconds()
        let (events, stop, idle) = ScriptedSession.timeline()
        let session = ScriptedSession.Scene(profile: profile)
        let width = profile.pixelWidth, height = profile.pixelHeight
        let rawPath = "\(directory)/frames-\(width)x\(height).bgra"
        let fd = open(rawPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw BenchmarkError("cannot create \(rawPath): \(String(cString: strerror(errno)))") }
        defer { close(fd) }

        var shown = PixelBuffer(width: width, height: height)
        var next = PixelBuffer(width: width, height: height)
        var renderCPU = 0.0
        var rendered = 0
        func draw(into buffer: PixelBuffer) {
            let before = threadCPUSeconds()
            session.scene.render(into: buffer)
            renderCPU += threadCPUSeconds() - before
            rendered += 1
        }
        func append(_ buffer: PixelBuffer) throws {
            try buffer.withUnsafeBytes { try writeFully(fd, $0.baseAddress!, buffer.byteCount) }
        }
        var times: [Int64] = [0]
        var areas: [[[Int]]?] = [nil]
        draw(into: shown)
        try append(shown)
        for event in events {
            event.apply(session)
            guard session.scene.needsRender else { continue }
            draw(into: next)
            // Only a real change is a frame: the device sends frames when the screen changed.
            guard !next.hasSamePixels(as: shown) else { continue }
            try append(next)
            times.append(event.time.microsecondsValue)
            areas.append(
                session.scene.changedAreas.map {
                    $0.map { [$0.rows.lowerBound, $0.rows.upperBound, $0.columns.lowerBound, $0.columns.upperBound] }
                })
            swap(&shown, &next)
        }
        let set = FrameSet(
            width: width, height: height, rawPath: rawPath, times: times, stop: stop.microsecondsValue,
            idle: idle.map { [$0.lowerBound, $0.upperBound] }, areas: areas)
        try JSONEncoder().encode(set).write(to: URL(fileURLWithPath: indexPath))
        return ScenarioResult(
            wallSeconds: monotonicSeconds() - wallStart, own: Usage.current().since(start), children: nil,
            framesIn: times.count, framesEncoded: 0, framesDropped: 0, fileBytes: Int64(times.count * width * height * 4),
            renderCPUSeconds: renderCPU, framesRendered: rendered)
    }

    // MARK: - Frame source shared by every encoder

    /// Reads frame `index` of the raw file into `buffer` (one copy from the page cache, the same in every path).
    static func load(_ frames: FrameSet, _ fd: Int32, index: Int, into buffer: PixelBuffer) throws {
        try buffer.withUnsafeMutableBytes {
            try readFully(fd, $0.baseAddress!, frames.frameBytes, at: index * frames.frameBytes)
        }
    }

    static func openFrames(_ frames: FrameSet) throws -> Int32 {
        let fd = open(frames.rawPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw BenchmarkError("cannot open \(frames.rawPath)") }
        return fd
    }

    /// A small pool of frame buffers; a buffer is reused once the recorder let go of it.
    final class BufferPool {
        private var buffers: [PixelBuffer]
        private(set) var waits = 0

        init(count: Int, width: Int, height: Int) {
            buffers = (0..<count).map { _ in PixelBuffer(width: width, height: height) }
        }

        /// A buffer nobody else references (waits for the encoder to release one).
        func free() -> PixelBuffer {
            while true {
                for index in buffers.indices where isKnownUniquelyReferenced(&buffers[index]) {
                    return buffers[index]
                }
                waits += 1
                usleep(100)
            }
        }
    }

    // MARK: - Baseline: reading frames into the pool, no encoder

    static func feed(frames: FrameSet) throws -> ScenarioResult {
        let fd = try openFrames(frames)
        defer { close(fd) }
        let pool = BufferPool(count: inFlightFrames, width: frames.width, height: frames.height)
        let start = Usage.current()
        let wallStart = monotonicSeconds()
        var sink: [Frame] = []
        for index in 0..<frames.count {
            let buffer = pool.free()
            try load(frames, fd, index: index, into: buffer)
            sink.append(Frame(pixels: buffer, presentationTime: .microseconds(frames.times[index])))
            if sink.count >= inFlightFrames - 1 { sink.removeFirst() }
        }
        sink.removeAll()
        return ScenarioResult(
            wallSeconds: monotonicSeconds() - wallStart, own: Usage.current().since(start), children: nil,
            framesIn: frames.count, framesEncoded: 0, framesDropped: 0, fileBytes: 0)
    }

    // MARK: - In-process: FrameQueueRecorder (VideoRecorder behind its queue and thread)

    /// `fillQueue` false: the producer keeps one frame queued ahead of the encoder (a device that
    /// renders no faster than the encoder encodes). True: it keeps the recorder's queue full without
    /// overflowing it (an encoder that has fallen behind), the recorder's worst case for memory.
    /// `preloaded`: every frame is read into memory before the clock starts, so the producer only
    /// hands frames over, waiting for room in the queue as a virtual-clock device does (what the
    /// limit is measured against: neither side reads a file, nor polls). Each frame comes with
    /// the areas the device says changed.
    static func inProcess(frames: FrameSet, output: String, fillQueue: Bool = false, preloaded: Bool = false) throws -> ScenarioResult {
        let fd = try openFrames(frames)
        defer { close(fd) }
        try? FileManager.default.removeItem(atPath: output)
        var loaded: [PixelBuffer] = []
        if preloaded {
            for index in 0..<frames.count {
                let buffer = PixelBuffer(width: frames.width, height: frames.height, zeroed: false)
                try load(frames, fd, index: index, into: buffer)
                loaded.append(buffer)
            }
        }
        let start = Usage.current()
        let wallStart = monotonicSeconds()
        let recorder = try FrameQueueRecorder(url: URL(fileURLWithPath: output), width: frames.width, height: frames.height)
        let ahead = fillQueue ? recorder.capacity : inFlightFrames - 2
        // Queued frames, the one being encoded, the one being loaded.
        let pool = BufferPool(count: preloaded ? 0 : ahead + 2, width: frames.width, height: frames.height)
        var refused = 0
        for index in 0..<frames.count {
            let buffer: PixelBuffer
            if preloaded {
                buffer = loaded[index]
            } else {
                buffer = pool.free()
                try load(frames, fd, index: index, into: buffer)
            }
            let frame = Frame(
                pixels: buffer, presentationTime: .microseconds(frames.times[index]), changedAreas: frames.changedAreas(index))
            if preloaded {
                if !recorder.submitWaiting(frame) { refused += 1 }
                continue
            }
            while recorder.queuedFrames >= ahead { usleep(100) }
            if !recorder.submit(frame) { refused += 1 }
        }
        let summary = try recorder.finish(stopTime: .microseconds(frames.stop))
        let wall = monotonicSeconds() - wallStart
        let usage = Usage.current().since(start)
        var result = ScenarioResult(
            wallSeconds: wall, own: usage, children: nil, framesIn: frames.count,
            framesEncoded: summary.framesEncoded, framesDropped: summary.framesDropped + refused,
            fileBytes: summary.fileSize)
        result.inFlight = preloaded ? frames.count : ahead + 2
        return result
    }

    // MARK: - The limit: libx264 alone, on pictures already in YUV

    /// Every frame converted first (timed apart), then only the encoder, set up as the recorder's,
    /// at the recorder's timestamps: `wallSeconds` is open encoder .. last packet, nothing else.
    static func encoderLimit(frames: FrameSet) throws -> ScenarioResult {
        let fd = try openFrames(frames)
        defer { close(fd) }
        let limit = try EncoderLimit(width: frames.width, height: frames.height)
        let buffer = PixelBuffer(width: frames.width, height: frames.height)
        var conversion = 0.0
        for index in 0..<frames.count {
            try load(frames, fd, index: index, into: buffer)
            guard let took = try limit.add(buffer, at: .microseconds(frames.times[index])) else {
                throw BenchmarkError("could not convert frame \(index)")
            }
            conversion += took.seconds
        }
        let start = Usage.current()
        let wallStart = monotonicSeconds()
        let made = try limit.encodeAll()
        var result = ScenarioResult(
            wallSeconds: monotonicSeconds() - wallStart, own: Usage.current().since(start), children: nil, framesIn: frames.count,
            framesEncoded: made.packets, framesDropped: 0, fileBytes: Int64(made.bytes))
        result.conversionSeconds = conversion
        return result
    }

    /// A constant-rate recorder: the screen as it is at every 1/fps tick, idle or not, through
    /// the same in-process encoder (so only the frame policy differs).
    static func constantRate(frames: FrameSet, output: String, fps: Int) throws -> ScenarioResult {
        let fd = try openFrames(frames)
        defer { close(fd) }
        let pool = BufferPool(count: inFlightFrames, width: frames.width, height: frames.height)
        try? FileManager.default.removeItem(atPath: output)
        let ticks = Int((Double(frames.stop) * Double(fps) / 1e6).rounded(.up))
        let start = Usage.current()
        let wallStart = monotonicSeconds()
        let recorder = try FrameQueueRecorder(url: URL(fileURLWithPath: output), width: frames.width, height: frames.height)
        var refused = 0
        var shownIndex = -1
        var shown: PixelBuffer?
        for tick in 0..<ticks {
            let time = Int64(tick) * 1_000_000 / Int64(fps)
            var latest = max(0, shownIndex)
            while latest + 1 < frames.count, frames.times[latest + 1] <= time { latest += 1 }
            if latest != shownIndex || shown == nil {
                shown = nil
                let buffer = pool.free()
                try load(frames, fd, index: latest, into: buffer)
                shown = buffer
                shownIndex = latest
            }
            if !recorder.submit(Frame(pixels: shown!, presentationTime: .microseconds(time))) { refused += 1 }
            // Repeated frames share one buffer; still wait for the encoder so the queue never overflows.
            while recorder.queuedFrames >= inFlightFrames - 1 { usleep(100) }
        }
        let summary = try recorder.finish(stopTime: .microseconds(Int64(ticks) * 1_000_000 / Int64(fps)))
        let wall = monotonicSeconds() - wallStart
        return ScenarioResult(
            wallSeconds: wall, own: Usage.current().since(start), children: nil, framesIn: ticks,
            framesEncoded: summary.framesEncoded, framesDropped: summary.framesDropped + refused,
            fileBytes: summary.fileSize)
    }

    // MARK: - The ffmpeg command line, fed raw BGRA through a pipe

    /// The rate control every recording uses (`VideoCodec.qualityOption`), for the command line
    /// it is measured against: `-qp 20`.
    static let recorderQuality = ["-\(VideoCodec.h264.qualityOption)", "\(VideoCodec.h264.defaultQuality)"]

    static func ffmpegArguments(frames: FrameSet, fps: Int, output: String, extra: [String]) -> [String] {
        [
            "-hide_banner", "-loglevel", "error", "-nostdin",
            "-f", "rawvideo", "-pix_fmt", "bgra", "-s", "\(frames.width)x\(frames.height)", "-framerate", "\(fps)", "-i", "-",
            "-c:v", "libx264", "-preset", "ultrafast",
        ] + recorderQuality + extra + ["-pix_fmt", "yuv420p", "-y", output]
    }

    static func commandLine(frames: FrameSet, output: String, ffmpeg: String, fps: Int, extra: [String]) throws -> ScenarioResult {
        let fd = try openFrames(frames)
        defer { close(fd) }
        let buffer = PixelBuffer(width: frames.width, height: frames.height)
        try? FileManager.default.removeItem(atPath: output)
        signal(SIGPIPE, SIG_IGN)
        let start = Usage.current()
        let childrenStart = Usage.current(children: true)
        let wallStart = monotonicSeconds()
        let process = try SpawnedProcess.spawn(
            ffmpeg, ffmpegArguments(frames: frames, fps: fps, output: output, extra: extra),
            pipeStdin: true)
        let pipe = process.stdinWriter!
        // The biggest pipe an unprivileged process may ask for: fewer wake-ups for ffmpeg.
        _ = fcntl(pipe, F_SETPIPE_SZ, 1 << 20)
        var failure: Error?
        for index in 0..<frames.count {
            do {
                try load(frames, fd, index: index, into: buffer)
                try buffer.withUnsafeBytes { try writeFully(pipe, $0.baseAddress!, frames.frameBytes) }
            } catch {
                failure = error
                break
            }
        }
        close(pipe)
        let status = process.wait()
        let wall = monotonicSeconds() - wallStart
        guard status == 0 else { throw BenchmarkError("ffmpeg exited with status \(status)") }
        if let failure { throw failure }
        let own = Usage.current().since(start)
        let children = Usage.current(children: true).since(childrenStart)
        let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int64) ?? 0
        return ScenarioResult(
            wallSeconds: wall, own: own, children: children, framesIn: frames.count,
            framesEncoded: frames.count, framesDropped: 0, fileBytes: size)
    }
}
