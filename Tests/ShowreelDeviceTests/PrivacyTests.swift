import Foundation
import ShowcaseApps
import ShowreelDevice
import ShowreelGraphics
import ShowreelTestSupport
import ShowreelTesting
import ShowreelWire
import Testing

/// `simctl privacy` over real HTTP: permissions set before an app asks, and the alert it shows
/// when they are not, answered like any alert.
@Suite("Device privacy over HTTP")
struct PrivacyTests {
    typealias Harness = AutomationAPITests.Harness

    @Test("granted before the launch, Places shares at once; revoked, it is ended and then refused; reset, it asks and a tap answers")
    func grantRevokeReset() async throws {
        try await Harness.with { h in
            let places = Application(PlacesApp.bundleIdentifier, device: h.client)
            try await h.client.privacy(.grant, .location, bundleIdentifier: PlacesApp.bundleIdentifier)
            try await places.launch()
            try await places.buttons["shareLocation"].tap()
            #expect(try await places.staticTexts["locationStatus"].label == "Location shared")
            #expect(try await !places.alerts.firstMatch.exists)

            let (status, body) = try await SystemActionTests.send(
                h.client.baseURL!, "POST", "/v1/privacy", #"{"action":"revoke","service":"all","bundleIdentifier":"dev.showreel.places"}"#)
            #expect(status == 200, "\(body)")
            #expect(try await places.state == .notRunning, "a revoke ends the running app, as iOS does")
            try await places.launch()
            try await places.buttons["shareLocation"].tap()
            #expect(try await places.staticTexts["locationStatus"].label == "Location not allowed: allow it in Settings.")
            #expect(try await h.client.permissions(of: PlacesApp.bundleIdentifier)[.camera] == .denied)

            try await h.client.privacy(.reset, nil, bundleIdentifier: nil)
            #expect(try await h.client.permissions(of: PlacesApp.bundleIdentifier).isEmpty)
            try await places.launch()
            try await places.buttons["shareLocation"].tap()
            #expect(try await places.alerts["Allow “Places” to use your location?"].exists)
            try await places.alerts.buttons["Allow While Using App"].tap()
            #expect(try await places.staticTexts["locationStatus"].label == "Location shared")
            let (read, permissions) = try await SystemActionTests.send(
                h.client.baseURL!, "GET", "/v1/apps/dev.showreel.places/permissions", nil)
            #expect(read == 200 && permissions.contains(#""location":"granted""#), "\(permissions)")
        }
    }

    @Test("an unknown service (with a hint), grant without an app, an unknown action are 400s; an unknown app is a 404")
    func errors() async throws {
        try await Harness.with { h in
            let base = h.client.baseURL!
            var (status, body) = try await SystemActionTests.send(
                base, "POST", "/v1/privacy", #"{"action":"grant","service":"locaton","bundleIdentifier":"dev.showreel.places"}"#)
            #expect(status == 400 && body.contains("'service'") && body.contains("location"), "\(body)")
            (status, body) = try await SystemActionTests.send(base, "POST", "/v1/privacy", #"{"action":"grant","service":"photos"}"#)
            #expect(status == 400 && body.contains("'bundleIdentifier'"), "\(body)")
            (status, body) = try await SystemActionTests.send(
                base, "POST", "/v1/privacy", #"{"action":"allow","service":"photos","bundleIdentifier":"dev.showreel.places"}"#)
            #expect(status == 400 && body.contains("grant, revoke or reset"), "\(body)")
            (status, body) = try await SystemActionTests.send(
                base, "POST", "/v1/privacy", #"{"action":"grant","service":"photos","bundleIdentifier":"dev.showreel.nope"}"#)
            #expect(status == 404 && body.contains("dev.showreel.nope"), "\(body)")
        }
    }
}
