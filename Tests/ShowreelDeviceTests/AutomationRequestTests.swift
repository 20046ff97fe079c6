import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelDevice
import ShowreelRender
import ShowreelTestSupport
import ShowreelTesting
import ShowreelWire
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the automation API does with concurrent, oversized, misspelt and abandoned requests,
/// over real HTTP.
@Suite("Automation requests")
struct AutomationRequestTests {
    typealias Harness = AutomationAPITests.Harness

    func post(_ h: Harness, _ path: String, _ json: String, timeout: TimeInterval = 600) async throws -> (Int, String) {
        try await Self.post(h.client.baseURL!, path, json, timeout: timeout)
    }

    /// A request with a JSON body (none when nil) by `method`, POST unless told.
    static func post(_ base: URL, _ path: String, _ json: String?, method: String = "POST", timeout: TimeInterval = 600) async throws -> (
        Int, String
    ) {
        var request = URLRequest(url: base.appendingPathComponent(path))
        request.httpMethod = method
        request.httpBody = json.map { Data($0.utf8) }
        request.timeoutInterval = timeout
        let (data, response) = try await httpData(for: request)
        return (response.statusCode, String(decoding: data, as: UTF8.self))
    }

    @Test("50 concurrent taps are applied one after another: the counter reads 50")
    func concurrentTaps() async throws {
        try await Harness.with { h in
            let app = Application(HelloApp.bundleIdentifier, device: h.client)
            try await app.launch()
            let tap = #"{"query":{"steps":[{"axis":"descendants","identifier":"tapButton"}]}}"#
            let base = h.client.baseURL!
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                // Each waits for the taps queued before it: on a loaded machine the last one's
                // answer comes long after it was sent, and that is no hang.
                for _ in 0..<50 { group.addTask { try await Self.post(base, "v1/tap", tap, timeout: 600).0 } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 50))
            #expect(try await app.staticTexts["tapCount"].label == "Tapped 50 times")
        }
    }

    @Test("a tap sent while a long tap runs waits its turn instead of being dropped")
    func tapDuringLongTap() async throws {
        try await Harness.with { h in
            let app = Application(HelloApp.bundleIdentifier, device: h.client)
            try await app.launch()
            let base = h.client.baseURL!
            async let long = Self.post(base, "v1/tap", #"{"query":{"steps":[{"axis":"descendants","identifier":"tapButton"}]},"count":30}"#)
            async let short = Self.post(base, "v1/tap", #"{"query":{"steps":[{"axis":"descendants","identifier":"tapButton"}]}}"#)
            let (first, second) = try await (long, short)
            #expect(first.0 == 200 && second.0 == 200)
            let label = try await app.staticTexts["tapCount"].label
            #expect(label == "Tapped 30 times" || label == "Tapped 31 times", "got \(label)")
        }
    }

    @Test(
        "counts, durations, text length and points are bounded: 400 with the limit",
        arguments: [
            (#"{"point":{"x":10,"y":10},"count":1000000}"#, "v1/tap", "'count' must be from 1 to 100"),
            (#"{"point":{"x":10,"y":10},"count":-5}"#, "v1/tap", "'count' must be from 1 to 100"),
            (#"{"point":{"x":-100,"y":-100}}"#, "v1/tap", "'point' must be on the screen"),
            (#"{"point":{"x":1e308,"y":10}}"#, "v1/tap", "'point' must be on the screen"),
            (#"{"point":{"x":10,"y":10},"duration":86400}"#, "v1/tap", "'duration' must be a number of seconds from 0 to 60"),
            (#"{"from":{"x":10,"y":10},"to":{"x":10,"y":5000}}"#, "v1/swipe", "'to' must be on the screen"),
            (#"{"seconds":99999}"#, "v1/wait", "'seconds' must be a number of seconds from 0 to 3600"),
            (#"{"key":"d","modifiers":["hyper"]}"#, "v1/key-command", "'modifiers' must name command, shift, option or control"),
            (#"{"point":{"x":10,"y":10},"query":{"steps":[]}}"#, "v1/tap", "needs either 'query' or 'point', not both or neither"),
        ])
    func bounds(body: String, path: String, message: String) async throws {
        try await Harness.with { h in
            try await h.client.launch(HelloApp.bundleIdentifier)
            let (status, text) = try await post(h, path, body)
            #expect(status == 400)
            #expect(text.contains(message), "got \(text)")
        }
    }

    @Test("an element query of more than 256 steps is a 400 naming it, on the query routes and in actions (each step walks the tree)")
    func longQuery() async throws {
        try await Harness.with { h in
            let steps = Array(repeating: #"{"axis": "descendants"}"#, count: 20_000).joined(separator: ",")
            for (path, body) in [
                ("v1/query", #"{"query": {"steps": [\#(steps)]}}"#), ("v1/element", #"{"query": {"steps": [\#(steps)]}}"#),
                ("v1/tap", #"{"query": {"steps": [\#(steps)]}}"#),
                ("v1/wait-for", #"{"query": {"steps": [\#(steps)]}, "timeout": 1}"#),
            ] {
                let (status, text) = try await post(h, path, body)
                #expect(
                    status == 400 && text.contains("'query' must have at most 256 steps, got 20000"),
                    "\(path): \(status) \(text.prefix(200))")
            }
            let (status, _) = try await post(h, "v1/query", #"{"query": {"steps": [{"axis": "descendants"}]}}"#)
            #expect(status == 200)
        }
    }

    @Test("a text longer than the limit is refused before typing starts")
    func longText() async throws {
        try await Harness.with { h in
            let (status, text) = try await post(h, "v1/type", #"{"text":"\#(String(repeating: "a", count: 10_000))"}"#)
            #expect(status == 400)
            #expect(text.contains("'text' must be at most 1000 characters, got 10000"), "got \(text)")
        }
    }

    @Test(
        "unknown fields are refused, naming the field and the spelling that was meant",
        arguments: [
            (
                #"{"query":{"steps":[{"axis":"descendants","identifer":"tapButton"}]}}"#, "v1/tap",
                "unknown field 'query.steps[0].identifer'. Did you mean 'identifier'?"
            ),
            (#"{"kye":"a"}"#, "v1/key", "unknown field 'kye'. Did you mean 'key'?"),
            (#"{"point":{"x":10,"y":10},"cuont":2}"#, "v1/tap", "unknown field 'cuont'. Did you mean 'count'?"),
            (#"{"seconds":1,"banana":true}"#, "v1/wait", "unknown field 'banana'. Valid fields here: seconds."),
        ])
    func unknownFields(body: String, path: String, message: String) async throws {
        try await Harness.with { h in
            let app = Application(HelloApp.bundleIdentifier, device: h.client)
            try await app.launch()
            let before = try await app.staticTexts["tapCount"].label
            let (status, text) = try await post(h, path, body)
            #expect(status == 400)
            #expect(text.contains(message), "got \(text)")
            #expect(try await app.staticTexts["tapCount"].label == before, "nothing was tapped")
        }
    }

    @Test("typing stops when its client goes away, and the next action runs")
    func typingCancelledOnHangUp() async throws {
        try await Harness.with { h in
            try await h.client.launch(SignUpApp.bundleIdentifier)
            let field = ElementQuery.textField("email")
            // 1000 keys take many seconds of rendering; the client gives up after half a second.
            await #expect(throws: (any Error).self) {
                _ = try await post(h, "v1/type", #"{"text":"\#(String(repeating: "a", count: 1000))"}"#, timeout: 0.5)
            }
            // Typing stops soon after (how soon depends on the machine's load): the text stops
            // growing, well short of the 1000 keys asked for.
            var typed = try await h.client.element(field).value ?? ""
            var stopped = false
            for _ in 0..<40 where !stopped {
                try await Task.sleep(for: .milliseconds(500))
                let now = try await h.client.element(field).value ?? ""
                stopped = now == typed
                typed = now
            }
            #expect(stopped, "typing went on after the client left: \(typed.count) characters")
            #expect(typed.count < 1000)
            // The queue is free: a new action runs at once.
            _ = try await h.client.perform(.tap(DeviceAction.Tap(.point(Point(x: 10, y: 10)))))
        }
    }
}
