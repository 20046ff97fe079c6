/// An sRGB colour with straight (non-premultiplied) alpha, components 0...1.
public struct Color: Equatable, Hashable, Sendable {
    public var red: Double, green: Double, blue: Double, alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// `Color(hex: 0x007AFF)`: the way designers hand colours over.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(red: Double((hex >> 16) & 0xFF) / 255, green: Double((hex >> 8) & 0xFF) / 255,
                  blue: Double(hex & 0xFF) / 255, alpha: alpha)
    }

    public func withAlpha(_ alpha: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: alpha) }

    public static let black = Color(hex: 0x000000)
    public static let white = Color(hex: 0xFFFFFF)
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    /// The system palette the toolkit draws with (iOS light appearance).
    public static let systemBlue = Color(hex: 0x007AFF)
    public static let systemGreen = Color(hex: 0x34C759)
    public static let systemRed = Color(hex: 0xFF3B30)
    public static let systemGray = Color(hex: 0x8E8E93)
    public static let separator = Color(hex: 0xC6C6C8)
    public static let groupedBackground = Color(hex: 0xF2F2F7)
    public static let label = Color(hex: 0x000000)
    public static let secondaryLabel = Color(hex: 0x3C3C43, alpha: 0.6)
}
