import ShowreelGraphics

extension DeviceAction {
    /// `simctl location set`: the device is at `coordinate` (nil: no location).
    package static func setLocation(_ coordinate: Coordinate?) -> DeviceAction { .system(.setLocation(coordinate)) }
    /// `simctl location start`: the device moves along `route` on its clock.
    package static func travel(_ route: LocationRoute) -> DeviceAction { .system(.travel(route)) }
}

extension AutomationLimits {
    /// Waypoints of one route.
    package static let maxWaypoints = 1000
    /// The fastest a route may be travelled, in metres per second (Maestro's orbit demo is 7900).
    package static let maxSpeed = 1_000_000.0

    static func check(_ coordinate: Coordinate?, _ field: String) throws(AutomationInputError) {
        guard let coordinate, !coordinate.isValid else { return }
        throw .outOfRange(
            field: field,
            message:
                "must have a latitude from -90 to 90 and a longitude from -180 to 180, got \(coordinate.latitude), \(coordinate.longitude)")
    }

    static func check(_ route: LocationRoute) throws(AutomationInputError) {
        guard (1...maxWaypoints).contains(route.waypoints.count) else {
            throw .outOfRange(field: "waypoints", message: "must be 1 to \(maxWaypoints) places, got \(route.waypoints.count)")
        }
        for (index, point) in route.waypoints.enumerated() { try check(point, "waypoints[\(index)]") }
        guard route.speed.isFinite, route.speed > 0, route.speed <= maxSpeed else {
            throw .outOfRange(
                field: "speed", message: "must be metres per second, more than 0 and at most \(Int(maxSpeed)), got \(route.speed)")
        }
        if let problem = deviceTime.problem(with: route.length / route.speed) {
            throw .outOfRange(field: "speed", message: "is too slow for a route of \(Int(route.length)) m: \(problem)")
        }
    }
}

extension AutomationAPI.Routes {
    /// `simctl location`: set, clear and read the simulated location, and start a route.
    package static let setLocation = Route(.put, "/v1/location")
    package static let clearLocation = Route(.delete, "/v1/location")
    package static let location = Route(.get, "/v1/location")
    package static let travel = Route(.post, "/v1/location/route")
}

extension AutomationAPI {
    /// `GET /v1/location`: where the device is (null while no location is simulated).
    package struct Location: Codable, Equatable, Sendable {
        package var location: Coordinate?
        package init(_ location: Coordinate?) { self.location = location }
    }
}

extension Coordinate: AutomationBody {}
extension LocationRoute: AutomationBody {}
