#if DEBUG
import ShowreelRender

/// Babylon's debug window: a window over the app that lists the debug actions of what is on
/// screen and Quick Info about the build and session. A swipe in from the right edge,
/// Command-D, or a shake while no text field has focus opens it; a shake runs the top-most
/// screen's action preferred for shake instead, when it has one.
///
/// The actions are read from the screens when the window opens and dropped when it closes.
/// Debug builds only: an app adds it to its root screen's `sceneAccessories` from its debug
/// service locator, so a release build has no trigger at all.
public final class DebugWindow: SceneAccessory {
    /// Just above the app: the status bar, the keyboard (a modal action's text fields),
    /// alerts and the debug drawer stay above it.
    public static let level = WindowLevel(WindowLevel.normal.rawValue + 1)
    static let keyCommandTitle = "Debug window"

    private let quickInfo: () -> [DebugInfoItem]
    public private(set) var window: Window?
    private weak var scene: WindowScene?

    /// - Parameter quickInfo: the facts Quick Info lists, read each time the window opens.
    public init(quickInfo: @escaping () -> [DebugInfoItem]) {
        self.quickInfo = quickInfo
    }

    public var isOpen: Bool { window != nil }

    public func attach(to scene: WindowScene) {
        self.scene = scene
        scene.onEdgeSwipeFromRight = { [weak self] in self?.open() }
        scene.onShake = { [weak self] in self?.shake() ?? false }
        scene.keyCommands.append(
            KeyCommand(input: "d", modifiers: .command, title: Self.keyCommandTitle) { [weak self] in
                self?.open()
            })
    }

    public func detach(from scene: WindowScene) {
        close(animated: false)
        scene.onEdgeSwipeFromRight = nil
        scene.onShake = nil
        scene.keyCommands.removeAll { $0.title == Self.keyCommandTitle }
        self.scene = nil
    }

    /// A shake: ignored while a text field has focus (it is the system's undo gesture then);
    /// runs the preferred action, else opens the window.
    func shake() -> Bool {
        guard let scene, scene.firstResponder == nil, !isOpen else { return false }
        if let action = DebugAction.preferredForShake(in: scene), let top = scene.appWindow.topPresentedScreen {
            DebugActionRunner.run(action, from: top, state: { _ in }, dismiss: {})
            return true
        }
        open()
        return true
    }

    /// Slides the window in from the right with the actions of what is on screen now.
    public func open() {
        guard let scene, !isOpen else { return }
        let bounds = scene.bounds
        let window = Window(level: Self.level, frame: bounds)
        window.backgroundColor = .clear
        window.accessibilityIdentifier = "debugWindow"
        let menu = DebugMenuScreen(actions: DebugAction.collect(in: scene), quickInfo: quickInfo())
        menu.onClose = { [weak self] in self?.close(animated: true) }
        window.setRootScreen(NavigationController(rootScreen: menu))
        self.window = window
        scene.addWindow(window)
        slide(window, from: bounds.width, to: 0) { _ in }
    }

    /// Slides the window out; everything it held (actions, screens) goes with it.
    public func close(animated: Bool = true) {
        guard let window, let scene else { return }
        self.window = nil
        window.isUserInteractionEnabled = false
        let finish: (Bool) -> Void = { [weak scene, weak window] _ in
            guard let scene, let window else { return }
            window.setRootScreen(nil)
            scene.removeWindow(window)
        }
        if animated {
            slide(window, from: -window.boundsOrigin.x, to: window.frame.width, completion: finish)
        } else {
            finish(true)
        }
    }

    /// Moves the window's content `start` to `end` points right of the screen's left edge. The
    /// window itself keeps the whole screen, so its screens lay out once, at full width (the
    /// part it uncovers is clear and lets taps through).
    private func slide(_ window: Window, from start: Double, to end: Double, completion: @escaping (Bool) -> Void) {
        window.animate(
            duration: AnimationDurations.push, curve: .easeInOut, key: "slide",
            { [weak window] p in
                window?.boundsOrigin = Point(x: -(start + (end - start) * p), y: 0)
            }, completion: completion)
    }
}

/// Runs an action the same way from the window and from a shake.
enum DebugActionRunner {
    enum State { case running, done, failed }

    /// - Parameters:
    ///   - presenter: shows a modal action's screen and a failed producer's alert.
    ///   - state: hears how a producer is doing (for the row that shows it).
    ///   - dismiss: called when the window should close.
    static func run(
        _ action: DebugAction, from presenter: Screen, state: @escaping (State) -> Void,
        dismiss: @escaping () -> Void
    ) {
        switch action.kind {
        case .simple(let body):
            body()
            dismiss()
        case .producer(let start, let shouldDismiss):
            state(.running)
            start { [weak presenter] result in
                switch result {
                case .success:
                    state(.done)
                    if shouldDismiss { dismiss() }
                case .failure(let error):
                    state(.failed)
                    let alert = AlertController(title: "\(action.title) failed", message: DebugAction.body(of: error))
                    alert.addAction(AlertAction(title: "OK", style: .cancel))
                    presenter?.present(alert)
                }
            }
        case .modal(let makeScreen):
            presenter.present(makeScreen())
        }
    }
}
#endif
