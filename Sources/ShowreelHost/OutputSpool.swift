import Foundation
import Logging

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
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("showreel-host-\(getpid())-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        directory = path
        return path
    }
}

/// Gives memory the host freed back to the system. glibc's malloc keeps freed heap pages (and
/// each thread's arena) mapped, so after a command with megabytes of output the host's RSS
/// would stay at its peak; `malloc_trim` returns the free pages.
public enum MemoryRelease {
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
    public static func preferMappedLargeAllocations() {
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
