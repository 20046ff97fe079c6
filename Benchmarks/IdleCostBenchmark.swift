import Foundation
import ShowcaseApps
import ShowreelRecorder
import ShowreelRender
import ShowreelUI

/// What an idle minute costs a fragmented recording on a real clock, where the recorder keeps
/// the file current for `kill -9` (`FrameQueueRecorder.KeepAlive`): the held frame encoded again
/// every 0.75 s, then flushed. Against the alternative that needs no keep-alive, a constant
/// 25 frames/s (what a CFR recorder writes while nothing moves), measured in the same run.
enum IdleCostBenchmark {
    static func run(work: String, profile: DeviceProfile = .phone) throws -> [String] {
        // The Hello app's screen, as a device would hold it while nobody touches it.
        let scene = WindowScene(profile: profile)
        try RenderBenchmark.launch(HelloApp.definition, in: scene)
        let pixels = PixelBuffer(width: profile.pixelWidth, height: profile.pixelHeight, zeroed: false)
        scene.render(into: pixels)
        let minute = Duration.seconds(60)
        let interval = FrameQueueRecorder.KeepAlive().interval

        let keptURL = URL(fileURLWithPath: work).appendingPathComponent("idle-keepalive.mp4")
        let kept = try VideoRecorder(url: keptURL, width: profile.pixelWidth, height: profile.pixelHeight)
        try kept.append(Frame(pixels: pixels, presentationTime: .zero))
        try kept.keepCurrent(at: nil)
        let before = fileSize(keptURL)
        var time = interval
        while time <= minute {
            try kept.keepCurrent(at: time)
            time += interval
        }
        let idleBytes = fileSize(keptURL) - before
        let repeats = kept.framesRepeated
        try kept.finish(stopTime: minute)

        let cfrURL = URL(fileURLWithPath: work).appendingPathComponent("idle-cfr.mp4")
        let cfr = try VideoRecorder(url: cfrURL, width: profile.pixelWidth, height: profile.pixelHeight)
        let cfrFrames = 25 * 60
        try cfr.append(Frame(pixels: pixels, presentationTime: .zero))
        let cfrFirst = fileSize(cfrURL)
        for index in 1..<cfrFrames { try cfr.append(Frame(pixels: pixels, presentationTime: .milliseconds(40 * index))) }
        try cfr.finish(stopTime: minute)
        let cfrBytes = fileSize(cfrURL) - cfrFirst
        try? FileManager.default.removeItem(at: keptURL)
        try? FileManager.default.removeItem(at: cfrURL)

        BenchFigures.shared.record("idle.keepalive_bytes_per_minute", Double(idleBytes))
        return [
            "An idle minute on a real clock, \(profile.pixelWidth)x\(profile.pixelHeight), fragmented .mp4 (what keeps kill -9 to under a second lost)",
            String(
                format:
                    "  keep-alive: %d repeated frames, %.1f KiB (%.0f bytes a repeat, fragment included); 25 fps CFR: %d frames, %.1f KiB; ratio %.1fx fewer bytes",
                repeats, Double(idleBytes) / 1024, Double(idleBytes) / Double(max(repeats, 1)), cfrFrames - 1,
                Double(cfrBytes) / 1024, Double(cfrBytes) / Double(max(idleBytes, 1))),
        ]
    }

    private static func fileSize(_ url: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    }
}
