import Foundation
import ShowcaseApps
import ShowreelDevice
import ShowreelTestSupport
import ShowreelTesting
import ShowreelWire
import Testing

/// Airplane mode over real HTTP: apps read it, the status bar shows it.
@Suite("Device network state over HTTP")
struct NetworkTests {
    typealias Harness = AutomationAPITests.Harness

    @Test("PUT /v1/network turns airplane mode on: Places says it is offline, the status bar changes; off again, it is back")
    func airplaneMode() async throws {
        try await Harness.with { h in
            let places = Application(PlacesApp.bundleIdentifier, device: h.client)
            try await places.launch()
            #expect(try await !places.staticTexts["networkStatus"].exists)
            let before = try await h.client.screenshotPNG()
            let (status, body) = try await SystemActionTests.send(h.client.baseURL!, "PUT", "/v1/network", #"{"airplaneMode":true}"#)
            #expect(status == 200, "\(body)")
            #expect(try await h.client.airplaneMode())
            #expect(try await places.staticTexts["networkStatus"].label == "Offline: airplane mode is on")
            #expect(try await h.client.screenshotPNG() != before)
            try await h.client.setAirplaneMode(false)
            #expect(try await !places.staticTexts["networkStatus"].exists)
            let (read, answer) = try await SystemActionTests.send(h.client.baseURL!, "GET", "/v1/network", nil)
            #expect(read == 200 && answer.contains(#""airplaneMode":false"#), "\(answer)")
            let (bad, message) = try await SystemActionTests.send(h.client.baseURL!, "PUT", "/v1/network", #"{"airplaneMode":"yes"}"#)
            #expect(bad == 400 && message.contains("airplaneMode"), "\(message)")
        }
    }
}
