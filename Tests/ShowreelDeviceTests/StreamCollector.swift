import Foundation
import ShowreelRender
import ShowreelTestSupport
import ShowreelWire

/// Reads a display stream on its own thread (blocking socket reads stay off Swift's
/// cooperative pool), collecting frames until the stream ends.
final class StreamCollector: @unchecked Sendable {
    private let client: DisplayStreamClient
    private let lock = NSLock()
    private var collected: [Frame] = []
    private let finished = DispatchSemaphore(value: 0)

    init(socketPath: String) throws {
        client = try DisplayStreamClient(socketPath: socketPath)
        let thread = Thread { [self] in
            while let event = try? client.next() {
                guard case let .frame(frame) = event else { break }
                lock.withLock { collected.append(frame) }
            }
            finished.signal()
        }
        thread.start()
    }

    var frames: [Frame] { lock.withLock { collected } }

    /// Asks the device to end the stream and returns every frame it sent.
    func stop() async throws -> [Frame] {
        try client.requestStop()
        _ = try await offPool { [finished] in finished.wait() }
        client.close()
        return frames
    }
}
