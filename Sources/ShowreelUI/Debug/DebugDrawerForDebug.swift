#if DEBUG
import ShowreelAccessibility
import ShowreelRender

/// AppFoundry's debug drawer: a small window at the top right, above the app, its alerts'
/// dimming and the status bar, that a finger can drag anywhere. Tapping it hides it and
/// presents the app's debug form modally (in a navigation stack, with a Done button) on the
/// app's top presented screen; Done dismisses the form and shows the drawer again.
///
/// Debug builds only: an app adds it to its root screen's `sceneAccessories` from its
/// debug service locator.
public final class DebugDrawer: SceneAccessory {
    public static let size = 75.0
    /// The status bar's level + 100, as the pattern puts its `UIWindow`.
    public static let level = WindowLevel(WindowLevel.statusBar.rawValue + 100)

    private let makeForm: () -> Screen
    public private(set) var window: Window?
    private weak var scene: WindowScene?
    /// Where the drawer was dragged to: kept while the app is in the background.
    private var origin: Point?
    public private(set) var isShowingForm = false

    public init(makeForm: @escaping () -> Screen) {
        self.makeForm = makeForm
    }

    public func attach(to scene: WindowScene) {
        self.scene = scene
        let start = origin ?? Point(x: scene.bounds.maxX - Self.size, y: scene.safeArea.minY)
        let window = Window(level: Self.level, frame: Rect(x: start.x, y: start.y, width: Self.size, height: Self.size))
        window.backgroundColor = .clear
        window.accessibilityIdentifier = "debugDrawerWindow"
        let handle = DebugDrawerHandle()
        handle.onTap = { [weak self] in self?.openForm() }
        handle.onDrag = { [weak self] origin in self?.move(to: origin) }
        window.setRootScreen(DebugDrawerHost(handle: handle))
        window.isHidden = isShowingForm
        self.window = window
        scene.addWindow(window)
    }

    public func detach(from scene: WindowScene) {
        if let window { scene.removeWindow(window) }
        window = nil
        self.scene = nil
    }

    /// Moves the drawer (its top left corner, in screen points), kept fully on screen.
    func move(to point: Point) {
        guard let window, let scene else { return }
        let bounds = scene.bounds
        let x = min(max(point.x, 0), bounds.maxX - Self.size)
        let y = min(max(point.y, 0), bounds.maxY - Self.size)
        origin = Point(x: x, y: y)
        window.frame = Rect(x: x, y: y, width: Self.size, height: Self.size)
    }

    /// Hides the drawer and presents the form on the app's top presented screen.
    public func openForm() {
        guard let scene, let top = scene.appWindow.topPresentedScreen, !isShowingForm else { return }
        let form = makeForm()
        form.rightBarButtonItems = [
            BarButtonItem(title: "Done", style: .done, identifier: "debugFormDone") { [weak form] in
                form?.dismiss(animated: true)
            }
        ]
        let container = DebugDrawerFormContainer(rootScreen: form)
        // However the form goes (Done, or the app dismissing what it presents), the drawer comes back.
        container.onDisappear = { [weak self] in self?.formDidClose() }
        isShowingForm = true
        window?.isHidden = true
        top.present(container)
    }

    private func formDidClose() {
        isShowingForm = false
        window?.isHidden = false
    }
}

/// The form's navigation stack, which tells the drawer when it has gone.
final class DebugDrawerFormContainer: NavigationController {
    var onDisappear: (() -> Void)?

    override func viewDidDisappear() {
        super.viewDidDisappear()
        onDisappear?()
    }
}

/// The drawer window's root: the handle fills it, whatever the safe area.
final class DebugDrawerHost: Screen {
    let handle: DebugDrawerHandle

    init(handle: DebugDrawerHandle) {
        self.handle = handle
        super.init(title: "Debug drawer", background: .clear)
        view.addSubview(handle)
    }

    override func layout(safeArea: Rect) { handle.frame = view.bounds.insetBy(dx: 8, dy: 8) }
}

/// The drawer's button: a tap opens the form, a pan drags the drawer's window.
final class DebugDrawerHandle: View {
    var onTap: (() -> Void)?
    /// Gets the window's new top left corner (screen points).
    var onDrag: ((Point) -> Void)?
    private var grab: (finger: Point, windowOrigin: Point)?
    private var isDragging = false
    private var isPressed = false { didSet { if isPressed != oldValue { setNeedsDisplay() } } }

    override init(frame: Rect = .zero) {
        super.init(frame: frame)
        elementType = .button
        isAccessibilityElement = true
        accessibilityIdentifier = "debugDrawer"
        accessibilityLabel = "Debug drawer"
    }

    override func draw(in canvas: Canvas) {
        canvas.fill(bounds, color: Color(hex: 0x1C1C1E, alpha: isPressed ? 0.95 : 0.8), cornerRadius: bounds.width / 2)
        let side = bounds.width * 0.46
        Symbol.gear.draw(
            in: Rect(x: bounds.midX - side / 2, y: bounds.midY - side / 2, width: side, height: side),
            color: .white, canvas: canvas)
    }

    /// A point inside this view, on the screen (the window moves under the finger).
    private func screenPoint(_ local: Point) -> Point {
        let frame = frameInWindow
        return Point(x: local.x + frame.x, y: local.y + frame.y)
    }

    override func touchBegan(at point: Point) -> Bool {
        guard let window else { return false }
        grab = (screenPoint(point), Point(x: window.frame.x, y: window.frame.y))
        isDragging = false
        isPressed = true
        return true
    }

    override func touchMoved(to point: Point) {
        guard let grab else { return }
        let finger = screenPoint(point)
        let dx = finger.x - grab.finger.x, dy = finger.y - grab.finger.y
        if !isDragging, (dx * dx + dy * dy).squareRoot() > WindowScene.scrollSlop { isDragging = true }
        if isDragging { onDrag?(Point(x: grab.windowOrigin.x + dx, y: grab.windowOrigin.y + dy)) }
    }

    override func touchEnded(at point: Point) -> Bool {
        if grab != nil { touchMoved(to: point) }
        defer { grab = nil; isDragging = false; isPressed = false }
        if isDragging { return true }
        onTap?()
        return true
    }

    override func touchCancelled() {
        grab = nil
        isDragging = false
        isPressed = false
    }
}
#endif
