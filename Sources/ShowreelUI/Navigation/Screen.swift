import Foundation
import ShowreelRender

/// How a presented screen covers the one below it.
public enum ModalPresentationStyle: Sendable, Hashable {
    /// A card that slides up, leaving the top of the screen below it dimmed (iOS 13 and later).
    case pageSheet
    /// Slides up and covers the whole screen.
    case fullScreen
}

/// Whether the status bar's content is dark (on light screens) or light (on dark ones).
public enum StatusBarStyle: Sendable, Hashable { case darkContent, lightContent }

/// How a screen's title shows in a navigation bar.
public enum LargeTitleDisplayMode: Sendable, Hashable {
    /// As the screen below it in the stack (large for a root when the controller prefers large titles).
    case automatic
    case always
    case never
}

/// A motion event the device can send (`scene.shake()`).
public enum Motion: Sendable, Hashable { case shake }

/// A screen of an app (a view controller): a title and a view tree filling its window, or
/// the part of it that its container (a navigation controller, a sheet) gives it.
open class Screen {
    public var title: String { didSet { if title != oldValue { navigationItemDidChange() } } }
    public let view: View

    /// The container this screen is a child of (a navigation controller).
    public internal(set) weak var parentScreen: Screen?
    /// The screen that presented this one (for sheets, modals and alerts).
    public internal(set) weak var presentingScreen: Screen?
    /// The screen this one presents, if any.
    public internal(set) var presentedScreen: Screen?
    public var modalPresentationStyle: ModalPresentationStyle = .pageSheet
    /// As an app's root: which way the app's interface reads (set from its strings' language;
    /// right to left mirrors bars, lists and fields).
    public var layoutDirection: LayoutDirection = .leftToRight

    // Navigation item: what a navigation bar shows for this screen.
    public var largeTitleDisplayMode: LargeTitleDisplayMode = .automatic { didSet { navigationItemDidChange() } }
    public var rightBarButtonItems: [BarButtonItem] = [] { didSet { navigationItemDidChange() } }
    public var leftBarButtonItems: [BarButtonItem] = [] { didSet { navigationItemDidChange() } }
    /// The back button's title on the screen pushed above this one (default: this title).
    public var backButtonTitle: String? { didSet { navigationItemDidChange() } }
    public var hidesBackButton = false { didSet { navigationItemDidChange() } }

    /// A view that, when set, fills the safe area (the default `layout(safeArea:)`).
    public var contentView: View? {
        didSet {
            oldValue?.removeFromSuperview()
            if let contentView { view.addSubview(contentView) }
        }
    }

    weak var hostWindow: Window?
    /// What this screen, as an app's root, adds to the scene while the app is in front.
    public var sceneAccessories: [any SceneAccessory] = []
    /// 0 (off screen) to 1 (fully presented): where a presentation's animation stands.
    var presentationProgress: Double = 1 { didSet { if presentationProgress != oldValue { view.superview?.setNeedsLayout() } } }
    private var ownAppearance: Appearance?
    var isAppeared = false

    public init(title: String = "", background: Color = .systemBackground) {
        self.title = title
        view = View()
        view.backgroundColor = background
        view.isUserInteractionEnabled = true
    }

    // MARK: Lifecycle

    /// Called once, when the screen's view first enters a window: build the view tree here.
    open func viewDidLoad() {}
    /// The screen is about to show (pushed, presented, made root).
    open func viewWillAppear() {}
    /// The screen finished appearing (its animation is over): a good moment to focus a field.
    open func viewDidAppear() {}
    open func viewWillDisappear() {}
    open func viewDidDisappear() {}

    /// Positions the screen's content inside `view.bounds`; the safe area (in the view's own
    /// coordinates) excludes the status bar, a navigation bar and the home indicator.
    /// By default, `contentView` fills it.
    open func layout(safeArea: Rect) {
        contentView?.frame = safeArea
    }

    /// The status bar content this screen wants when it is the top full-screen screen.
    open var preferredStatusBarStyle: StatusBarStyle { .darkContent }

    var isLoaded = false

    public var isViewLoaded: Bool { isLoaded }

    func loadIfNeeded() {
        guard !isLoaded else { return }
        isLoaded = true
        viewDidLoad()
    }

