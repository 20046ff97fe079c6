#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure on a wire between Showreel processes, worded for the person who has to act.
package enum WireError: Error, CustomStringConvertible, Equatable, Sendable {
    case system(String, Int32)
    case pathTooLong(String, limit: Int)
    case truncated
    case protocolViolation(String)

    public var description: String {
        switch self {
        case let .system(operation, code):
            return "\(operation) failed: \(String(cString: strerror(code)))"
        case let .pathTooLong(path, limit):
            return "socket path \(path) is longer than the \(limit) bytes Unix sockets allow; "
                + "set SHOWREEL_HOME to a shorter folder"
        case .truncated:
            return "the connection closed in the middle of a message"
        case let .protocolViolation(what):
            return "unexpected data on the display stream: \(what)"
        }
    }
}
