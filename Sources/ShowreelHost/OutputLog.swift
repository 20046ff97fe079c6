import Foundation

/// Which output stream of a child a chunk came from.
enum OutputStream: String, Sendable, Codable {
    case stdout
    case stderr
}

/// A bounded log of a child's output in arrival order, both streams interleaved.
///
/// Offsets are absolute (bytes since the start of the command), so a reader following the
/// output keeps its place even when the oldest bytes are dropped to stay under the limit.
struct OutputLog: Sendable {
    struct Chunk: Sendable {
        var stream: OutputStream
        var offset: Int
        var bytes: [UInt8]
    }

    let limit: Int
    private var chunks: [Chunk] = []
    private var head = 0
    /// Absolute offset of the first byte still held.
    private(set) var startOffset = 0
    /// Absolute offset one past the last byte received.
    private(set) var endOffset = 0

    init(limit: Int) {
        self.limit = max(limit, 1)
    }

    var droppedBytes: Int { startOffset }
    /// Bytes held in memory.
    var retainedBytes: Int { endOffset - startOffset }
    var isTruncated: Bool { startOffset > 0 }

    mutating func append(_ stream: OutputStream, _ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if chunks.count > head, chunks[chunks.count - 1].stream == stream, chunks[chunks.count - 1].bytes.count < 16 * 1024 {
            chunks[chunks.count - 1].bytes.append(contentsOf: bytes)
        } else {
            chunks.append(Chunk(stream: stream, offset: endOffset, bytes: bytes))
        }
        endOffset += bytes.count
        trim()
    }

    private mutating func trim() {
        while endOffset - startOffset > limit, head < chunks.count {
            let excess = endOffset - startOffset - limit
            let first = chunks[head]
            if first.bytes.count <= excess {
                startOffset += first.bytes.count
                chunks[head].bytes = []
                head += 1
            } else {
                chunks[head].bytes.removeFirst(excess)
                chunks[head].offset += excess
                startOffset += excess
            }
        }
        if head > 64, head * 2 > chunks.count {
            chunks.removeFirst(head)
            head = 0
        }
    }

    /// The retained bytes of one stream, or of both interleaved when `stream` is nil.
    func bytes(of stream: OutputStream?) -> [UInt8] {
        var out: [UInt8] = []
        for chunk in chunks[head...] where stream == nil || chunk.stream == stream {
            out.append(contentsOf: chunk.bytes)
        }
        return out
    }

    func text(of stream: OutputStream?) -> String {
        String(decoding: bytes(of: stream), as: UTF8.self)
    }

    /// Bytes from absolute `offset` on (clamped to what is still held), as chunks, and the
    /// offset to ask for next time.
    func chunks(from offset: Int, of stream: OutputStream?) -> (chunks: [Chunk], next: Int) {
        var result: [Chunk] = []
        let from = max(offset, startOffset)
        for chunk in chunks[head...] {
            let end = chunk.offset + chunk.bytes.count
            guard end > from else { continue }
            guard stream == nil || chunk.stream == stream else { continue }
            if chunk.offset >= from {
                result.append(chunk)
            } else {
                let skip = from - chunk.offset
                result.append(Chunk(stream: chunk.stream, offset: from, bytes: Array(chunk.bytes[skip...])))
            }
        }
        return (result, endOffset)
    }

    /// The same offsets with no bytes held (the bytes went to a spool file).
    func emptied() -> OutputLog {
        var log = OutputLog(limit: limit)
        log.startOffset = endOffset
        log.endOffset = endOffset
        return log
    }

    // MARK: Spool files

    /// The log as bytes: start and end offsets, then each chunk as stream, offset, length, bytes.
    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(retainedBytes + 16 + (chunks.count - head) * 17)
        func append(_ value: Int) { withUnsafeBytes(of: UInt64(value).littleEndian) { out.append(contentsOf: $0) } }
        append(startOffset)
        append(endOffset)
        for chunk in chunks[head...] where !chunk.bytes.isEmpty {
            out.append(chunk.stream == .stdout ? 1 : 2)
            append(chunk.offset)
            append(chunk.bytes.count)
            out.append(contentsOf: chunk.bytes)
        }
        return out
    }

    /// A log from `encoded()` bytes; nil when they are not one.
    static func decoded(_ bytes: [UInt8], limit: Int) -> OutputLog? {
        var index = 0
        func integer() -> Int? {
            guard index + 8 <= bytes.count else { return nil }
            var value: UInt64 = 0
            for i in 0..<8 { value |= UInt64(bytes[index + i]) << (8 * UInt64(i)) }
            index += 8
            return Int(exactly: value)
        }
        guard let start = integer(), let end = integer() else { return nil }
        var log = OutputLog(limit: limit)
        log.startOffset = start
        log.endOffset = end
        while index < bytes.count {
            let stream: OutputStream = bytes[index] == 1 ? .stdout : .stderr
            index += 1
            guard let offset = integer(), let count = integer(), index + count <= bytes.count else { return nil }
            log.chunks.append(Chunk(stream: stream, offset: offset, bytes: Array(bytes[index..<(index + count)])))
            index += count
        }
        return log
    }

    static func read(from path: String, limit: Int) throws -> OutputLog? {
        decoded(Array(try Data(contentsOf: URL(fileURLWithPath: path))), limit: limit)
    }
}
