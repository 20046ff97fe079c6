import Foundation
import Logging
import ShowreelReport
import ShowreelWire

/// A step trace's file in the making. Its JSON (megabytes for a test that types key by key:
/// every step has its element tree) is encoded on a thread of its own from the moment the trace
/// is complete, while the last screen is captured and the video finished, and the file is
/// written beside the video only once the video is: one that could not be finished has no
/// trace beside it.
package final class TraceFile: Sendable {
    private let encoded: Task<Result<Data, any Error>, Never>

    /// Starts encoding `trace`.
    package init(_ trace: RunTrace) {
        encoded = Task { await Self.encode(trace) }
    }

    /// Writes the trace beside `video` (`<name>.trace.json`) once it is encoded, or logs why it
    /// could not: the video is whole without it.
    package func write(besideVideo video: URL, logger: Logger) async {
        do { try await encoded.value.get().writeReplacing(URL(fileURLWithPath: RunTrace.path(forVideo: video.path))) } catch {
            logger.warning("the step trace could not be written", metadata: ["video": "\(video.path)", "error": "\(error)"])
        }
    }

    private static func encode(_ trace: RunTrace) async -> Result<Data, any Error> {
        do { return .success(try await Blocking.run { try trace.encoded() }) } catch { return .failure(error) }
    }
}
