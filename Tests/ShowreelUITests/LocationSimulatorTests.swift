import ShowcaseApps
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelTestSupport
import ShowreelUI
import Testing

/// The simulated location: places, routes on the scene clock (reported once a second), and
/// apps reading it once the location is allowed.
@Suite("Location simulator")
struct LocationSimulatorTests {
    static let cityHall = Coordinate(latitude: 43.6532, longitude: -79.3832)
    static let tower = Coordinate(latitude: 43.6426, longitude: -79.3871)
    static let harbour = Coordinate(latitude: 43.6389, longitude: -79.3806)

    @Test("coordinates: parsing \"lat,lon\", validity, distance")
    func coordinates() {
        #expect(Coordinate(parsing: "43.6532, -79.3832") == Self.cityHall)
        #expect(Coordinate(parsing: "91,0") == nil && Coordinate(parsing: "1;2") == nil && Coordinate(parsing: "nan,1") == nil)
        let metres = Self.cityHall.distance(to: Self.tower)
        #expect(metres > 1_200 && metres < 1_250, "\(metres)")
        #expect(Self.cityHall.description == "43.6532,-79.3832")
    }

    @Test("a route moves once a second at its speed and ends at its last waypoint; a set place ends it")
    func route() {
        let simulator = LocationSimulator()
        let route = LocationRoute(waypoints: [Self.cityHall, Self.tower], speed: 100)
        var reports: [Coordinate] = []
        let owner = LocationSimulatorTests.Owner()
        simulator.observe(owner) { reports.append($0) }
        simulator.travel(route, from: .seconds(10))
        #expect(simulator.coordinate == Self.cityHall)
        #expect(simulator.nextUpdate(after: .seconds(10)) == .seconds(11))
        simulator.advance(to: .milliseconds(10_900))
        #expect(reports.count == 1)
        simulator.advance(to: .seconds(11))
        let moved = Self.cityHall.distance(to: simulator.coordinate!)
        #expect(abs(moved - 100) < 1, "\(moved)")
        simulator.advance(to: .seconds(10) + route.duration)
        #expect(simulator.coordinate == Self.tower && simulator.route == nil)
        #expect(simulator.nextUpdate(after: .seconds(30)) == nil)
        #expect(reports.count == 3)
        simulator.travel(route, from: .seconds(40))
        simulator.set(Self.cityHall)
        #expect(simulator.route == nil)
    }

    @Test("Places shows the place once the location is allowed, and follows it")
    func placesFollows() throws {
        let h = try PermissionAlertTests.harness()
        h.scene.permissions.set(.granted, for: .location, of: PlacesApp.bundleIdentifier)
        h.scene.location.set(Self.cityHall)
        try h.tap("shareLocation")
        h.settle()
        #expect(h.element("locationCoordinate")?.label == "43.6532, -79.3832")
        h.scene.location.set(Self.tower)
        #expect(h.element("locationCoordinate")?.label == "43.6426, -79.3871")
        #expect(h.element("map")?.value == "43.6426,-79.3871")
    }

    final class Owner {}
}
