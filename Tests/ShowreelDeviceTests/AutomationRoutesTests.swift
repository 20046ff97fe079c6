import Foundation
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
                var request = URLRequest(url: URL(string: h.client.baseURL.absoluteString + path)!)
                request.httpMethod = route.method.rawValue
                if route.method != .get {
                    request.httpBody = Data("{}".utf8)
                    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                }
                let (data, response) = try await URLSession.shared.data(for: request)
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
