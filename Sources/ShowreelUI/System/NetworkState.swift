import ShowreelRender

/// The device's connectivity as apps read it: airplane mode off (connected) or on (no
/// network, an airplane in the status bar instead of signal and Wi-Fi).
public final class NetworkState {
    public private(set) var airplaneMode = false
    private var observers: [(owner: WeakOwner, handler: (Bool) -> Void)] = []

    public init() {}

    /// Whether apps can reach the network.
    public var isConnected: Bool { !airplaneMode }

    func setAirplaneMode(_ on: Bool) {
        guard on != airplaneMode else { return }
        airplaneMode = on
        observers.removeAll { $0.owner.object == nil }
        for observer in observers { observer.handler(isConnected) }
    }

    /// Calls `handler` with whether the device is connected, now and whenever it changes,
    /// while `owner` lives.
    public func observe(_ owner: AnyObject, _ handler: @escaping (_ connected: Bool) -> Void) {
        observers.removeAll { $0.owner.object == nil || $0.owner.object === owner }
        observers.append((WeakOwner(owner), handler))
        handler(isConnected)
    }
}

final class WeakOwner {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}

extension WindowScene {
    /// Turns airplane mode on or off: apps observing the network hear of it, the status bar shows it.
    public func setAirplaneMode(_ on: Bool) {
        network.setAirplaneMode(on)
        statusBarView.airplaneMode = on
    }
}

extension StatusBarView {
    /// An airplane, ending at `right`, where signal and network are drawn otherwise; returns its left edge.
    func drawAirplane(_ canvas: Canvas, right: Double, midY: Double) -> Double {
        let width = 15.0, left = right - width
        // Fuselage, wings and tail, nose to the right.
        let body = Path(polygon: [
            Point(x: left, y: midY - 0.9), Point(x: right - 1.5, y: midY - 0.9), Point(x: right, y: midY),
            Point(x: right - 1.5, y: midY + 0.9), Point(x: left, y: midY + 0.9),
        ])
        let wings = Path(polygon: [
            Point(x: left + 5.5, y: midY), Point(x: left + 7.5, y: midY - 6), Point(x: left + 9.5, y: midY - 6),
            Point(x: left + 9.5, y: midY + 6), Point(x: left + 7.5, y: midY + 6),
        ])
        let tail = Path(polygon: [
            Point(x: left, y: midY), Point(x: left + 0.8, y: midY - 3.2), Point(x: left + 2.4, y: midY - 3.2),
            Point(x: left + 2.4, y: midY + 3.2), Point(x: left + 0.8, y: midY + 3.2),
        ])
        for part in [body, wings, tail] { canvas.fill(part, color: foreground) }
        return left
    }
}
