import Foundation

/// An error as a sentence a person can act on. The project's errors say what was wrong
/// through their descriptions; Foundation's describe themselves as
/// `Error Domain=NSCocoaErrorDomain Code=4 "..." UserInfo={...}`, which is no message: those
/// become the file they were about and the system's reason ("/proc/nope: No such file or
/// directory").
package enum ErrorSentence {
    public static func describe(_ error: any Error) -> String {
        if error is CancellationError { return "interrupted" }
        // The dynamic type, not a cast: every Swift error bridges to NSError on a cast.
        if Swift.type(of: error) is NSError.Type || error is CocoaError || error is POSIXError {
            return foundation(error as NSError)
        }
        // URLError lives in FoundationNetworking on Linux: known by its domain.
        let bridged = error as NSError
        if bridged.domain == "NSURLErrorDomain" { return urlWords[bridged.code] ?? fallback(bridged) }
        return String(describing: error)
    }

    private static func foundation(_ error: NSError) -> String {
        let path = (error.userInfo[NSFilePathErrorKey] as? String) ?? (error.userInfo[NSURLErrorKey] as? URL)?.path
        var reason: String?
        if let posix = posixCode(of: error) { reason = String(cString: strerror(posix)) }
        let text = reason ?? fallback(error)
        guard let path else { return text }
        return "\(path): \(text)"
    }

    /// The errno behind a Foundation file error, when it says.
    private static func posixCode(of error: NSError) -> Int32? {
        if error.domain == NSPOSIXErrorDomain { return Int32(error.code) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError { return posixCode(of: underlying) }
        return nil
    }

    /// Foundation's file errors in words; others in Foundation's own, without its
    /// "The operation could not be completed." preamble.
    private static func fallback(_ error: NSError) -> String {
        if error.domain == NSCocoaErrorDomain, let words = cocoaWords[error.code] { return words }
        var text = error.localizedDescription
        text = text.replacingOccurrences(of: "The operation could not be completed. ", with: "")
        while text.hasSuffix(".") { text.removeLast() }
        return text.contains("Error Domain=") || text.isEmpty ? "the operation failed (\(error.domain) error \(error.code))" : text
    }

    private static let urlWords: [Int: String] = [
        -1001: "the request timed out",
        -1003: "the host name was not found",
        -1004: "the connection was refused (nothing listens there)",
        -1005: "the connection was lost",
        -1009: "no network",
        -1011: "the server's answer was not understood",
        -999: "the request was cancelled",
    ]

    private static let cocoaWords: [Int: String] = [
        CocoaError.fileNoSuchFile.rawValue: "no such file or folder",
        CocoaError.fileReadNoSuchFile.rawValue: "no such file or folder",
        CocoaError.fileReadNoPermission.rawValue: "permission denied",
        CocoaError.fileWriteNoPermission.rawValue: "permission denied",
        CocoaError.fileWriteOutOfSpace.rawValue: "no space left on the device",
        CocoaError.fileWriteVolumeReadOnly.rawValue: "read-only file system",
        CocoaError.fileWriteFileExists.rawValue: "a file of that name is in the way",
        CocoaError.fileReadCorruptFile.rawValue: "the file is corrupt",
        CocoaError.fileReadInapplicableStringEncoding.rawValue: "the file is not text in the expected encoding",
    ]
}
