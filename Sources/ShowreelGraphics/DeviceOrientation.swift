/// How a device is held: upright, or turned on its side with its top to the left or to the
/// right (`UIDeviceOrientation`'s landscapeLeft is the top on the left, the home button on the
/// right). Upside down is left out: phones do not show apps that way.
public enum DeviceOrientation: String, Sendable, Codable, CaseIterable, Hashable {
    case portrait
    case landscapeLeft
    case landscapeRight

    public var isLandscape: Bool { self != .portrait }

    /// How far the device is turned from portrait, counter-clockwise as a viewer sees it, in
    /// quarter turns (landscape left is a quarter turn counter-clockwise).
    public var quarterTurns: Int {
        switch self {
        case .portrait: 0
        case .landscapeLeft: 1
        case .landscapeRight: -1
        }
    }

    /// The command-line spelling: portrait, landscape-left, landscape-right.
    public var argument: String {
        switch self {
        case .portrait: "portrait"
        case .landscapeLeft: "landscape-left"
        case .landscapeRight: "landscape-right"
        }
    }

    /// An orientation from any of its spellings, whatever the case and separator: portrait,
    /// landscape-left, landscapeLeft, LANDSCAPE_LEFT; nil for anything else.
    public init?(spelling: String) {
        let folded = spelling.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " }
        guard let match = Self.allCases.first(where: { $0.rawValue.lowercased() == folded }) else { return nil }
        self = match
    }
}

extension DeviceProfile {
    /// The screen as it is when the device is held `orientation`: width and height swap in
    /// landscape, and the sensor housing moves to the side the device's top went to. A phone
    /// on its side shows no status bar (as iOS hides it in a compact height); a tablet keeps it.
    public func oriented(_ orientation: DeviceOrientation) -> DeviceProfile {
        guard orientation.isLandscape else { return self }
        var turned = self
        turned.pointSize = Size(width: pointSize.height, height: pointSize.width)
        turned.sensorHousing = sensorHousing.map { r in
            orientation == .landscapeLeft
                ? Rect(x: r.y, y: pointSize.width - r.maxX, width: r.height, height: r.width)
                : Rect(x: pointSize.height - r.maxY, y: r.x, width: r.height, height: r.width)
        }
        if !isTablet { turned.statusBarHeight = 0 }
        return turned
    }

    /// Whether the screen is a tablet's (regular width and height either way round).
    public var isTablet: Bool { min(pointSize.width, pointSize.height) > 600 }

    /// Whether the screen is wider than tall (a device held on its side).
    public var isLandscape: Bool { pointSize.width > pointSize.height }
}
