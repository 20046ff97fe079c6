import Foundation

/// Runs blocking work (a child process) on a thread of its own: Swift's concurrency pool has
/// only as many threads as cores, and a test that blocks one for long starves the others.
public func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
