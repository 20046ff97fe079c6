import ShowreelAccessibility
import ShowreelGraphics
import ShowreelReport
import ShowreelTestSupport
import ShowreelTrace
import Testing

@testable import ShowreelDevice

/// What a device traced, as the report's step trace: times in the video's seconds, statuses,
/// pictures as inline JPEGs (each once), the element tree in the report's terms.
@Suite("Trace export")
struct TraceExportTests {
    static let screen = makePixels(index: 0, width: 64, height: 48)
    static let tapped = makePixels(index: 1, width: 64, height: 48)
    static let button = ElementSnapshot(
        type: .button, identifier: "ok", label: "OK", frame: Rect(x: 10, y: 20, width: 30, height: 40),
        isEnabled: true, isHittable: true)
    static let entries = [
        ActionTrace.Entry(
            title: "launchApp", start: .seconds(9), end: .milliseconds(10_250), query: nil, target: nil,
            before: nil, after: screen, tree: [], error: nil),
        ActionTrace.Entry(
            title: "tap", start: .milliseconds(10_250), end: .microseconds(11_000_400), query: #"buttons["ok"]"#,
            target: Rect(x: 10, y: 20, width: 30, height: 40), before: screen, after: tapped, tree: [button],
            error: "no such element"),
        ActionTrace.Entry(
            title: "wait", start: .seconds(11), end: .seconds(12), query: nil, target: nil,
            before: tapped, after: tapped, tree: [], error: nil, isInterrupted: true),
    ]

    @Test("times count from the video's start to the millisecond, never before it; statuses, targets and trees as the report reads them")
    func steps() {
        let trace = TraceExport.trace(of: Self.entries, screen: Size(width: 390, height: 844), videoStart: .seconds(10))
        #expect(trace.screen == RunTrace.Size(width: 390, height: 844))
        #expect(trace.steps.map(\.start) == [0, 0.25, 1])
        #expect(trace.steps.map(\.end) == [0.25, 1, 2])
        #expect(trace.steps.map(\.status) == [.passed, .failed, .interrupted])
        #expect(trace.steps[1].query == #"buttons["ok"]"#)
        #expect(trace.steps[1].target == RunTrace.Rect(x: 10, y: 20, width: 30, height: 40))
        #expect(trace.steps[1].error == "no such element")
        #expect(trace.steps[1].tree.map(\.identifier) == ["ok"])
        #expect(trace.steps[1].tree.first?.hittable == true)
    }

    @Test("each picture is encoded once, as a JPEG data URI, and shared by the steps that show it; none when not asked")
    func pictures() {
        let trace = TraceExport.trace(of: Self.entries, screen: Size(width: 64, height: 48), videoStart: .seconds(10))
        #expect(trace.pictures.count == 2)
        #expect(trace.pictures.allSatisfy { $0.hasPrefix("data:image/jpeg;base64,") })
        #expect(trace.steps.map(\.before) == [nil, 0, 1])
        #expect(trace.steps.map(\.after) == [0, 1, 1])
        let bare = TraceExport.trace(of: Self.entries, screen: Size(width: 64, height: 48), videoStart: .seconds(10), pictures: false)
        #expect(bare.pictures.isEmpty)
        #expect(bare.steps.allSatisfy { $0.before == nil && $0.after == nil })
        #expect(bare.steps.map(\.title) == trace.steps.map(\.title))
    }

    @Test("pictures the trace encoded as it went are taken as they are, each once; a picture without one is encoded here")
    func picturesEncodedAsTheyWereMade() {
        var entries = Self.entries
        entries[0].encodedAfter = "data:image/jpeg;base64,made-while-tracing"
        entries[1].encodedBefore = "data:image/jpeg;base64,made-while-tracing"
        let trace = TraceExport.trace(of: entries, screen: Size(width: 64, height: 48), videoStart: .seconds(10))
        #expect(trace.pictures.first == "data:image/jpeg;base64,made-while-tracing")
        #expect(trace.pictures.count == 2)
        #expect(
            trace.pictures[1]
                == TraceExport.trace(of: Self.entries, screen: Size(width: 64, height: 48), videoStart: .seconds(10)).pictures[1])
        #expect(trace.steps.map(\.before) == [nil, 0, 1])
    }
}
