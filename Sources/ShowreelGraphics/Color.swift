/// An sRGB colour with straight (non-premultiplied) alpha, components 0...1.
///
/// A semantic colour (`.label`, `.systemBackground`) also has a dark variant: the canvas draws
/// whichever the device's interface style asks for, so views keep one colour value.
public struct Color: Equatable, Hashable, Sendable {
    public var red: Double, green: Double, blue: Double, alpha: Double
    /// The components drawn in dark appearance; nil draws the same colour in both.
    public var dark: Components?

    /// A colour's components, for its dark variant.
    public struct Components: Equatable, Hashable, Sendable {
        public var red: Double, green: Double, blue: Double, alpha: Double
    }

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// A colour that changes with the interface style, like a named asset colour with an
    /// "Any, Dark" pair.
    public init(light: Color, dark: Color) {
        self = light.resolved(for: .light)
        let dark = dark.resolved(for: .dark)
        self.dark = Components(red: dark.red, green: dark.green, blue: dark.blue, alpha: dark.alpha)
    }

    /// The plain colour drawn in `style`.
    public func resolved(for style: InterfaceStyle) -> Color {
        guard style == .dark, let dark else { return Color(red: red, green: green, blue: blue, alpha: alpha) }
        return Color(red: dark.red, green: dark.green, blue: dark.blue, alpha: dark.alpha)
    }

    /// `Color(hex: 0x007AFF)`: the way designers hand colours over.
    public init(hex: UInt32, alpha: Double = 1) {
        self.init(
            red: Double((hex >> 16) & 0xFF) / 255, green: Double((hex >> 8) & 0xFF) / 255,
            blue: Double(hex & 0xFF) / 255, alpha: alpha)
    }

    public func withAlpha(_ alpha: Double) -> Color {
        var copy = self
        copy.alpha = alpha
        copy.dark?.alpha = alpha
        return copy
    }

    public static let black = Color(hex: 0x000000)
    public static let white = Color(hex: 0xFFFFFF)
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    /// The system palette the toolkit draws with (iOS's light and dark appearances).
    public static let systemBlue = Color(light: Color(hex: 0x007AFF), dark: Color(hex: 0x0A84FF))
    public static let systemGreen = Color(light: Color(hex: 0x34C759), dark: Color(hex: 0x30D158))
    public static let systemRed = Color(light: Color(hex: 0xFF3B30), dark: Color(hex: 0xFF453A))
    public static let systemGray = Color(hex: 0x8E8E93)
    public static let separator = Color(light: Color(hex: 0xC6C6C8), dark: Color(hex: 0x38383A))
    public static let groupedBackground = Color(light: Color(hex: 0xF2F2F7), dark: Color(hex: 0x000000))
    public static let label = Color(light: Color(hex: 0x000000), dark: Color(hex: 0xFFFFFF))
    public static let secondaryLabel = Color(light: Color(hex: 0x3C3C43, alpha: 0.6), dark: Color(hex: 0xEBEBF5, alpha: 0.6))
}

extension Color {
    public static let tertiaryLabel = Color(light: Color(hex: 0x3C3C43, alpha: 0.3), dark: Color(hex: 0xEBEBF5, alpha: 0.3))
    public static let placeholderText = Color(light: Color(hex: 0x3C3C43, alpha: 0.3), dark: Color(hex: 0xEBEBF5, alpha: 0.3))
    public static let systemOrange = Color(light: Color(hex: 0xFF9500), dark: Color(hex: 0xFF9F0A))
    public static let systemYellow = Color(light: Color(hex: 0xFFCC00), dark: Color(hex: 0xFFD60A))
    public static let systemPurple = Color(light: Color(hex: 0xAF52DE), dark: Color(hex: 0xBF5AF2))
    public static let systemPink = Color(light: Color(hex: 0xFF2D55), dark: Color(hex: 0xFF375F))
    public static let systemTeal = Color(light: Color(hex: 0x30B0C7), dark: Color(hex: 0x40C8E0))
    public static let systemIndigo = Color(light: Color(hex: 0x5856D6), dark: Color(hex: 0x5E5CE6))
    public static let systemGray2 = Color(light: Color(hex: 0xAEAEB2), dark: Color(hex: 0x636366))
    public static let systemGray3 = Color(light: Color(hex: 0xC7C7CC), dark: Color(hex: 0x48484A))
    public static let systemGray4 = Color(light: Color(hex: 0xD1D1D6), dark: Color(hex: 0x3A3A3C))
    public static let systemGray5 = Color(light: Color(hex: 0xE5E5EA), dark: Color(hex: 0x2C2C2E))
    public static let systemGray6 = Color(light: Color(hex: 0xF2F2F7), dark: Color(hex: 0x1C1C1E))
    public static let opaqueSeparator = Color(light: Color(hex: 0xC6C6C8), dark: Color(hex: 0x38383A))
    /// A screen's background: white, or black in dark appearance.
    public static let systemBackground = Color(light: Color(hex: 0xFFFFFF), dark: Color(hex: 0x000000))
    /// Sheets and cards over a screen: white, or dark grey.
    public static let secondarySystemBackground = Color(light: Color(hex: 0xFFFFFF), dark: Color(hex: 0x1C1C1E))
    public static let secondarySystemGroupedBackground = Color(light: Color(hex: 0xFFFFFF), dark: Color(hex: 0x1C1C1E))
    /// A bar's default background (translucent white, or near-black, over content).
    public static let barBackground = Color(light: Color(hex: 0xF9F9F9, alpha: 0.94), dark: Color(hex: 0x1D1D1D, alpha: 0.94))

    /// This colour mixed towards `other` by `amount` (0: self, 1: other); alpha mixes too,
    /// and so do the dark variants.
    public func mixed(with other: Color, amount: Double) -> Color {
        let t = Swift.max(0, Swift.min(1, amount))
        func mix(_ a: Color, _ b: Color) -> Color {
            Color(
                red: a.red + (b.red - a.red) * t, green: a.green + (b.green - a.green) * t,
                blue: a.blue + (b.blue - a.blue) * t, alpha: a.alpha + (b.alpha - a.alpha) * t)
        }
        let light = mix(resolved(for: .light), other.resolved(for: .light))
        guard dark != nil || other.dark != nil else { return light }
        return Color(light: light, dark: mix(resolved(for: .dark), other.resolved(for: .dark)))
    }

    /// Perceived brightness 0...1 (to pick dark or light content over a colour).
    public var luminance: Double { 0.299 * red + 0.587 * green + 0.114 * blue }
}
