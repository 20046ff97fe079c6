import ShowreelRender

/// Everything on a device's screen: the windows in level order and the status bar.
///
/// It knows when it changed (any view's `setNeedsDisplay`), draws itself into a pixel
/// buffer, routes taps to the top-most window that wants them, and describes itself
/// as an accessibility tree.
public final class WindowScene {
    public let profile: DeviceProfile
    public private(set) var windows: [Window] = []
    public let appWindow: Window
    private let statusBarView: StatusBarView
    public private(set) var needsRender = true
    /// Called once per change, when the scene goes from clean to dirty.
    public var onInvalidate: (() -> Void)?

    public init(profile: DeviceProfile) {
        self.profile = profile
        let screenRect = Rect(x: 0, y: 0, width: profile.pointSize.width, height: profile.pointSize.height)
        appWindow = Window(level: .normal, frame: screenRect)
        appWindow.backgroundColor = .black
        statusBarView = StatusBarView(frame: Rect(x: 0, y: 0, width: screenRect.width, height: profile.statusBarHeight))
        statusBarView.invalidationHandler = { [unowned self] in invalidate() }
        addWindow(appWindow)
    }

    public var bounds: Rect { appWindow.frame }

    /// The area app content should stay inside: below the status bar, above the home indicator.
    public var safeArea: Rect {
        let bottom = profile.cornerRadius > 0 ? 34.0 : 0
        return Rect(x: 0, y: profile.statusBarHeight, width: bounds.width,
                    height: bounds.height - profile.statusBarHeight - bottom)
    }

    public var statusBar: StatusBarValues {
        get { statusBarView.values }
        set { statusBarView.values = newValue }
    }

    public func addWindow(_ window: Window) {
        window.invalidationHandler = { [unowned self] in invalidate() }
        windows.append(window)
        windows.sort { $0.level < $1.level }
        invalidate()
    }

    public func removeWindow(_ window: Window) {
        guard window !== appWindow else { return }
        window.invalidationHandler = nil
        windows.removeAll { $0 === window }
        invalidate()
    }

    /// Shows `screen` as the app window's root (nil shows the empty home screen).
    public func setAppRootScreen(_ screen: Screen?) {
        appWindow.setRootScreen(screen)
        if let screen { screen.layout(safeArea: safeArea) }
        invalidate()
    }

    func invalidate() {
        guard !needsRender else { return }
        needsRender = true
        onInvalidate?()
    }

    /// Draws the whole screen into `pixels` (which must be the profile's pixel size).
    public func render(into pixels: PixelBuffer) {
        for window in windows { window.layoutIfNeeded() }
        for window in windows { window.rootScreen?.layout(safeArea: safeArea) }
        for window in windows { window.layoutIfNeeded() }
        let canvas = Canvas(pixels: pixels, scale: Double(profile.scale))
        canvas.clear(.black)
        for window in windows where window.level < .statusBar { window.render(in: canvas) }
        statusBarView.render(in: canvas)
        for window in windows where window.level >= .statusBar { window.render(in: canvas) }
        if profile.cornerRadius > 0 {
            // The home indicator of a phone without a home button.
            canvas.fill(Rect(x: bounds.midX - 67, y: bounds.maxY - 13, width: 134, height: 5),
                        color: Color.black.withAlpha(0.85), cornerRadius: 2.5)
        }
        canvas.finish()
        needsRender = false
    }

    /// Delivers a tap at a point in screen coordinates. Returns the view that handled it.
    @discardableResult
    public func tap(at point: Point) -> View? {
        for window in windows.reversed() {
            var view = window.hitTest(point)
            while let candidate = view {
                if candidate.handleTap() { return candidate }
                view = candidate.superview
            }
        }
        return nil
    }

    /// The accessibility tree: one node per window, containing its accessible elements.
    public func accessibilityTree() -> [AccessibilityNode] {
        for window in windows { window.layoutIfNeeded() }
        var nodes = [statusBarNode()]
        for window in windows.reversed() {
            nodes.append(AccessibilityNode(type: .window, identifier: "", label: "", frame: window.frame,
                                           isEnabled: true, isHittable: true,
                                           children: accessibleDescendants(of: window, windowIndex: window)))
        }
        return nodes
    }

    private func statusBarNode() -> AccessibilityNode {
        AccessibilityNode(type: .statusBar, identifier: "statusBar", label: statusBar.time, frame: statusBarView.frame,
                          isEnabled: true, isHittable: false)
    }

    private func accessibleDescendants(of view: View, windowIndex window: Window) -> [AccessibilityNode] {
        var result: [AccessibilityNode] = []
        for subview in view.subviews where !subview.isHidden && subview.alpha > 0.01 {
            let children = accessibleDescendants(of: subview, windowIndex: window)
            if subview.isAccessibilityElement {
                let frame = subview.frameInWindow
                let hit = isHittable(subview, frame: frame)
                result.append(AccessibilityNode(
                    type: subview.elementType, identifier: subview.accessibilityIdentifier ?? "",
                    label: subview.accessibilityLabel ?? (subview as? Label)?.text ?? (subview as? Button)?.title ?? "",
                    value: subview.accessibilityValue, frame: frame, isEnabled: subview.isEnabled,
                    isHittable: hit, children: children))
            } else {
                result.append(contentsOf: children)
            }
        }
        return result
    }

    /// An element is hittable when a tap at its centre would reach it (or something inside it).
    private func isHittable(_ view: View, frame: Rect) -> Bool {
        guard view.isUserInteractionEnabled, bounds.contains(frame.center) else { return false }
        for window in windows.reversed() {
            if let hit = window.hitTest(frame.center) {
                var candidate: View? = hit
                while let c = candidate {
                    if c === view { return true }
                    candidate = c.superview
                }
                // Something else is on top (a window above counts only if it took the point).
                if hit !== window || window.backgroundColor.alpha > 0 { return false }
            }
        }
        return false
    }
}
