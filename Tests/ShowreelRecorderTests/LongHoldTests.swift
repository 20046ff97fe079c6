import Foundation
import ShowreelGraphics
import ShowreelTestSupport
import Testing

@testable import ShowreelRecorder

/// A screen held for longer than a mov or mp4 sample can last (32 bits of the 90 kHz time
/// scale: 6.6 hours) still makes a video of the whole time, in every container and with a
/// deferred recording too; decoded back with FFmpeg.
@Suite("Long holds")
struct LongHoldTests {
    static let fourteenHours: Duration = .seconds(14 * 3600)

    /// The version byte of the file's `mdhd` box: 0 for 32-bit times, 1 for 64-bit.
    static func mediaHeaderVersion(of url: URL) throws -> UInt8? {
        let data = try Data(contentsOf: url)
        guard let range = data.range(of: Data("mdhd".utf8)) else { return nil }
        return data[range.upperBound]
    }

    @Test(
        "a frame held 14 hours, between frames and at the end, decodes to a 14-hour video",
        arguments: [
            ("mov", nil), ("mp4", nil), ("mov", 64 << 20),
        ] as [(String, Int?)])
    func fourteenHours(container: String, spoolLimit: Int?) async throws {
        try await withTemporaryDirectory { folder in
            let url = folder.appendingPathComponent("held.\(container)")
            let recorder = try VideoRecorder(url: url, width: 320, height: 240, spoolLimit: spoolLimit)
            try recorder.append(makeFrame(index: 0, at: .zero))
            // Held 14 hours before the next change, then 14 hours more until the stop.
            try recorder.append(makeFrame(index: 1, at: Self.fourteenHours))
            let summary = try recorder.finish(stopTime: Self.fourteenHours * 2)
            #expect(summary.duration == Self.fourteenHours * 2)
            let info = try MediaProbe.probe(url)
            #expect(abs(info.duration - 28 * 3600) < 1, "\(info)")
            #expect(info.readToEnd)
            // The track's length fits the 32-bit media header QuickTime reads (no 64-bit header,
            // which FFmpeg warns QuickTime cannot play).
            #expect(try Self.mediaHeaderVersion(of: url) == 0)
            // The held picture comes again each hour; the second one is on screen from 14 hours on.
            let (x, y) = backgroundPoint(width: 320, height: 240)
            let frames = try await decodedFrames(url)
            #expect(frames.map { ($0.time / 3600).rounded() } == (0..<28).map(Double.init), "\(frames.map(\.time))")
            for frame in frames {
                let index = frame.time < 14 * 3600 - 1 ? 0 : 1
                #expect(isClose(frame.pixels.pixel(x: x, y: y), palette[index]), "the picture at \(frame.time) s is frame \(index)")
            }
        }
    }
}
