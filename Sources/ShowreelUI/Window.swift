import ShowreelRender

/// Where a window sits in the stack: higher levels draw above lower ones and get taps first.
public struct WindowLevel: Comparable, Hashable, Sendable {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    public static let normal = WindowLevel(0)
    public static let statusBar = WindowLevel(1000)
    /// Above the status bar: debug drawers and overlays.
    public static let aboveStatusBar = WindowLevel(1500)
    public static let alert = WindowLevel(2000)
}

/// A window: a level and a root screen whose view fills the window.
public final class Window: View {
    public let level: WindowLevel
    public private(set) var rootScreen: Screen?

    public init(level: WindowLevel = .normal, frame: Rect) {
        self.level = level
        super.init(frame: frame)
        elementType = .window
    }

    public func setRootScreen(_ screen: Screen?) {
        rootScreen?.view.removeFromSuperview()
        rootScreen = screen
        if let screen {
            screen.loadIfNeeded()
            screen.view.frame = bounds
            addSubview(screen.view)
        }
        setNeedsLayout()
    }

    public override func layoutSubviews() {
        rootScreen?.view.frame = bounds
    }
}
