import Foundation
import Testing

/// Bytes attached to a Swift Testing test (a screenshot, a kept video), through Swift Testing's
/// public `Attachable` protocol: a file is read when the attachment is saved, not before.
struct FileAttachment: Attachable, Sendable {
    enum Source: Sendable {
        case bytes(Data)
        case file(URL)
    }

    let source: Source

    var estimatedAttachmentByteCount: Int? {
        switch source {
        case let .bytes(data): data.count
        case let .file(url): (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
        }
    }

    func withUnsafeBytes<R>(for attachment: borrowing Attachment<FileAttachment>, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R
    {
        switch source {
        case let .bytes(data): return try data.withUnsafeBytes(body)
        case let .file(url): return try Data(contentsOf: url, options: .alwaysMapped).withUnsafeBytes(body)
        }
    }

    func preferredName(for attachment: borrowing Attachment<FileAttachment>, basedOn suggestedName: String) -> String {
        if case let .file(url) = source { return url.lastPathComponent }
        return suggestedName
    }
}
