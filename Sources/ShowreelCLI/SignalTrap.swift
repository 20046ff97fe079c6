import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns SIGINT and SIGTERM into a callback instead of death, so a command can finish
/// its work (finalise a video, shut a device down) before it exits.
///
/// In the commands that run until stopped the signals are caught from process start (see
/// `EarlySignalHold.swift`): the trap then also delivers a signal that arrived before it existed.
final class SignalTrap: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []
    private var earlyCheck: DispatchSourceTimer?

    init(
        _ signals: [Int32] = [SIGINT, SIGTERM], queue: DispatchQueue = DispatchQueue(label: "showreel.signals"),
        handler: @escaping @Sendable (Int32) -> Void
    ) {
        let held = Self.heldSignals()
        for number in signals {
            // Ignoring a signal discards it when pending: one held since process start must
            // stay pending until the source reads it.
            if !held.contains(number) { signal(number, SIG_IGN) }
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            sources.append(source)
        }
        guard !held.isEmpty else { return }
        // Until the sources' own handler replaces the early one, a signal may still land there:
        // look for one now and every few milliseconds (a stop is idempotent, so twice is fine).
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now(), repeating: .milliseconds(20))
        timer.setEventHandler { if let number = takeEarlyStopSignal() { handler(number) } }
        timer.resume()
        earlyCheck = timer
    }

    func cancel() {
        sources.forEach { $0.cancel() }
        earlyCheck?.cancel()
    }

    private static func heldSignals() -> Set<Int32> {
        var current = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &current)
        return Set([SIGINT, SIGTERM].filter { sigismember(&current, $0) == 1 })
    }
}
