import Foundation
import Synchronization

/// The one rule for naming files that would clash (two flows named `login.yaml` in different
/// folders, two test cases whose arguments read the same): the second gets " 2", the next " 3".
/// Names are handed out once per process and folder.
package enum FileNaming {
    private static let taken = Mutex<Set<String>>([])

    /// A stem not handed out before in `folder`: `stem`, else `stem 2`, `stem 3`...
    package static func reserve(_ stem: String, in folder: URL) -> String {
        taken.withLock { taken in
            let name = firstFree(stem) { taken.contains(folder.appendingPathComponent($0).path) }
            taken.insert(folder.appendingPathComponent(name).path)
            return name
        }
    }

    /// Unique stems for `stems`, in order, without reserving them for the process: a run's
    /// names are decided up front, the same every time for the same inputs.
    package static func unique(_ stems: [String]) -> [String] {
        var used = Set<String>()
        return stems.map { stem in
            let name = firstFree(stem) { used.contains($0) }
            used.insert(name)
            return name
        }
    }

    private static func firstFree(_ stem: String, isTaken: (String) -> Bool) -> String {
        var candidate = stem
        var number = 2
        while isTaken(candidate) {
            candidate = "\(stem) \(number)"
            number += 1
        }
        return candidate
    }
}
