import Foundation

// Waiters: callers parked until a command changes (output, state, a signal) or ends.
extension CommandTable {
    /// Waits until the command finished (or `timeout` passed) and returns it with its output;
    /// nil when the command is unknown.
    func waitForExit(_ id: UUID, timeout: Duration? = nil, output: OutputSelection = .streams) async -> CommandSnapshot? {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now.advanced(by: $0) }
        while true {
            guard let record = records[id] else { return nil }
            if record.isFinished || Task.isCancelled { return Self.snapshot(of: record, output: output) }
            var wait = Duration.seconds(30)
            if let deadline {
                let remaining = clock.now.duration(to: deadline)
                if remaining <= .zero { return Self.snapshot(of: record, output: output) }
                wait = min(wait, remaining)
            }
            await waitForChange(id, since: record.version, timeout: wait)
        }
    }

    /// Waits until the command's output (of `stream`, or both) contains `text`, the command
    /// finished, or `timeout` passed: how a client learns a recorder has started without
    /// polling. False when the command is unknown.
    func waitForOutput(_ id: UUID, containing text: [UInt8], of stream: OutputStream?, timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        // Only output from `searched` on is looked at again, with the text's length less one
        // byte before it (the text may straddle what came before and what came after).
        var searched = 0
        var tail: [UInt8] = []
        while true {
            guard let slice = output(id, from: searched, of: stream) else { return false }
            let fresh = tail + slice.chunks.joined()
            if fresh.firstRange(of: text) != nil || slice.finished || Task.isCancelled { return true }
            tail = Array(fresh.suffix(text.count - 1))
            searched = slice.next
            let remaining = ContinuousClock.now.duration(to: deadline)
            if remaining <= .zero { return true }
            await waitForChange(id, since: slice.version, timeout: remaining)
        }
    }

    /// Returns when the command changes after `version` (output, state, signal), when it is
    /// removed, when `timeout` passes, or when the calling task is cancelled.
    func waitForChange(_ id: UUID, since version: Int, timeout: Duration) async {
        guard let record = records[id], record.version == version, !Task.isCancelled else { return }
        let token = nextWaiterToken
        nextWaiterToken += 1
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.park(id, token: token, version: version) }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }

    private func park(_ id: UUID, token: Int, version: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if Task.isCancelled || records[id]?.version != version {
                    continuation.resume()
                } else {
                    waiters[id, default: [:]][token] = continuation
                }
            }
        } onCancel: {
            Task { await self.unpark(id, token: token) }
        }
    }

    private func unpark(_ id: UUID, token: Int) {
        if let continuation = waiters[id]?.removeValue(forKey: token) {
            continuation.resume()
        }
    }

    func changed(_ id: UUID) {
        records[id]?.version += 1
        if let parked = waiters.removeValue(forKey: id) {
            for continuation in parked.values { continuation.resume() }
        }
    }
}
