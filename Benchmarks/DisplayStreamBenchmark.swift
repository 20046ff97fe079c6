import Foundation
import ShowreelDevice
import ShowreelRender
import ShowreelWire

/// Frame transport from a device to a recorder in another process, over the display stream.
/// Target: at least 200 frames/s of 780x1688 BGRA (5.3 MB a frame) to one subscriber.
enum DisplayStreamBenchmark {
    static let frameCount = 600
    static let target = 200.0

    /// Runs the device here and a subscriber as a child process; returns the report lines.
    static func run(executable: String) throws -> [String] {
        let home = URL(fileURLWithPath: "/tmp/srb-\(getpid())")
        defer { try? FileManager.default.removeItem(at: home) }
        let device = try Device(apps: [], registry: DeviceRegistry(home: home))
        let profile = device.profile
        // A few distinct screens, cycled: transport cost does not depend on content.
        let screens = (0..<4).map { index -> PixelBuffer in
            let pixels = PixelBuffer(width: profile.pixelWidth, height: profile.pixelHeight)
            _ = pixels.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: UInt8(40 * index + 20)) }
            return pixels
        }
        let output = Pipe()
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = ["--display-subscriber", device.display.socketPath, String(frameCount)]
        child.standardOutput = output
        try child.run()
        // Wait for the subscriber, then publish as fast as the stream takes frames.
        while device.display.subscriberCount == 0 { Thread.sleep(forTimeInterval: 0.005) }
        let start = ContinuousClock.now
        for index in 1...frameCount {
            device.display.publish(Frame(pixels: screens[index % screens.count], presentationTime: .milliseconds(index * 16)))
            // Keep the subscriber's queue from overflowing: a real device renders at most 60 Hz,
            // the benchmark runs as fast as transport allows without dropping.
            while (device.display.sessions.last.map { index - $0.framesSent - $0.framesDropped } ?? 0) > 8 {
                Thread.sleep(forTimeInterval: 0.0002)
            }
        }
        let sessionsBeforeStop = device.display.sessions
        let data = output.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        let elapsed = ContinuousClock.now - start
        let received = Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let fps = Double(received) / seconds
        let bytes = Double(profile.pixelWidth * profile.pixelHeight * 4)
        let dropped = sessionsBeforeStop.last?.framesDropped ?? 0
        Task { await device.shutdown() }
        BenchFigures.shared.record("display_stream.frames_per_second", fps)
        return [
            "Display stream, device -> subscriber process, \(profile.pixelWidth)x\(profile.pixelHeight) BGRA",
            String(
                format: "  %d frames received in %.2f s: %.0f frames/s, %.2f GB/s, %d dropped", received, seconds, fps,
                fps * bytes / 1e9, dropped),
            String(format: "  target >= %.0f frames/s: %@", target, fps >= target && received == frameCount ? "PASS" : "FAIL"),
        ]
    }

    /// The child side: read `count` frames, print how many arrived.
    static func subscribe(socketPath: String, count: Int) throws {
        let client = try DisplayStreamClient(socketPath: socketPath)
        var received = 0
        while received < count, case .frame? = try client.next() { received += 1 }
        client.close()
        print(received)
    }
}
