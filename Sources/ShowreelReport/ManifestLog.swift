import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Adds entries to a folder's `manifest.json` as tests or sessions finish: the same manifest
/// `showreel run` writes, so one report shows them all. Entries are merged by id (a rerun
/// replaces its entry); the file is rewritten atomically under a lock file, so parallel tests,
/// the XCTest and Swift Testing passes of one `swift test`, and parallel WebDriver sessions
/// never lose an entry.
package enum ManifestLog {
    private static let inProcess = Mutex(())

    package struct LockFailure: Error, CustomStringConvertible {
        package var description: String
    }

    package static func add(_ entry: ManifestEntry, in folder: URL, title: String = "Showreel tests") throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(RunManifest.fileName)
        try inProcess.withLock { _ in
            let lock = open(folder.appendingPathComponent(".manifest.lock").path, O_CREAT | O_RDWR, 0o644)
            guard lock >= 0 else { throw LockFailure(description: "Cannot lock \(url.path): \(String(cString: strerror(errno)))") }
            defer { close(lock) }
            flock(lock, LOCK_EX)
            defer { flock(lock, LOCK_UN) }
            var manifest = (try? RunManifest.load(from: url)) ?? RunManifest(title: title)
            manifest = manifest.merged([RunManifest(title: manifest.title, createdAt: manifest.createdAt, entries: [entry])])
            try manifest.write(to: url)
        }
    }
}
