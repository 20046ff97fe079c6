import ShowreelGraphics

/// The device's simulated location, as apps read it through `Screen.startUpdatingLocation`:
/// unset, set once, or moving along a route at a steady speed on the scene's clock. Like a GPS
/// receiver it reports at most once a second, so a route is a pure function of time and the
/// device advances time to each report (the video shows each step).
public final class LocationSimulator {
    /// Where the device is; nil while no location is simulated.
    public private(set) var coordinate: Coordinate?
    /// The route being travelled, and the scene time it started at.
    public private(set) var route: (route: LocationRoute, start: Duration)?
    private var observers: [(owner: Weak, handler: (Coordinate) -> Void)] = []

    /// How often a moving location is reported.
    public static let updateInterval: Duration = .seconds(1)

    public init() {}

    /// Moves the device to `coordinate` (nil: no location), ending any route.
    public func set(_ coordinate: Coordinate?) {
        route = nil
        report(coordinate)
    }

    /// Starts travelling `route` at `time` (its first waypoint at once).
    public func travel(_ route: LocationRoute, from time: Duration) {
        guard route.duration > .zero else { return set(route.waypoints.last) }
        self.route = (route, time)
        report(route.waypoints.first)
    }

    /// The location at scene time `time`: a route moves on in whole update intervals, and
    /// ends at its last waypoint.
    package func advance(to time: Duration) {
        guard let (route, start) = route else { return }
        let elapsed = time - start
        let steps = Int64(elapsed / Self.updateInterval)
        let reported = Self.updateInterval * steps
        if elapsed >= route.duration {
            self.route = nil
            report(route.waypoints.last)
        } else {
            report(route.position(after: reported))
        }
    }

    /// When the next report of a route is due after `time` (nil without a route): the device
    /// lets time pass no further than that in one step, so every report is rendered.
    public func nextUpdate(after time: Duration) -> Duration? {
        guard let (route, start) = route else { return nil }
        let steps = Int64((time - start) / Self.updateInterval) + 1
        let next = min(start + Self.updateInterval * steps, start + route.duration)
        return next > time ? next : nil
    }

    /// Calls `handler` with every new location while `owner` lives (and at once with the
    /// current one, if any).
    public func observe(_ owner: AnyObject, _ handler: @escaping (Coordinate) -> Void) {
        stopObserving(owner)
        observers.append((Weak(owner), handler))
        if let coordinate { handler(coordinate) }
    }

    public func stopObserving(_ owner: AnyObject) {
        observers.removeAll { $0.owner.object == nil || $0.owner.object === owner }
    }

    private func report(_ new: Coordinate?) {
        guard new != coordinate else { return }
        coordinate = new
        observers.removeAll { $0.owner.object == nil }
        guard let new else { return }
        for observer in observers { observer.handler(new) }
    }

    private final class Weak {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }
}

extension Screen {
    /// Delivers the device's location to `handler` as it changes, once the person allowed
    /// the location (asking with the system's alert the first time, with `reason`); `denied`
    /// runs when they did not. Stops with `stopUpdatingLocation()` or when the screen goes.
    public func startUpdatingLocation(
        reason: String? = nil, denied: (() -> Void)? = nil, _ handler: @escaping (Coordinate) -> Void
    ) {
        requestPermission(.location, reason: reason) { [weak self] granted in
            guard let self, let scene else { return }
            guard granted else { denied?(); return }
            scene.location.observe(self, handler)
        }
    }

    public func stopUpdatingLocation() { scene?.location.stopObserving(self) }
}
