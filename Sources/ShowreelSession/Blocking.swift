import Foundation

/// Runs blocking work (finishing a video waits for its encoder thread) on a thread of its own,
/// not on the few threads Swift's concurrency pool shares between parallel tests and flows.
package enum Blocking {
    package static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.name = "showreel.finish"
            thread.start()
        }
    }
}
