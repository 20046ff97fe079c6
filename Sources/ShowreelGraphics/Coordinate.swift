import Foundation

/// A place on Earth in degrees (WGS 84), as simctl and Core Location write it.
public struct Coordinate: Codable, Equatable, Hashable, Sendable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether it is a place: finite, latitude within ±90 and longitude within ±180.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// "43.6532,-79.3832", as simctl takes it.
    public var description: String { "\(Self.format(latitude)),\(Self.format(longitude))" }

    private static func format(_ value: Double) -> String {
        String(format: "%.6f", value).replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression)
    }

    /// "LAT,LON" (spaces allowed); nil when it is not two numbers or not a place.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else { return nil }
        self.init(latitude: latitude, longitude: longitude)
        guard isValid else { return nil }
    }

    /// The great-circle distance to `other`, in metres (haversine, mean Earth radius).
    public func distance(to other: Coordinate) -> Double {
        let radius = 6_371_000.0
        let lat1 = latitude * .pi / 180, lat2 = other.latitude * .pi / 180
        let dLat = lat2 - lat1, dLon = (other.longitude - longitude) * .pi / 180
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * radius * asin(min(1, sqrt(a)))
    }

    /// The point `fraction` of the way to `other` (linear in degrees: routes are short legs).
    public func interpolated(to other: Coordinate, fraction: Double) -> Coordinate {
        Coordinate(
            latitude: latitude + (other.latitude - latitude) * fraction,
            longitude: longitude + (other.longitude - longitude) * fraction)
    }
}

/// A route travelled at a steady speed: waypoints in order, metres per second.
public struct LocationRoute: Codable, Equatable, Sendable {
    public var waypoints: [Coordinate]
    public var speed: Double

    public init(waypoints: [Coordinate], speed: Double) {
        self.waypoints = waypoints
        self.speed = speed
    }

    /// The route's length in metres.
    public var length: Double { zip(waypoints, waypoints.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) } }

    /// How long travelling it takes.
    public var duration: Duration { speed > 0 ? .milliseconds(Int64((length / speed * 1000).rounded(.up))) : .zero }

    /// Where the traveller is `elapsed` into the route (the last waypoint once it is done).
    public func position(after elapsed: Duration) -> Coordinate? {
        guard var here = waypoints.first else { return nil }
        var remaining = max(0, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) * speed
        for next in waypoints.dropFirst() {
            let leg = here.distance(to: next)
            if remaining < leg, leg > 0 { return here.interpolated(to: next, fraction: remaining / leg) }
            remaining -= leg
            here = next
        }
        return here
    }
}
