import Foundation
import Logging
import ShowreelWire

#if canImport(Glibc)
import Glibc
#endif

/// A private folder (mode 0700, removed at shutdown) holding finished commands' output that no
/// longer fits the host's output memory.
final class OutputSpool: @unchecked Sendable {
    // Used only from the CommandTable actor.
    private var directory: String?
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// Writes `log` to a file and returns its path; nil (logged) when that fails, and the
    /// output then stays in memory.
    func write(_ log: OutputLog, id: UUID) -> String? {
        do {
            let folder = try makeDirectory()
            let path = "\(folder)/\(id.uuidString).output"
            try Data(log.encoded()).write(to: URL(fileURLWithPath: path))
            return path
        } catch {
            logger.warning("cannot move command output to disk; keeping it in memory", metadata: ["id": "\(id)", "error": "\(error)"])
            return nil
        }
    }

    func delete(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    func removeAll() {
        guard let directory else { return }
        try? FileManager.default.removeItem(atPath: directory)
        self.directory = nil
    }

    private func makeDirectory() throws -> String {
        if let directory { return directory }
        let start = ProcessStat.read(getpid())?.startTicks ?? 0
        let name = "\(Self.prefix)\(getpid())-\(start)-\(UUID().uuidString.prefix(8))"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        directory = path
        return path
    }

    /// Every spool folder is named after its host (pid and start time), so the next host can tell
    /// the ones a killed host left behind (possibly gigabytes) from those of hosts still running.
    private static let prefix = "showreel-host-spool-"

    /// Removes the spool folders of hosts that no longer run (this user's only), also those of
    /// older hosts named `showreel-host-<pid>-<8 hex digits>`.
    static func removeLeftovers(logger: Logger) {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix("showreel-host-") {
            guard let owner = ownerPID(ofSpool: name), !owner.isRunning else { continue }
            let path = temporary.appendingPathComponent(name).path
            var info = stat()
            guard lstat(path, &info) == 0, info.st_uid == getuid(), (info.st_mode & S_IFMT) == S_IFDIR else { continue }
            // Hosts starting together find the same leftovers: each claims a folder by renaming it
            // (atomic, one wins) before removing it, and a folder already claimed is not an error.
            let claimed = temporary.appendingPathComponent(".\(name)-removing-\(getpid())").path
            guard rename(path, claimed) == 0 else {
                if errno != ENOENT {
                    let reason = String(cString: strerror(errno))
                    logger.warning("cannot remove a stale output spool", metadata: ["folder": "\(path)", "error": "\(reason)"])
                }
                continue
            }
            do {
                try FileManager.default.removeItem(atPath: claimed)
                logger.notice("removed the output spool of a tunnel host that no longer runs", metadata: ["folder": "\(path)"])
            } catch {
                logger.warning("cannot remove a stale output spool", metadata: ["folder": "\(claimed)", "error": "\(error)"])
            }
        }
    }

    private struct Owner {
        var pid: Int32
        var start: UInt64?
        var isRunning: Bool {
            guard let stat = ProcessStat.read(pid) else { return kill(pid, 0) == 0 || errno == EPERM }
            return !stat.hasExited && (start.map { $0 == stat.startTicks } ?? true)
        }
    }

    /// The host a spool folder's name gives, or nil when the name is not a spool's.
    private static func ownerPID(ofSpool name: String) -> Owner? {
        let isHex = { (part: Substring) in part.count == 8 && part.allSatisfy(\.isHexDigit) }
        if name.hasPrefix(prefix) {
            let parts = name.dropFirst(prefix.count).split(separator: "-")
            guard parts.count == 3, let pid = Int32(parts[0]), let start = UInt64(parts[1]), isHex(parts[2]) else { return nil }
            return Owner(pid: pid, start: start)
        }
        let parts = name.dropFirst("showreel-host-".count).split(separator: "-")
        guard parts.count == 2, let pid = Int32(parts[0]), isHex(parts[1]) else { return nil }
        return Owner(pid: pid, start: nil)
    }
}

/// Gives memory the host freed back to the system. glibc's malloc keeps freed heap pages (and
/// each thread's arena) mapped, so after a command with megabytes of output the host's RSS
/// would stay at its peak; `malloc_trim` returns the free pages.
package enum MemoryRelease {
    /// Freeing less than this is not worth a trim.
    static let worthTrimming = 1024 * 1024

    static func returnFreedMemory() {
        _ = trim?(0)
    }

    /// For a process that is only a tunnel host (the CLI): allocations of 1 MiB and more get
    /// their own mappings, returned to the system as soon as they are freed. glibc otherwise
    /// raises its mmap threshold after the first large free (up to 32 MiB), after which the
    /// copies of a command's output (bytes, text, JSON) come from the heap and stay resident.
    /// Process-wide, so a library never sets it on its own.
    package static func preferMappedLargeAllocations() {
        #if canImport(Glibc)
        guard let symbol = dlsym(nil, "mallopt") else { return }
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        let M_MMAP_THRESHOLD: Int32 = -3
        _ = mallopt(M_MMAP_THRESHOLD, Int32(worthTrimming))
        #endif
    }

    /// glibc's `malloc_trim` (its header is not in Swift's Glibc module); nil on other C libraries.
    private static let trim: (@convention(c) (Int) -> Int32)? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
        #else
        return nil
        #endif
    }()
}
