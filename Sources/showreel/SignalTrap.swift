import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns SIGINT and SIGTERM into a callback instead of death, so a command can finish
/// its work (finalise a video, shut a device down) before it exits.
final class SignalTrap: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []

    init(_ signals: [Int32] = [SIGINT, SIGTERM], queue: DispatchQueue = DispatchQueue(label: "showreel.signals"),
         handler: @escaping @Sendable (Int32) -> Void) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { handler(number) }
            source.resume()
            sources.append(source)
        }
    }

    func cancel() { sources.forEach { $0.cancel() } }
}
