import Foundation

// Forgetting commands and bounding what finished ones keep: output spilled to files
// beyond `retainedOutputMemory`, the oldest finished commands evicted.
extension CommandTable {
    /// Forgets a command (finished ones only, unless `force`).
    @discardableResult
    func remove(_ id: UUID) -> Bool {
        guard let record = records.removeValue(forKey: id) else { return false }
        if let spilled = record.spilledTo { spool.delete(spilled) }
        if record.output.retainedBytes >= MemoryRelease.worthTrimming { MemoryRelease.returnFreedMemory() }
        order.removeAll { $0 == id }
        if let parked = waiters.removeValue(forKey: id) {
            for continuation in parked.values { continuation.resume() }
        }
        return true
    }

    /// Keeps finished commands' output in memory up to `retainedOutputMemory` in all, the newest
    /// first; older output moves to a file in the spool and is read back when asked for, so
    /// `/status` of a recent command still answers its whole (bounded) output.
    func spillOldestOutput() {
        var inMemory = 0
        var freed = 0
        for id in order.reversed() {
            guard let record = records[id], record.isFinished, record.spilledTo == nil else { continue }
            inMemory += record.output.retainedBytes
            guard inMemory > configuration.retainedOutputMemory, record.output.retainedBytes > 0 else { continue }
            guard let path = spool.write(record.output, id: id) else { return }
            records[id]!.spilledTo = path
            records[id]!.output = record.output.emptied()
            freed += record.output.retainedBytes
        }
        if freed >= MemoryRelease.worthTrimming { MemoryRelease.returnFreedMemory() }
    }

    func evictFinished() {
        let finished = order.filter { records[$0]?.isFinished == true && records[$0]?.kind != .exec }
        let excess = finished.count - configuration.retainedFinishedCommands
        guard excess > 0 else { return }
        for id in finished.prefix(excess) { remove(id) }
    }
}