    /// Lays out this screen and, for containers, its children. Containers override.
    func performLayout(safeArea: Rect) {
        layout(safeArea: safeArea)
    }

    func setAppeared(_ appeared: Bool) {
        guard appeared != isAppeared else { return }
        isAppeared = appeared
        if appeared { viewWillAppear(); viewDidAppear() } else { viewWillDisappear(); viewDidDisappear() }
        for child in children { child.setAppeared(appeared) }
    }

    func navigationItemDidChange() {
        navigationController?.navigationItemDidChange(self)
    }

    // MARK: Hierarchy

    /// Child screens of a container (a navigation controller's stack).
    open var children: [Screen] { [] }

    /// The navigation controller this screen is in, if any.
    public var navigationController: NavigationController? {
        var current: Screen? = self
        while let screen = current {
            if let nav = screen as? NavigationController, nav !== self { return nav }
            current = screen.parentScreen
        }
        return nil
    }

    /// The window this screen is shown in (its own, its container's or its presenter's).
    public var window: Window? {
        if let window = view.window { return window }
        if let hostWindow { return hostWindow }
        return parentScreen?.window ?? presentingScreen?.window
    }

    /// The scene this screen is on, if any.
    public var scene: WindowScene? { window?.scene }

    /// The screen that presents (or contains) everything this app shows: the end of the
    /// parent and presenting chain.
    public var rootScreen: Screen {
        var current = self
        while let next = current.parentScreen ?? current.presentingScreen { current = next }
        return current
    }

    /// The outermost container of this screen (itself when it has no parent).
    var containerRoot: Screen {
        var current = self
        while let parent = current.parentScreen { current = parent }
        return current
    }

    // MARK: Appearance

    /// The appearance proxies of this screen's app: set on any screen, shared by all the
    /// screens the app shows (its own and system screens it presents).
    public var appearance: Appearance {
        let root = rootScreen
        if let existing = root.ownAppearance { return existing }
        let created = Appearance()
        root.ownAppearance = created
        return created
    }

    /// Resets the app's appearance proxies to the system look; call the returned closure
    /// to restore the app's customisations (after a system screen is dismissed).
    public func resetToDefaultAppearance() -> () -> Void { appearance.resetToDefaultAppearance() }

    // MARK: Presentation

    /// Presents `screen` over the top-most screen presented from this screen's window
    /// (alerts get a window of their own, above everything).
    public func present(_ screen: Screen, animated: Bool = true, completion: (() -> Void)? = nil) {
        var host = containerRoot
        while let next = host.presentedScreen { host = next }
        if let alert = screen as? AlertController {
            alert.presentingScreen = host
            host.presentedScreen = alert
            if let scene { scene.showAlert(alert, animated: animated, completion: completion) } else { alert.loadIfNeeded(); completion?() }
            return
        }
        screen.presentingScreen = host
        host.presentedScreen = screen
        screen.loadIfNeeded()
        guard let window = host.window ?? self.window else { completion?(); return }
        screen.hostWindow = window
        window.addPresentation(screen)
        screen.presentationProgress = animated ? 0 : 1
        let finish: (Bool) -> Void = { _ in
            screen.setAppeared(true)
            completion?()
        }
        if animated {
            screen.view.animate(
                duration: AnimationDurations.present, curve: .decelerate, key: "presentation",
                { p in
                    screen.presentationProgress = p
                }, completion: finish)
        } else {
            finish(true)
        }
    }

    /// Dismisses the screen this one presents; or, when it presents nothing, this screen
    /// (or its container) from its presenter. Everything presented above goes too.
    public func dismiss(animated: Bool = true, completion: (() -> Void)? = nil) {
        let target: Screen
        if let presented = containerRoot.presentedScreen ?? presentedScreen {
            target = presented
        } else {
            target = containerRoot
        }
        guard let presenter = target.presentingScreen else { completion?(); return }
        // Whatever target presents goes at once, without animation.
        var above: [Screen] = []
        var next = target.presentedScreen
        while let screen = next { above.append(screen); next = screen.presentedScreen }
        for screen in above.reversed() { screen.removeFromPresentation() }
        if let alert = target as? AlertController {
            scene?.hideAlert(alert, animated: animated) { completion?() }
            presenter.presentedScreen = nil
            return
        }
        presenter.presentedScreen = nil
        target.viewWillDisappear()
        let finish: (Bool) -> Void = { _ in
            target.removeFromPresentation()
            completion?()
        }
        if animated, target.view.window != nil {
            let start = target.presentationProgress
            target.view.animate(
                duration: AnimationDurations.dismiss, curve: .easeInOut, key: "presentation",
                { p in
                    target.presentationProgress = start * (1 - p)
                }, completion: finish)
        } else {
            finish(true)
        }
    }

