import Foundation

/// Compact JSON written straight into bytes, the same bytes `WireJSON.encoder` makes (keys in
/// the order the caller writes them, which must be sorted; slashes unescaped), for the large
/// documents whose encoding a user waits for: a test's step trace is megabytes of pictures and
/// element trees, and `JSONEncoder` took a tenth of a recorded test suite's CPU building and
/// escaping them value by value.
///
/// Containers nest through closures: `object { $0.key("a"); $0.number(1) }`. A value written
/// after another in the same container is separated from it, so the caller writes values only.
package struct JSONWriter {
    package private(set) var bytes: [UInt8] = []
    /// The next value is the first in its container (or follows its key): no comma before it.
    private var startsContainer = true

    package init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    package var data: Data { Data(bytes) }

    /// An object whose members `body` writes as `key` then value, keys sorted.
    package mutating func object(_ body: (inout JSONWriter) throws -> Void) rethrows {
        separate()
        bytes.append(UInt8(ascii: "{"))
        startsContainer = true
        try body(&self)
        bytes.append(UInt8(ascii: "}"))
        startsContainer = false
    }

    /// An array of `items`, each written by `body`.
    package mutating func array<Items: Sequence>(
        _ items: Items, _ body: (inout JSONWriter, Items.Element) throws -> Void
    ) rethrows {
        separate()
        bytes.append(UInt8(ascii: "["))
        startsContainer = true
        for item in items { try body(&self, item) }
        bytes.append(UInt8(ascii: "]"))
        startsContainer = false
    }

    /// An object member's name; its value comes next.
    package mutating func key(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        startsContainer = true
    }

    /// Members with their names, as `key` then the value; one whose value is nil is left out,
    /// as `JSONEncoder` leaves out an optional that is nil.
    package mutating func member(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    package mutating func member(_ name: String, _ value: Int?) {
        guard let value else { return }
        key(name)
        number(value)
    }

    package mutating func member(_ name: String, _ value: Double) throws {
        key(name)
        try number(value)
    }

    package mutating func member(_ name: String, _ value: Bool) {
        key(name)
        bool(value)
    }

    package mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        appendEscaped(value)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A number as `JSONEncoder` writes a `Double`: its shortest exact form, without a
    /// trailing `.0`. A number JSON cannot hold (infinite, NaN) throws, as the encoder does.
    package mutating func number(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(value) is not a JSON number"))
        }
        separate()
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    package mutating func number(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    package mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
    }

    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)

    private mutating func separate() {
        if !startsContainer { bytes.append(UInt8(ascii: ",")) }
        startsContainer = false
    }

    /// Appends `text` escaped as a JSON string's contents. Runs that need no escaping (all of a
    /// picture's base64) are found by libc and copied whole: the tests that make traces are
    /// debug builds, where a Swift loop over megabytes of bytes is slow.
    private mutating func appendEscaped(_ text: String) {
        text.withCString { start in
            let count = text.utf8.count
            var offset = 0
            while true {
                let run = strcspn(start + offset, Self.needsEscaping)
                bytes.append(contentsOf: UnsafeRawBufferPointer(start: start + offset, count: run))
                offset += run
                // A NUL ends `strcspn`'s run as the end does: told apart by the count.
                guard offset < count else { return }
                escape(UInt8(bitPattern: start[offset]))
                offset += 1
            }
        }
    }

    /// Bytes a JSON string escapes, but NUL (which `strcspn` stops at anyway).
    private static let needsEscaping: [CChar] = [CChar(UInt8(ascii: "\"")), CChar(UInt8(ascii: "\\"))] + (1..<0x20).map { CChar($0) } + [0]

    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
        }
    }
}
