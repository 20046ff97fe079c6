import Foundation
import ShowreelDevice
import ShowreelGraphics
import ShowreelRender
import ShowreelWire
import Synchronization

/// The live screen: subscribed to the device's display stream, it keeps the latest frame and
/// tells each page's stream when a new one arrived. Pages are told the newest frame only (a
/// slow page skips frames, never queues them), and nothing is sent while the screen is idle:
/// the device publishes only frames it rendered because something changed.
package final class FrameHub: DisplayStreamSink, Sendable {
    private struct State {
        var latest: Frame?
        var generation = 0
        /// When the latest frame reached the hub (wall clock, ms since 1970): the start of the
        /// delay to its display that the page measures and the bench reports.
        var receivedAt = 0.0
        var watchers: [UUID: AsyncStream<Int>.Continuation] = [:]
        var subscription: DisplaySubscription?
        var encoded: (generation: Int, png: Data)?
    }

    private let state = Mutex(State())

    package init() {}

    /// Shows `device`'s screen from now on (a branch replaces the device).
    package func attach(_ device: Device) {
        let old = state.withLock { $0.subscription }
        old?.stop()
        let subscription = device.display.subscribe(self)
        state.withLock { $0.subscription = subscription }
    }

    package func detach() {
        state.withLock { $0.subscription }?.stop()
    }

    package func receive(_ event: DisplayStreamEvent) {
        guard case let .frame(frame) = event else { return }
        let (generation, watchers) = state.withLock { state -> (Int, [AsyncStream<Int>.Continuation]) in
            state.latest = frame
            state.generation += 1
            state.receivedAt = Date().timeIntervalSince1970 * 1000
            return (state.generation, Array(state.watchers.values))
        }
        for watcher in watchers { watcher.yield(generation) }
    }

    /// The generations of new frames, newest only: what a page's live stream waits on.
    package func generations() -> AsyncStream<Int> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
        let current = state.withLock { state -> Int in
            state.watchers[id] = continuation
            return state.generation
        }
        if current > 0 { continuation.yield(current) }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.watchers.removeValue(forKey: id) } }
        return stream
    }

    package var generation: Int { state.withLock { $0.generation } }
    package var receivedAt: Double { state.withLock { $0.receivedAt } }

    /// The latest frame as PNG, encoded once per frame however many pages ask.
    package func png() -> (generation: Int, data: Data)? {
        let (latest, generation, cached) = state.withLock { ($0.latest, $0.generation, $0.encoded) }
        if let cached, cached.generation == generation { return (generation, cached.png) }
        guard let latest else { return nil }
        let data = Data(latest.pixels.pngData())
        state.withLock { state in
            if (state.encoded?.generation ?? -1) < generation { state.encoded = (generation, data) }
        }
        return (generation, data)
    }
}
