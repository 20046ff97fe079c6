import Foundation
import ShowreelDevice
import ShowreelReport
import ShowreelTestSupport
import ShowreelTesting
import ShowreelTrace
import ShowreelWire
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The automation API's step trace (`/v1/trace`): what a recording made in another process
/// uses, over real HTTP. Wrong requests are refused with a sentence saying what to do.
@Suite("Automation API trace routes")
struct AutomationTraceTests {
    /// Sends `body` to `route`; the status and the error sentence (empty on success).
    static func send(_ h: AutomationAPITests.Harness, _ route: Route, _ body: String? = nil) async throws -> (Int, String) {
        var request = URLRequest(url: URL(string: h.client.baseURL!.absoluteString + route.path())!)
        request.httpMethod = route.method.rawValue
        request.timeoutInterval = 600  // a hang's bound; a loaded machine may answer late
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await httpData(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return (status, status < 300 ? "" : try WireJSON.decoder.decode(ErrorBody.self, from: data).error)
    }

    typealias Routes = AutomationAPI.Routes

    @Test(
        "traces are per recording: a second start runs beside the first, an end names its id when several run; a recording of the device's own process is not joined; an end without a start is 409, a bad videoStart is 400 naming it; steps open and close one at a time"
    )
    func refusals() async throws {
        try await AutomationAPITests.Harness.with(traceExporter: TraceExport.exporter) { h in
            var (status, error) = try await Self.send(h, Routes.traceEnd, #"{"videoStart": 0}"#)
            #expect(status == 409 && error.contains("start one with POST /v1/trace"), "\(status) \(error)")
            (status, error) = try await Self.send(h, Routes.traceStep, #"{"title": "a step"}"#)
            #expect(status == 409 && error.contains("no trace is running"), "\(status) \(error)")

            // A recording in the device's own process is tracing it: not to be taken over.
            await h.device.setActionTrace(ActionTrace())
            (status, error) = try await Self.send(h, Routes.traceStart)
            #expect(status == 409 && error.contains("wait until it has finished"), "\(status) \(error)")
            await h.device.setActionTrace(nil)

            let first = try await h.client.startTrace()
            // A second recording of the device (two tests sharing it) gets a trace of its own.
            let second = try await h.client.startTrace()
            #expect(first.id != nil && second.id != nil && first.id != second.id)
            (status, error) = try await Self.send(h, Routes.traceEnd, #"{"videoStart": 0}"#)
            #expect(status == 409 && error.contains("2 recordings trace this device"), "\(status) \(error)")
            (status, error) = try await Self.send(h, Routes.traceEnd, #"{"videoStart": 0, "id": "nope"}"#)
            #expect(status == 409 && error.contains("no trace 'nope'"), "\(status) \(error)")
            _ = try await h.client.endTrace(second.id, videoStart: .zero, pictures: false, as: RunTrace.self)

            for (body, field) in [
                (#"{"videoStart": -1}"#, "'videoStart'"), (#"{"videoStart": "soon"}"#, "'videoStart'"), ("{}", "'videoStart'"),
                (#"{"videoStart": 1, "pictures": "yes"}"#, "'pictures'"),
            ] {
                (status, error) = try await Self.send(h, Routes.traceEnd, body)
                #expect(status == 400 && error.contains(field), "\(body): \(status) \(error)")
            }
            (status, error) = try await Self.send(h, Routes.traceStep, #"{"title": ""}"#)
            #expect(status == 400 && error.contains("'title'"), "\(status) \(error)")

            (status, error) = try await Self.send(h, Routes.traceStepEnd)
            #expect(status == 409 && error.contains("no step is open"), "\(status) \(error)")
            (status, _) = try await Self.send(h, Routes.traceStep, #"{"title": "first"}"#)
            #expect(status == 200)
            (status, error) = try await Self.send(h, Routes.traceStep, #"{"title": "second"}"#)
            #expect(status == 409 && error.contains("'first' is still open"), "\(status) \(error)")
            (status, _) = try await Self.send(h, Routes.traceStepEnd, "{}")
            #expect(status == 200)

            // The refused requests left the trace running: it ends once, with the step.
            let trace = try await h.client.endTrace(videoStart: .zero, pictures: false, as: RunTrace.self)
            #expect(trace.steps.map(\.title) == ["first"])
            #expect(
                trace.pictures.isEmpty && trace.steps.allSatisfy { $0.before == nil && $0.after == nil }, "pictures: false encodes none")
            (status, error) = try await Self.send(h, Routes.traceEnd, #"{"videoStart": 0}"#)
            #expect(status == 409, "\(status) \(error)")
        }
    }

    @Test("two traces of one device each get what the device did while they ran; traces never collected are given up, oldest first")
    func tracesPerRecording() async throws {
        try await AutomationAPITests.Harness.with(traceExporter: TraceExport.exporter) { h in
            let app = Application("dev.showreel.hello", device: h.client)
            try await app.launch()
            let first = try await h.client.startTrace()
            try await app.buttons["tapButton"].tap()
            let second = try await h.client.startTrace()
            try await app.buttons["tapButton"].tap()
            let one = try await h.client.endTrace(first.id, videoStart: first.time, pictures: false, as: RunTrace.self)
            try await app.buttons["tapButton"].tap()
            let two = try await h.client.endTrace(second.id, videoStart: second.time, pictures: false, as: RunTrace.self)
            #expect(one.steps.count == 2 && two.steps.count == 2, "\(one.steps.map(\.title)) \(two.steps.map(\.title))")
            #expect(two.steps.first?.start == 0, "each trace's times count from its own video start")

            // Clients killed before collecting theirs: the device stays traceable.
            let abandoned = try await h.client.startTrace()
            for _ in 1..<Device.maximumTraces { _ = try await h.client.startTrace() }
            let newest = try await h.client.startTrace()
            let (status, error) = try await Self.send(
                h, Routes.traceEnd, "{\"videoStart\": 0, \"id\": \"\(abandoned.id ?? "")\"}")
            #expect(status == 409 && error.contains("no trace"), "the oldest was given up: \(status) \(error)")
            _ = try await h.client.endTrace(newest.id, videoStart: newest.time, pictures: false, as: RunTrace.self)
        }
    }

    @Test("videoStart 1e300 or 1e21 is a 400 naming it, not a crash of the device (a Duration traps past Int64 seconds)")
    func hugeVideoStart() async throws {
        try await AutomationAPITests.Harness.with(traceExporter: TraceExport.exporter) { h in
            var (status, error) = try await Self.send(h, Routes.traceStart)
            #expect(status == 200)
            for value in ["1e300", "1e21", "1000000001", "1.7976931348623157e308"] {
                (status, error) = try await Self.send(h, Routes.traceEnd, #"{"videoStart": \#(value)}"#)
                #expect(status == 400 && error.contains("'videoStart'") && error.contains("1000000000"), "\(value): \(status) \(error)")
            }
            let trace = try await h.client.endTrace(nil, videoStart: .zero, pictures: false, as: RunTrace.self)
            #expect(trace.steps.isEmpty, "the refused ends left the trace running; it ends once")
        }
    }

    @Test("a trace never collected is capped: past its bytes no pictures or trees are kept, past its entries no actions are traced")
    func traceCap() async throws {
        try await AutomationAPITests.Harness.with(traceExporter: TraceExport.exporter) { h in
            let app = Application("dev.showreel.hello", device: h.client)
            try await app.launch()
            let capped = ActionTrace(maxBytes: 1, maxEntries: 4)
            await h.device.setActionTrace(capped)
            for _ in 0..<6 { try await app.buttons["tapButton"].tap() }
            await h.device.setActionTrace(nil)
            #expect(capped.entries.count == 4 && capped.dropped == 2, "\(capped.entries.count) entries, \(capped.dropped) dropped")
            #expect(capped.entries.allSatisfy { $0.before == nil && $0.after == nil }, "the first tree filled the byte cap")
            #expect(!capped.entries[0].tree.isEmpty && capped.entries.dropFirst().allSatisfy(\.tree.isEmpty))

            let whole = ActionTrace()
            await h.device.setActionTrace(whole)
            for _ in 0..<6 { try await app.buttons["tapButton"].tap() }
            await h.device.setActionTrace(nil)
            #expect(whole.entries.count == 6 && whole.dropped == 0)
            #expect(
                whole.entries.allSatisfy { $0.before != nil && $0.after != nil && !$0.tree.isEmpty }, "below the caps everything is kept")
        }
    }

    @Test("a traced step over HTTP has the target of the tap inside it, the screens before and after, and its error")
    func tracedStep() async throws {
        try await AutomationAPITests.Harness.with(traceExporter: TraceExport.exporter) { h in
            let app = Application("dev.showreel.hello", device: h.client)
            try await app.launch()
            let frame = try await app.buttons["tapButton"].frame
            let started = try await h.client.startTrace().time
            #expect(h.client.lastDeviceTime == started, "every answer says the device time (virtual clock: none passed since)")
            try await h.client.beginTraceStep("click tapButton")
            try await app.buttons["tapButton"].tap()
            try await h.client.endTraceStep(error: "the test said so")
            try await app.buttons["tapButton"].tap()
            let trace = try await h.client.endTrace(videoStart: started, pictures: true, as: RunTrace.self)
            #expect(trace.steps.map(\.title) == ["click tapButton", "tap buttons[\"tapButton\"]"])
            let step = try #require(trace.steps.first)
            #expect(step.status == .failed && step.error == "the test said so")
            #expect(step.query == "buttons[\"tapButton\"]")
            #expect(step.target == RunTrace.Rect(x: frame.x, y: frame.y, width: frame.width, height: frame.height))
            #expect(step.start == 0 && step.end > 0, "times count from videoStart")
            let (before, after) = (try #require(step.before), try #require(step.after))
            #expect(trace.pictures[before] != trace.pictures[after], "the label changed with the tap")
            #expect(!step.tree.isEmpty)
        }
    }

    @Test("an automation API without a trace exporter says it cannot trace")
    func withoutExporter() async throws {
        try await AutomationAPITests.Harness.with { h in
            let (status, error) = try await Self.send(h, Routes.traceStart)
            #expect(status == 501 && error.contains("showreel device boot"), "\(status) \(error)")
            await #expect(throws: DeviceClient.Failure.self) { try await h.client.startTrace() }
        }
    }

    @Test("a trace's start names the first frame of the display-stream recorder connected last: a recorder in another process")
    func recordingStart() async throws {
        try await AutomationAPITests.Harness.with(traceExporter: TraceExport.exporter) { h in
            #expect(try await h.client.startTrace().recordingStart == nil, "no recorder yet")
            _ = try await h.client.endTrace(videoStart: .zero, pictures: false, as: RunTrace.self)
            _ = try await h.client.perform(.wait(.seconds(2)))
            let stream = try DisplayStreamClient(socketPath: h.device.display.socketPath)
            defer { stream.close() }
            guard case let .frame(first)? = try stream.next() else { throw TestFailure("no first frame") }
            _ = try await h.client.perform(.wait(.seconds(1)))
            let started = try await h.client.startTrace()
            #expect(started.recordingStart == first.presentationTime && started.time == first.presentationTime + .seconds(1))
        }
    }
}
