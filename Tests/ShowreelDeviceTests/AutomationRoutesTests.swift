import Foundation
import ShowreelDevice
import ShowreelTestSupport
import ShowreelTesting
import ShowreelWire
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The automation server serves every route `AutomationAPI.Routes` defines (what `DeviceClient`
/// calls): no route of the shared list is left to Hummingbird's empty 404 or 405.
@Suite("Automation API routes")
struct AutomationRoutesTests {
    @Test("every shared automation route is served and answers JSON (or PNG)")
    func everyRouteServed() async throws {
        try await AutomationAPITests.Harness.with { h in
            for route in AutomationAPI.Routes.all {
                let path = route.path(route.parameters.map { _ in "dev.showreel.nope" })
                var request = URLRequest(url: URL(string: h.client.baseURL!.absoluteString + path)!)
                request.httpMethod = route.method.rawValue
                request.timeoutInterval = 600  // a hang's bound; a loaded machine may answer late
                if route.method != .get {
                    request.httpBody = Data("{}".utf8)
                    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                }
                let (data, response) = try await httpData(for: request)
                let http = try #require(response as? HTTPURLResponse)
                let type = http.value(forHTTPHeaderField: "Content-Type") ?? ""
                #expect(http.statusCode != 405, "\(route)")
                #expect(type.hasPrefix("application/json") || type == "image/png", "\(route): \(http.statusCode) \(type)")
                if http.statusCode >= 400 {
                    // Every error is the shared body with a sentence, never an empty 404.
                    let body = try WireJSON.decoder.decode(ErrorBody.self, from: data)
                    #expect(!body.error.isEmpty, "\(route)")
                }
            }
        }
    }

    @Test("web pages cannot drive the device: Origin, Sec-Fetch-Site and a rebinding Host are 403, and nothing runs")
    func webPagesRefused() async throws {
        try await AutomationAPITests.Harness.with { h in
            try await h.device.launch("dev.showreel.hello")
            let before = await h.device.tree()
            let tap = Data(#"{"query":{"steps":[{"axis":"descendants","key":"tapButton"}]}}"#.utf8)
            for (name, value) in [
                ("Origin", "http://evil.example"), ("Origin", "null"), ("Sec-Fetch-Site", "cross-site"),
                ("Host", "evil.example"), ("Host", "127.evil.example"),
            ] {
                var request = URLRequest(url: URL(string: h.client.baseURL!.absoluteString + AutomationAPI.Routes.tap.path())!)
                request.httpMethod = "POST"
                request.timeoutInterval = 600
                request.httpBody = tap
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.setValue(value, forHTTPHeaderField: name)
                let (data, response) = try await httpData(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == 403, "\(name): \(value)")
                #expect(try WireJSON.decoder.decode(ErrorBody.self, from: data).error.contains("web pages") || name == "Host", "\(name)")
            }
            #expect(await h.device.tree() == before, "a refused request tapped the device")
        }
    }

    @Test("a route fills its parameters and reads back its template")
    func routePaths() {
        let route = AutomationAPI.Routes.waitForState
        #expect(route.parameters == ["bundle"])
        #expect(route.path("dev.showreel.hello") == "/v1/apps/dev.showreel.hello/wait-for-state")
        #expect(route.readableTemplate == "/v1/apps/{bundle}/wait-for-state")
        #expect(route.matches(path: "/v1/apps/x/wait-for-state") && !route.matches(path: "/v1/apps//wait-for-state"))
        #expect(Set(AutomationAPI.Routes.all).count == AutomationAPI.Routes.all.count)
    }
}
