import Foundation
import Synchronization

/// A picture's rows split into `count` slices of about equal height, each starting on an even
/// row (4:2:0 chroma rows pair up luma rows), for work done on several threads at once.
struct RowSlices {
    let rows: Int
    let count: Int

    init(rows: Int, count: Int) {
        self.rows = rows
        self.count = max(1, min(count, rows / 2))
    }

    /// Rows of slice `index`.
    func slice(_ index: Int) -> Range<Int> {
        let start = (rows * index / count) & ~1
        let end = index == count - 1 ? rows : (rows * (index + 1) / count) & ~1
        return start..<end
    }

    /// Runs `body` on every slice, at once on several threads when there are several; true
    /// when every slice's returned true.
    func allSucceed(_ body: (Range<Int>) -> Bool) -> Bool {
        guard count > 1 else { return body(0..<rows) }
        let failures = Atomic<Int>(0)
        // Each call reads and writes its own rows only, and all are done before this returns.
        nonisolated(unsafe) let body = body
        DispatchQueue.concurrentPerform(iterations: count) { index in
            if !body(slice(index)) { failures.add(1, ordering: .relaxed) }
        }
        return failures.load(ordering: .relaxed) == 0
    }
}
