/// Light or dark: the system-wide look a device shows, as `simctl ui <device> appearance`
/// sets it and `UITraitCollection.userInterfaceStyle` reports it.
public enum InterfaceStyle: String, Sendable, Codable, CaseIterable, Hashable {
    case light
    case dark
}
