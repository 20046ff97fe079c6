import Foundation

extension Process {
    /// Waits until the process has exited and returns its status. `waitUntilExit` blocks its
    /// thread, so it runs on a thread of its own, never on Swift's cooperative pool. For a
    /// process that is sure to end (one sent SIGKILL or SIGTERM, or a short tool).
    public func exitStatus() async throws -> Int32 {
        try await offPool {
            self.waitUntilExit()
            return self.terminationStatus
        }
    }
}
