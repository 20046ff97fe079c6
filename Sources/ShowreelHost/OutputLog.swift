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
}
