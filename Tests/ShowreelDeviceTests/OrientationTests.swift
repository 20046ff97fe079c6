import Foundation
import ShowcaseApps
import ShowreelDevice
import ShowreelRender
import ShowreelTestSupport
import ShowreelTesting
import ShowreelWire
import Testing

/// Turning the device over real HTTP: the screen's size swaps for apps that support it, an app
/// that does not stays portrait, and recorders that subscribe get the screen as it is.
@Suite("Device orientation over HTTP")
struct OrientationTests {
    typealias Harness = AutomationAPITests.Harness

    @Test("PUT /v1/orientation turns Places on its side: screenshots are landscape, GET answers both orientations; a wrong name is a 400")
    func turnPlaces() async throws {
        try await Harness.with { h in
            let places = Application(PlacesApp.bundleIdentifier, device: h.client)
            try await places.launch()
            let (status, body) = try await SystemActionTests.send(
                h.client.baseURL!, "PUT", "/v1/orientation", #"{"orientation":"landscapeLeft"}"#)
            #expect(status == 200, "\(body)")
            let shot = try PixelBuffer(pngData: [UInt8](try await h.client.screenshotPNG()))
            #expect(shot.width == 1688 && shot.height == 780)
            #expect(
                try await h.client.orientation()
                    == AutomationAPI.Orientation(orientation: .landscapeLeft, interfaceOrientation: .landscapeLeft))
            #expect(h.device.display.info.profile.pointSize == Size(width: 844, height: 390))
            // A point on the landscape screen is on it now (x past the portrait width).
            let button = try await places.buttons["shareLocation"].frame
            #expect(button.maxY < 390, "\(button)")
            try await h.client.perform(.tap(.init(.point(Point(x: 800, y: 200)))))

            let (bad, message) = try await SystemActionTests.send(
                h.client.baseURL!, "PUT", "/v1/orientation", #"{"orientation":"upsideDown"}"#)
            #expect(bad == 400 && message.contains("upside down is not supported"), "\(message)")
            try await h.client.setOrientation(.portrait)
            let (read, answer) = try await SystemActionTests.send(h.client.baseURL!, "GET", "/v1/orientation", nil)
            #expect(read == 200 && answer.contains(#""orientation":"portrait""#), "\(answer)")
        }
    }

    @Test("Hello supports only portrait: on a device on its side it stays upright, and Places launched after it turns")
    func restrictedApp() async throws {
        try await Harness.with { h in
            try await h.client.setOrientation(.landscapeRight)
            try await h.client.launch(HelloApp.bundleIdentifier)
            #expect(
                try await h.client.orientation() == AutomationAPI.Orientation(orientation: .landscapeRight, interfaceOrientation: .portrait)
            )
            let shot = try PixelBuffer(pngData: [UInt8](try await h.client.screenshotPNG()))
            #expect(shot.width == 780 && shot.height == 1688)
            try await h.client.launch(PlacesApp.bundleIdentifier)
            #expect(try await h.client.orientation().interfaceOrientation == .landscapeRight)
            try await h.client.launch(HelloApp.bundleIdentifier)
            #expect(try await h.client.orientation().interfaceOrientation == .portrait)
        }
    }
}
