import Foundation
import ShowreelRecorder

/// The frames of a video file as libavcodec decodes them, decoded on a thread of its own:
/// decoding a recording takes a while, and on Swift's cooperative pool it would stall every
/// other test of the process meanwhile.
package func decodedFrames(_ url: URL, limit: Int? = nil) async throws -> [DecodedFrame] {
    try await offPool { try FrameDecoder.decodeFrames(url, limit: limit) }
}