    func removeFromPresentation() {
        if let alert = self as? AlertController {
            scene?.hideAlert(alert, animated: false) {}
        } else {
            hostWindow?.removePresentation(self)
        }
        presentingScreen?.presentedScreen = nil
        presentingScreen = nil
        if isAppeared {
            isAppeared = false
            viewDidDisappear()
            for child in children { child.setAppeared(false) }
        }
    }

    // MARK: Events

    /// A motion (shake) reached this screen; return true when handled. Unhandled motions go
    /// to the container, then to the presenting screen.
    open func motionEnded(_ motion: Motion) -> Bool { false }

    /// Hardware key commands this screen answers while it is on screen (Cmd+D and the like).
    open var keyCommands: [KeyCommand] { [] }
}

/// A button in a navigation bar.
public final class BarButtonItem {
    public enum Style: Sendable { case plain, done }
    public var title: String
    public var symbol: Symbol?
    public var style: Style
    public var identifier: String?
    public var isEnabled: Bool
    public var action: (() -> Void)?

    public init(
        title: String, style: Style = .plain, identifier: String? = nil, isEnabled: Bool = true,
        action: (() -> Void)? = nil
    ) {
        self.title = title; self.style = style; self.identifier = identifier; self.isEnabled = isEnabled
        self.action = action
    }

    /// A button drawn as a symbol (its title is the accessibility label).
    public init(symbol: Symbol, title: String, identifier: String? = nil, action: (() -> Void)? = nil) {
        self.title = title; self.symbol = symbol; self.style = .plain; self.identifier = identifier
        self.isEnabled = true; self.action = action
    }
}

/// A hardware key command: a key with modifiers, as `UIKeyCommand`.
public struct KeyCommand {
    public var input: KeyInput
    public var title: String
    public var action: () -> Void

    public init(input: String, modifiers: KeyModifiers = [], title: String = "", action: @escaping () -> Void) {
        self.input = KeyInput(input, modifiers: modifiers)
        self.title = title
        self.action = action
    }
}

/// A key press from a hardware keyboard: "d" with `.command` is Cmd+D.
public struct KeyInput: Hashable, Sendable, Codable, CustomStringConvertible {
    public var key: String
    public var modifiers: KeyModifiers

    public init(_ key: String, modifiers: KeyModifiers = []) {
        self.key = key.count == 1 ? key.lowercased() : key
        self.modifiers = modifiers
    }

    /// Parses "cmd+d", "Command-Shift-K", "ctrl+alt+x", "return".
    public init?(parsing text: String) {
        let parts = text.split(whereSeparator: { $0 == "+" || $0 == "-" }).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let key = parts.last, !key.isEmpty else { return nil }
        var modifiers: KeyModifiers = []
        for part in parts.dropLast() {
            switch part.lowercased() {
            case "cmd", "command", "⌘": modifiers.insert(.command)
            case "shift", "⇧": modifiers.insert(.shift)
            case "ctrl", "control", "⌃": modifiers.insert(.control)
            case "alt", "option", "opt", "⌥": modifiers.insert(.option)
            default: return nil
            }
        }
        self.init(key, modifiers: modifiers)
    }

    public var description: String {
        var names: [String] = []
        if modifiers.contains(.control) { names.append("ctrl") }
        if modifiers.contains(.option) { names.append("alt") }
        if modifiers.contains(.shift) { names.append("shift") }
        if modifiers.contains(.command) { names.append("cmd") }
        return (names + [key]).joined(separator: "+")
    }
}

public struct KeyModifiers: OptionSet, Hashable, Sendable, Codable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let command = KeyModifiers(rawValue: 1)
    public static let shift = KeyModifiers(rawValue: 2)
    public static let control = KeyModifiers(rawValue: 4)
    public static let option = KeyModifiers(rawValue: 8)
}
