import ShowreelRender

/// A navigation bar's look: what `UINavigationBar.appearance()` customises.
/// Nil means the system default.
public struct NavigationBarAppearance: Equatable, Sendable {
    public enum BarStyle: Sendable, Hashable {
        /// Light translucent bar with dark text.
        case `default`
        /// Dark bar with light text (and light status bar content).
        case black
    }

    public var barTintColor: Color?
    /// Bar button items and the back button.
    public var tintColor: Color?
    public var titleColor: Color?
    public var titleFont: Font?
    public var largeTitleColor: Color?
    public var largeTitleFont: Font?
    public var barStyle: BarStyle = .default
    /// The hairline under the bar.
    public var shadowHidden = false
    public var shadowColor: Color?

    public init(
        barTintColor: Color? = nil, tintColor: Color? = nil, titleColor: Color? = nil, titleFont: Font? = nil,
        largeTitleColor: Color? = nil, largeTitleFont: Font? = nil, barStyle: BarStyle = .default,
        shadowHidden: Bool = false, shadowColor: Color? = nil
    ) {
        self.barTintColor = barTintColor; self.tintColor = tintColor; self.titleColor = titleColor
        self.titleFont = titleFont; self.largeTitleColor = largeTitleColor; self.largeTitleFont = largeTitleFont
        self.barStyle = barStyle; self.shadowHidden = shadowHidden; self.shadowColor = shadowColor
    }

    /// The system look.
    public static let systemDefault = NavigationBarAppearance()

    public var isDefault: Bool { self == .systemDefault }

    // What a bar draws with.
    var resolvedBarColor: Color {
        if let barTintColor { return barTintColor }
        return barStyle == .black ? Color(hex: 0x161618, alpha: 0.94) : .barBackground
    }
    var resolvedTint: Color { tintColor ?? (barStyle == .black ? Color(hex: 0x0A84FF) : .systemBlue) }
    var resolvedTitleColor: Color { titleColor ?? (barStyle == .black ? .white : .label) }
    var resolvedTitleFont: Font { titleFont ?? .system(17, weight: .bold) }
    var resolvedLargeTitleColor: Color { largeTitleColor ?? titleColor ?? (barStyle == .black ? .white : .label) }
    var resolvedLargeTitleFont: Font { largeTitleFont ?? .system(32, weight: .bold) }
    var resolvedShadowColor: Color? {
        shadowHidden
            ? nil
            : (shadowColor
                ?? (barStyle == .black
                    ? Color.white.withAlpha(0.15) : Color(light: Color.black.withAlpha(0.3), dark: Color.white.withAlpha(0.15))))
    }
    var statusBarStyle: StatusBarStyle {
        if let barTintColor { return barTintColor.luminance < 0.5 ? .lightContent : .darkContent }
        return barStyle == .black ? .lightContent : .darkContent
    }
}

/// An app's appearance proxies. Every screen the app shows reads them, its own and the
/// system's (contact card, share sheet), like `UIAppearance`: a bar takes the values it
/// finds when it comes on screen, so changing them later affects only bars shown later.
public final class Appearance {
    /// `UINavigationBar.appearance()`.
    public var navigationBar = NavigationBarAppearance()

    public init() {}

    /// Puts every proxy back to the system look and returns a closure that restores what
    /// the app had set: reset before presenting a system screen, restore after dismissing it.
    public func resetToDefaultAppearance() -> () -> Void {
        let saved = navigationBar
        navigationBar = .systemDefault
        return { [weak self] in self?.navigationBar = saved }
    }
}
