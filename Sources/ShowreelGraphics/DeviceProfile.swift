/// A screen a device can boot with: its size in points, pixel scale and physical shape.
///
/// The shape (corner radius, sensor housing) is what `--mask black` paints over, as
/// `simctl io recordVideo --mask=black` does for a real device's screen outline.
public struct DeviceProfile: Equatable, Hashable, Sendable, Codable {
    public var name: String
    public var displayName: String
    public var pointSize: Size
    public var scale: Int
    public var cornerRadius: Double
    /// The sensor housing ("island") in points, or nil for a plain rectangle.
    public var sensorHousing: Rect?
    public var statusBarHeight: Double

    public var pixelWidth: Int { Int(pointSize.width) * scale }
    public var pixelHeight: Int { Int(pointSize.height) * scale }

    public init(
        name: String, displayName: String, pointSize: Size, scale: Int, cornerRadius: Double,
        sensorHousing: Rect?, statusBarHeight: Double
    ) {
        self.name = name; self.displayName = displayName; self.pointSize = pointSize; self.scale = scale
        self.cornerRadius = cornerRadius; self.sensorHousing = sensorHousing; self.statusBarHeight = statusBarHeight
    }

    /// A 6.1-inch phone at 2x: 780x1688 pixels (cheap to render and encode).
    public static let phone = DeviceProfile(
        name: "phone", displayName: "Showreel Phone", pointSize: Size(width: 390, height: 844), scale: 2,
        cornerRadius: 47, sensorHousing: Rect(x: 132, y: 11, width: 126, height: 37), statusBarHeight: 54)
    /// The same phone at its native 3x: 1170x2532 pixels.
    public static let phoneLarge = DeviceProfile(
        name: "phone-3x", displayName: "Showreel Phone (3x)", pointSize: Size(width: 390, height: 844), scale: 3,
        cornerRadius: 47, sensorHousing: Rect(x: 132, y: 11, width: 126, height: 37), statusBarHeight: 54)
    /// A small phone with a home button and square corners.
    public static let phoneSmall = DeviceProfile(
        name: "phone-small", displayName: "Showreel Phone SE", pointSize: Size(width: 375, height: 667), scale: 2,
        cornerRadius: 0, sensorHousing: nil, statusBarHeight: 20)
    /// An 11-inch tablet at 2x.
    public static let tablet = DeviceProfile(
        name: "tablet", displayName: "Showreel Tablet", pointSize: Size(width: 820, height: 1180), scale: 2,
        cornerRadius: 18, sensorHousing: nil, statusBarHeight: 24)

    /// A 6.9-inch phone (the App Store's 6.9"/6.5" preview class, 886x1920) at 2x: 880x1912
    /// pixels, the preview size within 1% (a real one is 3x; 2x keeps it cheap and is enough).
    public static let phone69 = DeviceProfile(
        name: "phone-6.9", displayName: "Showreel Phone 6.9-inch", pointSize: Size(width: 440, height: 956), scale: 2,
        cornerRadius: 55, sensorHousing: Rect(x: 157, y: 11, width: 126, height: 37), statusBarHeight: 54)
    /// A 5.5-inch phone with a home button (the App Store's 5.5" preview class, 1080x1920) at
    /// its native 3x: 1242x2208 pixels, exactly the preview's shape.
    public static let phone55 = DeviceProfile(
        name: "phone-5.5", displayName: "Showreel Phone 5.5-inch", pointSize: Size(width: 414, height: 736), scale: 3,
        cornerRadius: 0, sensorHousing: nil, statusBarHeight: 20)
    /// A 13-inch tablet (the App Store's 12.9"/13" iPad preview class, 1200x1600, 3:4) at 2x:
    /// 2064x2752 pixels.
    public static let tablet13 = DeviceProfile(
        name: "tablet-13", displayName: "Showreel Tablet 13-inch", pointSize: Size(width: 1032, height: 1376), scale: 2,
        cornerRadius: 18, sensorHousing: nil, statusBarHeight: 24)

    public static let all: [DeviceProfile] = [.phone, .phoneLarge, .phoneSmall, .tablet, .phone69, .phone55, .tablet13]

    public static func named(_ name: String) -> DeviceProfile? { all.first { $0.name == name } }
}
