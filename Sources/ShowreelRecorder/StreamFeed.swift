import Foundation
import ShowreelWire

/// A device's display stream, from another process, read into a recording session on a thread
/// of its own until stopped: how a recorded test and a WebDriver session record a device booted
/// with `showreel device boot`.
package final class StreamFeed: Sendable {
    private let stream: DisplayStreamClient
    private let done = DispatchSemaphore(value: 0)

    /// Starts reading `stream` into `session` on a thread named `name`.
    package init(_ stream: DisplayStreamClient, into session: RecordingSession, threadName name: String) {
        self.stream = stream
        let done = self.done
        let reader = Thread {
            try? session.consume(stream)
            done.signal()
        }
        reader.name = name
        reader.start()
    }

    /// Asks the device to end the stream and waits (at most 30 s) until no more frames arrive:
    /// blocking, so call it off the concurrency pool.
    package func stop() {
        try? stream.requestStop()
        _ = done.wait(timeout: .now() + 30)
        stream.close()
    }
}
