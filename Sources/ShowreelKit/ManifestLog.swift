import Foundation
import ShowreelReport
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Adds test entries to `Recordings/manifest.json` as tests finish: the same manifest
/// `showreel run` writes, so one report shows both. Entries are merged by id (a rerun of a
/// test replaces its entry); the file is rewritten atomically under a lock file, so parallel
/// tests and the XCTest and Swift Testing passes of one `swift test` never lose an entry.
enum ManifestLog {
    private static let inProcess = Mutex(())

    static func add(_ entry: ManifestEntry, in folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(RunManifest.fileName)
        try inProcess.withLock { _ in
            let lock = open(folder.appendingPathComponent(".manifest.lock").path, O_CREAT | O_RDWR, 0o644)
            guard lock >= 0 else { throw ShowreelKitError("Cannot lock \(url.path): \(String(cString: strerror(errno)))") }
            defer { close(lock) }
            flock(lock, LOCK_EX)
            defer { flock(lock, LOCK_UN) }
            var manifest = (try? RunManifest.load(from: url)) ?? RunManifest(title: "Showreel tests")
            manifest = manifest.merged([RunManifest(title: manifest.title, createdAt: manifest.createdAt, entries: [entry])])
            try manifest.write(to: url)
        }
    }
}
