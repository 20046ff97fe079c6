import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Points this process's open descriptor for `url` at /dev/full, so every later write to the
/// file fails with ENOSPC, as when the disk fills up during a recording. False if not open.
func makeOpenFileFull(_ url: URL) -> Bool {
    let wanted = url.resolvingSymlinksInPath().path
    guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return false }
    for name in descriptors {
        guard let fd = Int32(name),
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
            target == wanted
        else { continue }
        let full = open("/dev/full", O_WRONLY)
        guard full >= 0 else { return false }
        defer { close(full) }
        return dup2(full, fd) >= 0
    }
    return false
}
