import Foundation

#if canImport(Glibc)
import Glibc

private let writeBytes = Glibc.write
#elseif canImport(Darwin)
import Darwin

private let writeBytes = Darwin.write
#endif

extension Data {
    /// Writes the data to `url` whole or not at all: into a hidden file beside it, then renamed
    /// over it, so a reader (or a crash) never sees half a file.
    ///
    /// Plain POSIX calls rather than Foundation's `write(to:)`, which calls `fsync` (with or
    /// without `.atomic`): on a machine busy writing videos an `fsync` waits for the disk for
    /// seconds, and these writes happen inside async code, where a blocked thread is one of the
    /// cooperative pool's few (two on a two-core machine); with both blocked every task in the
    /// process waits. Errors name `url` and the system's reason, as Foundation's do.
    package func writeReplacing(_ url: URL) throws {
        let staging = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).partial")
        let descriptor = open(staging.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw Self.writeError(errno, url) }
        var failure: Int32 = 0
        withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = writeBytes(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(staging.path, url.path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(staging.path)
            throw Self.writeError(failure, url)
        }
    }

    /// Foundation's error for a failed write of `url`, with the errno beneath it.
    private static func writeError(_ code: Int32, _ url: URL) -> CocoaError {
        let kind: CocoaError.Code =
            switch code {
            case ENOENT, ENOTDIR: .fileNoSuchFile
            case EACCES, EPERM: .fileWriteNoPermission
            case ENOSPC, EDQUOT: .fileWriteOutOfSpace
            case EROFS: .fileWriteVolumeReadOnly
            default: .fileWriteUnknown
            }
        return CocoaError(
            kind, userInfo: [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(code))])
    }
}
