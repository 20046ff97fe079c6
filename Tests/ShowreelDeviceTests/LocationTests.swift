import Foundation
import ShowcaseApps
import ShowreelDevice
import ShowreelGraphics
import ShowreelTestSupport
import ShowreelTesting
import ShowreelWire
import Testing

/// `simctl location` over real HTTP: a place set, a route travelled on the virtual clock.
@Suite("Device location over HTTP")
struct LocationTests {
    typealias Harness = AutomationAPITests.Harness
    static let cityHall = Coordinate(latitude: 43.6532, longitude: -79.3832)
    static let tower = Coordinate(latitude: 43.6426, longitude: -79.3871)

    @Test("PUT /v1/location puts Places at the place; a route moves it on the device clock to its end; DELETE clears it")
    func setAndTravel() async throws {
        try await Harness.with { h in
            #expect(try await h.client.location() == nil)
            try await h.client.privacy(.grant, .location, bundleIdentifier: PlacesApp.bundleIdentifier)
            try await h.client.setLocation(Self.cityHall)
            let places = Application(PlacesApp.bundleIdentifier, device: h.client)
            try await places.launch()
            try await places.buttons["shareLocation"].tap()
            #expect(try await places.staticTexts["locationCoordinate"].label == "43.6532, -79.3832")

            let (status, body) = try await SystemActionTests.send(
                h.client.baseURL!, "POST", "/v1/location/route",
                #"{"waypoints":[{"latitude":43.6532,"longitude":-79.3832},{"latitude":43.6426,"longitude":-79.3871}],"speed":100}"#)
            #expect(status == 200, "\(body)")
            _ = try await h.client.perform(.wait(.seconds(5)))
            let halfway = try #require(try await h.client.location())
            #expect(abs(Self.cityHall.distance(to: halfway) - 500) < 2, "\(halfway)")
            #expect(try await places.staticTexts["locationCoordinate"].label != "43.6532, -79.3832")
            _ = try await h.client.perform(.wait(.seconds(10)))
            #expect(try await h.client.location() == Self.tower)
            #expect(try await places.staticTexts["locationCoordinate"].label == "43.6426, -79.3871")

            let (cleared, _) = try await SystemActionTests.send(h.client.baseURL!, "DELETE", "/v1/location", nil)
            #expect(cleared == 200)
            let (read, answer) = try await SystemActionTests.send(h.client.baseURL!, "GET", "/v1/location", nil)
            #expect(read == 200 && !answer.contains("latitude"), "\(answer)")
        }
    }

    @Test("a place off the globe, a speed of 0, a route without waypoints are 400s naming the field")
    func errors() async throws {
        try await Harness.with { h in
            let base = h.client.baseURL!
            var (status, body) = try await SystemActionTests.send(base, "PUT", "/v1/location", #"{"latitude":91,"longitude":0}"#)
            #expect(status == 400 && body.contains("'location'") && body.contains("-90 to 90"), "\(body)")
            (status, body) = try await SystemActionTests.send(
                base, "POST", "/v1/location/route", #"{"waypoints":[{"latitude":1,"longitude":1}],"speed":0}"#)
            #expect(status == 400 && body.contains("'speed'"), "\(body)")
            (status, body) = try await SystemActionTests.send(base, "POST", "/v1/location/route", #"{"waypoints":[],"speed":3}"#)
            #expect(status == 400 && body.contains("'waypoints'"), "\(body)")
            (status, body) = try await SystemActionTests.send(base, "PUT", "/v1/location", #"{"latitude":"north"}"#)
            #expect(status == 400 && body.contains("latitude"), "\(body)")
            #expect(try await h.client.location() == nil)
        }
    }
}
