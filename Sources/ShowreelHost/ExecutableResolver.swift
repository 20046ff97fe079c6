import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds a program the way `execvp` would, but up front, so the host can say clearly what is
/// missing instead of reporting a failed spawn.
enum ExecutableResolver {
    static var hostSearchPath: String {
        ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    }

    /// - Parameters:
    ///   - program: `argv[0]`: a bare name looked up on `searchPath`, or a path (contains `/`),
    ///     relative paths resolved against `workingDirectory` (or the host's).
    /// - Returns: an absolute path to an executable regular file, or nil.
    static func resolve(_ program: String, searchPath: String, workingDirectory: String? = nil) -> String? {
        guard !program.isEmpty else { return nil }
        if program.contains("/") {
            var path = program
            if !path.hasPrefix("/") {
                let base = workingDirectory ?? FileManager.default.currentDirectoryPath
                path = (base as NSString).appendingPathComponent(path)
            }
            return isExecutableFile(path) ? (path as NSString).standardizingPath : nil
        }
        for directory in searchPath.split(separator: ":", omittingEmptySubsequences: false) {
            let dir = directory.isEmpty ? (workingDirectory ?? FileManager.default.currentDirectoryPath) : String(directory)
            let candidate = (dir as NSString).appendingPathComponent(program)
            if isExecutableFile(candidate) {
                return candidate.hasPrefix("/")
                    ? candidate
                    : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(candidate)
            }
        }
        return nil
    }

    static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return false }
        return access(path, X_OK) == 0
    }

    /// The canonical path used to compare a resolved program with the allowlist (symlinks
    /// resolved, so `/bin/sleep` and `/usr/bin/sleep` on a merged-/usr system compare equal).
    static func canonical(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
