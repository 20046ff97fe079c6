import Foundation
import ShowreelReport
import Testing

/// A trace's file is written by hand, for speed: it must be the very bytes `JSONEncoder` (sorted
/// keys, slashes as they are) makes, whatever its strings and numbers hold.
@Suite("Step trace JSON")
struct RunTraceJSONTests {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Every byte below 0x20, the characters JSON escapes, slashes, and text beyond ASCII.
    static let awkward =
        String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
        + #"quote " backslash \ slash / tab \#t DEL \#u{7F} é 日本 👩‍👩‍👧 \u2028"#

    static func element(_ depth: Int) -> RunTrace.Element {
        RunTrace.Element(
            type: "cell", identifier: depth.isMultiple(of: 2) ? "" : "row-\(depth)", label: awkward,
            value: depth.isMultiple(of: 3) ? nil : "value \(depth)",
            frame: RunTrace.Rect(x: 0.1, y: -0.0, width: 1e21, height: 1e-7 * Double(depth)),
            enabled: depth.isMultiple(of: 2), hittable: !depth.isMultiple(of: 2),
            children: depth < 4 ? [element(depth + 1), element(depth + 2)] : [])
    }

    static let trace = RunTrace(
        screen: RunTrace.Size(width: 390, height: 844.5),
        steps: [
            RunTrace.Step(title: "launchApp", start: 0, end: 0.25, status: .passed, after: 0, tree: [element(0)]),
            RunTrace.Step(
                title: "tap \(awkward)", start: 1.0 / 3, end: 123_456_789.123, status: .failed, query: #"buttons["ok/go"]"#,
                target: RunTrace.Rect(x: 10, y: 20.5, width: 30, height: 40), before: 0, after: 1, tree: [],
                error: "no such element:\n\(awkward)"),
            RunTrace.Step(title: "", start: .ulpOfOne, end: 2, status: .interrupted, before: 1),
            // Whole numbers around where they stop being written as integers, and a negative zero.
            RunTrace.Step(
                title: "-", start: 999_999_999, end: 1e9, status: .passed,
                target: RunTrace.Rect(x: -0.0, y: -42, width: 1e15, height: 123_456_789_012)),
        ],
        pictures: ["data:image/jpeg;base64," + String(repeating: "/9j/4AAQSkZJRgABAQ+==", count: 5000), ""])

    @Test("a trace's file is byte for byte what JSONEncoder makes of it, and reads back as the same trace")
    func sameBytesAsJSONEncoder() throws {
        let written = try Self.trace.encoded()
        let expected = try Self.encoder.encode(Self.trace)
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(try JSONDecoder().decode(RunTrace.self, from: written) == Self.trace)
    }

    @Test("a number JSON cannot hold is refused, as JSONEncoder refuses it")
    func nonFiniteNumbers() {
        for number in [Double.nan, .infinity, -.infinity] {
            var trace = Self.trace
            trace.steps[0].end = number
            #expect(throws: EncodingError.self) { try trace.encoded() }
        }
    }
}
