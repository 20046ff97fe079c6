import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A claim on a file being written: a shared `flock` held on it for as long as it is written.
/// The kernel drops the lock when the writer's process ends, however it ends (`kill -9`
/// included), so a partial file (`.name.partial.mov`, see `StagedFile`) that no process holds
/// is one a dead writer left behind, and `PartialFiles.removeStale(in:)` may remove it.
/// Shared, so that a process finishing a file another wrote (a test committing the video a
/// tunnel host's recorder wrote) can hold it alongside that writer.
package final class WriterLock: Sendable {
    private let descriptor: Mutex<Int32>
    package let url: URL
    /// Whether the file was created by this claim (it did not exist before).
    package let created: Bool

    /// Claims `url`, creating it (empty) when `creating` and it is missing; nil when it cannot
    /// be opened (a file that is not there, a folder that cannot be written: the writer's own
    /// open then says why). A cleaner that removed the file between its creation and the lock
    /// is noticed (the path no longer leads to the locked file) and the claim starts again.
    package init?(_ url: URL, creating: Bool) {
        for _ in 0..<8 {
            var fresh = true
            var fd = open(url.path, O_RDWR | O_CLOEXEC | (creating ? O_CREAT | O_EXCL : 0), 0o644)
            if fd < 0, creating, errno == EEXIST {
                fresh = false
                fd = open(url.path, O_RDWR | O_CLOEXEC)
            }
            guard fd >= 0 else { return nil }
            guard flock(fd, LOCK_SH) == 0 else {
                close(fd)
                return nil
            }
            if PartialFiles.sameFile(fd, url.path) {
                descriptor = Mutex(fd)
                self.url = url
                created = fresh
                return
            }
            close(fd)
            guard creating else { return nil }
        }
        return nil
    }

    /// Gives the claim up (the file stays); the second call does nothing.
    package func release() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            // Unlocked first: a child forked at this moment shares the descriptor until it execs,
            // and a close alone would leave the lock held by that copy.
            flock(fd, LOCK_UN)
            close(fd)
            fd = -1
        }
    }

    deinit { release() }
}

/// The hidden partial files writers leave beside a video while they write it (`StagedFile`'s
/// `.name.partial.mov` and `.name.steps.mov`, a reel's `.name.mp4.partial.mp4`), and the
/// removal of those whose writer is gone.
package enum PartialFiles {
    /// Whether `name` is a partial file's: hidden, `.partial` or `.steps` before a video
    /// extension (or at the end).
    static func isPartial(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.count > 1 else { return false }
        var stem = name
        for ext in [".mov", ".mp4", ".m4v"] where stem.hasSuffix(ext) {
            stem.removeLast(ext.count)
            break
        }
        return stem.hasSuffix(".partial") || stem.hasSuffix(".steps")
    }

    /// Removes the partial files in `folder` that no process holds (see `WriterLock`): what a
    /// writer killed with `kill -9` (or a machine that lost power) left. A `.steps` file is
    /// written before it is claimed, so it is removed only when its `.partial` is not held either.
    /// Returns the names removed (logged at notice level).
    @discardableResult
    package static func removeStale(in folder: URL, logger: Logger) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var removed: [String] = []
        for name in names.sorted() where isPartial(name) {
            let path = folder.appendingPathComponent(name).path
            if name.contains(".steps") {
                let partial = name.replacingOccurrences(of: ".steps", with: ".partial")
                if isHeld(folder.appendingPathComponent(partial).path) { continue }
            }
            if removeIfUnheld(path) { removed.append(name) }
        }
        if !removed.isEmpty {
            logger.notice(
                "removed partial files that killed recordings left", metadata: ["folder": "\(folder.path)", "files": "\(removed)"])
        }
        return removed
    }

    /// Whether some process holds `path` (a missing file is held by no one).
    private static func isHeld(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return flock(fd, LOCK_EX | LOCK_NB) != 0
    }

    /// Removes `path` when it is a regular file no process holds, holding it meanwhile so that no
    /// writer can claim it between the check and the removal.
    private static func removeIfUnheld(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, flock(fd, LOCK_EX | LOCK_NB) == 0 else { return false }
        guard sameFile(fd, path) else { return false }
        return unlink(path) == 0
    }

    /// Whether `path` still leads to the file open as `fd` (not removed or replaced since).
    static func sameFile(_ fd: Int32, _ path: String) -> Bool {
        var opened = stat(), named = stat()
        guard fstat(fd, &opened) == 0, lstat(path, &named) == 0 else { return false }
        return opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
    }
}
