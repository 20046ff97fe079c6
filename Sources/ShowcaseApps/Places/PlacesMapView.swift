import ShowreelRender
import ShowreelUI

/// A small map: the way the device went (its trail) and where it is, scaled to fit. No tiles:
/// a grid on a land colour, so it draws the same everywhere and a recording shows the route.
final class PlacesMapView: View {
    private(set) var trail: [Coordinate] = []

    init() {
        super.init(frame: .zero)
        backgroundColor = Color(light: Color(hex: 0xE4EFD9), dark: Color(hex: 0x1F2A1B))
        cornerRadius = 14
        clipsToBounds = true
        accessibilityIdentifier = "map"
        isAccessibilityElement = true
    }

    /// A new report of the location: the trail grows (a jump of more than 50 km starts a new one).
    func add(_ place: Coordinate) {
        if let last = trail.last, last.distance(to: place) > 50_000 { trail = [] }
        if trail.last != place { trail.append(place) }
        accessibilityValue = trail.last?.description
        setNeedsDisplay()
    }

    /// Map points for the trail: the trail's box, at least ~200 m across, centred and fitted.
    private func points() -> [Point] {
        guard let first = trail.first else { return [] }
        var minLat = first.latitude, maxLat = first.latitude, minLon = first.longitude, maxLon = first.longitude
        for place in trail {
            minLat = min(minLat, place.latitude); maxLat = max(maxLat, place.latitude)
            minLon = min(minLon, place.longitude); maxLon = max(maxLon, place.longitude)
        }
        let span = max(maxLat - minLat, maxLon - minLon, 0.002)
        let inset = 24.0
        let scale = min(bounds.width, bounds.height) - 2 * inset
        let midLat = (minLat + maxLat) / 2, midLon = (minLon + maxLon) / 2
        return trail.map { place in
            Point(
                x: bounds.midX + (place.longitude - midLon) / span * scale,
                y: bounds.midY - (place.latitude - midLat) / span * scale)
        }
    }

    override func draw(in canvas: Canvas) {
        let grid = Color(light: Color(hex: 0xFFFFFF, alpha: 0.7), dark: Color(hex: 0x3A4A35, alpha: 0.8))
        var x = 0.0
        while x < bounds.width {
            canvas.fill(Rect(x: x, y: 0, width: 2, height: bounds.height), color: grid)
            x += 40
        }
        var y = 0.0
        while y < bounds.height {
            canvas.fill(Rect(x: 0, y: y, width: bounds.width, height: 2), color: grid)
            y += 40
        }
        let points = points()
        if points.count > 1 { canvas.strokeLines(points, color: Color.systemBlue.withAlpha(0.6), lineWidth: 5) }
        if let here = points.last {
            canvas.fillCircle(center: here, radius: 10, color: .white)
            canvas.fillCircle(center: here, radius: 7, color: .systemBlue)
        }
    }
}
