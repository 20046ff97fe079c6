import ShowreelWire
import Synchronization

/// The device's sense of time, from boot. Every frame timestamp, animation, wait and
/// timeout reads it, so switching to the virtual clock makes a run deterministic.
package final class DeviceClock: Sendable {
    package typealias Kind = ClockKind

    package let kind: Kind
    private let lastYield = Mutex(ContinuousClock.now)
    private static let yieldInterval: Duration = .milliseconds(5)
    private let bootInstant = ContinuousClock.now
    private let virtualNow = Mutex(Duration.zero)

    package init(_ kind: Kind) { self.kind = kind }

    /// Time since boot.
    package var now: Duration {
        switch kind {
        case .real: return ContinuousClock.now - bootInstant
        case .virtual: return virtualNow.withLock { $0 }
        }
    }

    /// Lets `duration` pass: sleeps on the real clock, jumps ahead on the virtual one.
    package func advance(by duration: Duration) async throws {
        guard duration > .zero else { return }
        switch kind {
        case .real: try await Task.sleep(for: duration)
        case .virtual:
            virtualNow.withLock { $0 += duration }
            // Virtual time does not sleep, so it yields instead (every few milliseconds of work):
            // without a suspension a long action (a 1000-key `type`) would hold its thread to
            // the end, and the task that notices its client hung up, or another test's device,
            // could not run meanwhile.
            let due = lastYield.withLock { last in
                guard ContinuousClock.now - last >= Self.yieldInterval else { return false }
                last = ContinuousClock.now
                return true
            }
            if due { await Task.yield() }
        }
    }
}
