import Foundation

/// Compact JSON written straight into bytes, the same bytes `WireJSON.encoder` makes (keys in
/// the order the caller writes them, which must be sorted; slashes unescaped), for the large
/// documents whose encoding a user waits for: a test's step trace is megabytes of pictures and
/// element trees, and `JSONEncoder` took a tenth of a recorded test suite's CPU building and
/// escaping them value by value.
///
/// Every write is a `memcpy` into storage that grows by doubling, and runs that need no
/// escaping are found by libc: the tests that write traces are debug builds, where generic
/// Swift code over each byte or value is many times slower than in a release build.
///
/// Containers nest through closures: `object { $0.key("a"); $0.number(1) }`. A value written
/// after another in the same container is separated from it, so the caller writes values only.
package struct JSONWriter: ~Copyable {
    /// The bytes so far: memory of the writer's own (a class holding it would pay a runtime
    /// exclusivity check on every write).
    private var base: UnsafeMutableRawPointer
    private var count = 0
    private var capacity: Int
    /// The next value is the first in its container (or follows its key): no comma before it.
    private var startsContainer = true

    package init(reservingCapacity capacity: Int = 0) {
        self.capacity = max(capacity, 4096)
        base = malloc(self.capacity)!
    }

    deinit { free(base) }

    package var data: Data { Data(bytes: base, count: count) }

    /// An object whose members `body` writes as `key` then value, keys sorted.
    package mutating func object(_ body: (inout JSONWriter) throws -> Void) rethrows {
        separate()
        write(UInt8(ascii: "{"))
        startsContainer = true
        try body(&self)
        write(UInt8(ascii: "}"))
        startsContainer = false
    }

    /// An array of `items`, each written by `body`.
    package mutating func array<Items: Sequence>(
        _ items: Items, _ body: (inout JSONWriter, Items.Element) throws -> Void
    ) rethrows {
        separate()
        write(UInt8(ascii: "["))
        startsContainer = true
        for item in items { try body(&self, item) }
        write(UInt8(ascii: "]"))
        startsContainer = false
    }

    /// An object member's name (plain ASCII, nothing to escape); its value comes next.
    package mutating func key(_ name: StaticString) {
        separate()
        write(UInt8(ascii: "\""))
        write(name.utf8Start, count: name.utf8CodeUnitCount)
        write(UInt8(ascii: "\""))
        write(UInt8(ascii: ":"))
        startsContainer = true
    }

    /// Members with their names, as `key` then the value; one whose value is nil is left out,
    /// as `JSONEncoder` leaves out an optional that is nil.
    package mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    package mutating func member(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        key(name)
        number(value)
    }

    package mutating func member(_ name: StaticString, _ value: Double) throws {
        key(name)
        try number(value)
    }

    package mutating func member(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    package mutating func string(_ value: String) {
        separate()
        write(UInt8(ascii: "\""))
        value.withCString { start in
            let count = value.utf8.count
            var offset = 0
            while true {
                let run = strcspn(start + offset, Self.needsEscaping)
                write(start + offset, count: run)
                offset += run
                // A NUL ends `strcspn`'s run as the end does: told apart by the count.
                guard offset < count else { break }
                escape(UInt8(bitPattern: start[offset]))
                offset += 1
            }
        }
        write(UInt8(ascii: "\""))
    }

    /// A number as `JSONEncoder` writes a `Double`: its shortest exact form, without a
    /// trailing `.0`. A number JSON cannot hold (infinite, NaN) throws, as the encoder does.
    package mutating func number(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(value) is not a JSON number"))
        }
        // Whole numbers of points and pixels, most of a trace's: written as integers, as their
        // description reads without its ".0" (-0 keeps its sign).
        if abs(value) < 1e9, value == value.rounded(.towardZero), !(value == 0 && value.sign == .minus) {
            return number(Int(value))
        }
        separate()
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        text.withCString { write($0, count: strlen($0)) }
    }

    package mutating func number(_ value: Int) {
        separate()
        // Digits from the last, into a buffer on the stack.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { digits in
            var magnitude = value.magnitude
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                digits[start] = UInt8(ascii: "-")
            }
            write(digits.baseAddress! + start, count: digits.count - start)
        }
    }

    package mutating func bool(_ value: Bool) {
        separate()
        if value { write(Self.trueText.utf8Start, count: 4) } else { write(Self.falseText.utf8Start, count: 5) }
    }

    private static let trueText: StaticString = "true"
    private static let falseText: StaticString = "false"

    private mutating func separate() {
        if !startsContainer { write(UInt8(ascii: ",")) }
        startsContainer = false
    }

    /// Bytes a JSON string escapes, but NUL (which `strcspn` stops at anyway).
    private static let needsEscaping: [CChar] = [CChar(UInt8(ascii: "\"")), CChar(UInt8(ascii: "\\"))] + (1..<0x20).map { CChar($0) } + [0]

    private mutating func escape(_ byte: UInt8) {
        write(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): write(byte)
        case 0x08: write(UInt8(ascii: "b"))
        case 0x0C: write(UInt8(ascii: "f"))
        case 0x0A: write(UInt8(ascii: "n"))
        case 0x0D: write(UInt8(ascii: "r"))
        case 0x09: write(UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789abcdef"
            let digits = [
                UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex.utf8Start[Int(byte >> 4)], hex.utf8Start[Int(byte & 0xF)],
            ]
            digits.withUnsafeBufferPointer { write($0.baseAddress!, count: 5) }
        }
    }

    private mutating func write(_ bytes: UnsafeRawPointer, count added: Int) {
        if count + added > capacity { grow(to: count + added) }
        memcpy(base + count, bytes, added)
        count += added
    }

    private mutating func write(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    private mutating func grow(to needed: Int) {
        capacity = max(capacity * 2, needed)
        base = realloc(base, capacity)!
    }
}
