/// Polls `condition` until it holds or `timeout` passes, and says whether it held. The timeout
/// is a safety net for a loaded machine, never a measurement: generous, since in the full
/// parallel suite other tests' synchronous work can stall every task of this process for tens
/// of seconds, and a condition that holds returns at once anyway.
public func eventually(timeout: Duration = .seconds(60), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}

/// Polls `condition` until it holds, or throws a `TestFailure` naming `what` after `timeout`.
public func eventually(_ what: String, timeout: Duration = .seconds(60), _ condition: () async throws -> Bool) async throws {
    guard try await eventually(timeout: timeout, condition) else { throw TestFailure("timed out waiting for \(what)") }
}
