/// A font the canvas can draw: a family from fontconfig (DejaVu Sans ships with the
/// fonts-dejavu-core package), a point size and a weight.
public struct Font: Equatable, Hashable, Sendable {
    public enum Weight: Sendable, Hashable { case regular, bold }

    public var family: String
    public var size: Double
    public var weight: Weight

    public init(family: String = Font.defaultFamily, size: Double, weight: Weight = .regular) {
        self.family = family; self.size = size; self.weight = weight
    }

    public static let defaultFamily = "DejaVu Sans"

    public static func system(_ size: Double, weight: Weight = .regular) -> Font { Font(size: size, weight: weight) }
    public static let body = Font.system(17)
    public static let headline = Font.system(17, weight: .bold)
    public static let largeTitle = Font.system(32, weight: .bold)
    public static let caption = Font.system(12)
}
