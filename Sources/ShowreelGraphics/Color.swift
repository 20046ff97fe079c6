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

extension Color {
    public static let tertiaryLabel = Color(hex: 0x3C3C43, alpha: 0.3)
    public static let placeholderText = Color(hex: 0x3C3C43, alpha: 0.3)
    public static let systemOrange = Color(hex: 0xFF9500)
    public static let systemYellow = Color(hex: 0xFFCC00)
    public static let systemPurple = Color(hex: 0xAF52DE)
    public static let systemPink = Color(hex: 0xFF2D55)
    public static let systemTeal = Color(hex: 0x30B0C7)
    public static let systemIndigo = Color(hex: 0x5856D6)
    public static let systemGray2 = Color(hex: 0xAEAEB2)
    public static let systemGray3 = Color(hex: 0xC7C7CC)
    public static let systemGray4 = Color(hex: 0xD1D1D6)
    public static let systemGray5 = Color(hex: 0xE5E5EA)
    public static let systemGray6 = Color(hex: 0xF2F2F7)
    public static let opaqueSeparator = Color(hex: 0xC6C6C8)
    public static let secondarySystemGroupedBackground = Color(hex: 0xFFFFFF)
    /// A light bar's default background (translucent white over content).
    public static let barBackground = Color(hex: 0xF9F9F9, alpha: 0.94)

    /// This colour mixed towards `other` by `amount` (0: self, 1: other); alpha mixes too.
    public func mixed(with other: Color, amount: Double) -> Color {
        let t = Swift.max(0, Swift.min(1, amount))
        return Color(red: red + (other.red - red) * t, green: green + (other.green - green) * t,
                     blue: blue + (other.blue - blue) * t, alpha: alpha + (other.alpha - alpha) * t)
    }

    /// Perceived brightness 0...1 (to pick dark or light content over a colour).
    public var luminance: Double { 0.299 * red + 0.587 * green + 0.114 * blue }
}
