import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A run's video as a browser's `<video>` wants it: byte ranges (`Range: bytes=a-b`, a 206), so
/// a click on a chapter seeks without loading the file again.
enum RangedFile {
    static func response(_ data: Data, type: String, range: String?) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        headers[.acceptRanges] = "bytes"
        guard let range, let (start, end) = bounds(range, count: data.count) else {
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        headers[.contentRange] = "bytes \(start)-\(end)/\(data.count)"
        return Response(
            status: .partialContent, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data[start...end])))
    }

    /// `bytes=a-b`, `bytes=a-` or `bytes=-n` within `count` bytes; nil for anything else (the
    /// whole file is sent instead).
    static func bounds(_ header: String, count: Int) -> (Int, Int)? {
        guard count > 0, header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let parts = header.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty {
            guard let suffix = Int(parts[1]), suffix > 0 else { return nil }
            return (max(0, count - suffix), count - 1)
        }
        guard let start = Int(parts[0]), start < count else { return nil }
        let end = parts[1].isEmpty ? count - 1 : min(Int(parts[1]) ?? -1, count - 1)
        return end >= start ? (start, end) : nil
    }
}
