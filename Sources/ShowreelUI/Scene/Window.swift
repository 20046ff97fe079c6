import ShowreelAccessibility
import ShowreelRender

/// Where a window sits in the stack: higher levels draw above lower ones and get taps first.
public struct WindowLevel: Comparable, Hashable, Sendable {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    public static let normal = WindowLevel(0)
    /// The software keyboard: above the app, below the status bar.
    public static let keyboard = WindowLevel(500)
    public static let statusBar = WindowLevel(1000)
    /// Above the status bar: debug drawers and overlays.
    public static let aboveStatusBar = WindowLevel(1500)
    public static let alert = WindowLevel(2000)
}

/// A window: a level, a root screen whose view fills the window, and the screens presented
/// over it (sheets and full-screen modals), each with its dimming view.
///
/// A window whose background is clear lets taps that hit nothing inside it through to the
/// windows below (the keyboard's window covers the screen but only its keys take taps).
public final class Window: View {
    public let level: WindowLevel
    public private(set) var rootScreen: Screen?
    weak var attachedScene: WindowScene?
    /// Screens presented in this window, bottom to top.
    public private(set) var presentedScreens: [Screen] = []
    private var dimmingViews: [ObjectIdentifier: View] = [:]

    public init(level: WindowLevel = .normal, frame: Rect) {
        self.level = level
        super.init(frame: frame)
        elementType = .window
    }

    public func setRootScreen(_ screen: Screen?) {
        if let old = rootScreen {
            // The old root keeps what it presents (links stay): an app sent to the background
            // shows its sheets again when it comes back.
            for presented in presentedScreens.reversed() { removePresentation(presented) }
            old.view.removeFromSuperview()
            old.setAppeared(false)
        }
        rootScreen = screen
        if let screen {
            screen.hostWindow = self
            screen.loadIfNeeded()
            screen.view.frame = bounds
            insertSubview(screen.view, at: 0)
            var next = screen.presentedScreen
            while let presented = next {
                if let alert = presented as? AlertController {
                    scene?.showAlert(alert, animated: false, completion: nil)
                } else {
                    presented.hostWindow = self
                    addPresentation(presented)
                }
                next = presented.presentedScreen
            }
            screen.setAppeared(true)
        }
        setNeedsLayout()
    }

    /// The screen at the top of the presentation stack (the root when nothing is presented).
    public var topPresentedScreen: Screen? { presentedScreens.last ?? rootScreen }

    func addPresentation(_ screen: Screen) {
        let dimming = View()
        dimming.backgroundColor = .black
        dimming.alpha = 0
        dimming.isUserInteractionEnabled = true
        dimmingViews[ObjectIdentifier(screen)] = dimming
        presentedScreens.append(screen)
        addSubview(dimming)
        addSubview(screen.view)
        screen.view.clipsToBounds = true
        setNeedsLayout()
    }

    func removePresentation(_ screen: Screen) {
        presentedScreens.removeAll { $0 === screen }
        dimmingViews.removeValue(forKey: ObjectIdentifier(screen))?.removeFromSuperview()
        screen.view.removeFromSuperview()
        setNeedsLayout()
    }

    /// Positions the root and presented screens for the current presentation progress and
    /// lets each lay out its content inside its safe area (`safeArea` in window coordinates).
    func layoutScreens(safeArea: Rect) {
        guard let root = rootScreen else { return }
        root.view.frame = bounds
        // Under a sheet, the screen below shrinks back a little with rounded corners (iOS 13 cards).
        let firstSheet = presentedScreens.first { $0.modalPresentationStyle == .pageSheet }
        let screenProfile = attachedScene?.profile
        let isWide = screenProfile?.isTablet ?? (bounds.width > 600)
        // A phone on its side (a compact height) shows a sheet over the whole screen, as iOS does.
        let compactHeight = !isWide && (screenProfile?.isLandscape ?? false)
        let recess = level == .normal && !isWide && !compactHeight ? (firstSheet?.presentationProgress ?? 0) : 0
        root.view.scale = 1 - 0.07 * recess
        root.view.cornerRadius = recess > 0 ? 10 * min(1, recess * 3) : 0
        root.view.clipsToBounds = recess > 0
        var sheetDepth = 0
        for screen in presentedScreens {
            let progress = screen.presentationProgress
            let dimming = dimmingViews[ObjectIdentifier(screen)]
            dimming?.frame = bounds
            switch screen.modalPresentationStyle {
            case .fullScreen:
                dimming?.alpha = 0
                screen.view.cornerRadius = 0
                screen.view.frame = bounds.offsetBy(dx: 0, dy: bounds.height * (1 - progress))
            case .pageSheet:
                sheetDepth += 1
                dimming?.alpha = 0.35 * progress
                screen.view.cornerRadius = compactHeight ? 0 : 10
                if compactHeight {
                    screen.view.frame = bounds.offsetBy(dx: 0, dy: bounds.height * (1 - progress))
                } else if isWide {
                    // A tablet shows a sheet as a centred card.
                    let width = min(704, bounds.width - 96)
                    let top = safeArea.minY + 40 + 10 * Double(sheetDepth - 1)
                    let height = bounds.height - top - 60
                    screen.view.maskedCorners = .all
                    screen.view.frame = Rect(
                        x: bounds.midX - width / 2, y: top + (bounds.height - top) * (1 - progress),
                        width: width, height: height)
                } else {
                    let top = safeArea.minY + 10 * Double(sheetDepth)
                    screen.view.maskedCorners = .top
                    screen.view.frame = Rect(
                        x: 0, y: top + (bounds.height - top) * (1 - progress), width: bounds.width,
                        height: bounds.height - top)
                }
            }
        }
        root.performLayout(safeArea: safeArea)
        for screen in presentedScreens {
            let frame = screen.view.frame
            switch screen.modalPresentationStyle {
            case .fullScreen:
                screen.performLayout(safeArea: safeArea)
            case .pageSheet:
                let bottomInset = isWide ? 0 : bounds.maxY - safeArea.maxY
                // The sides a phone on its side keeps clear (the sensor housing's) stay clear in a sheet.
                let left = max(0, safeArea.minX - frame.minX), right = max(0, frame.maxX - safeArea.maxX)
                screen.performLayout(
                    safeArea: Rect(x: left, y: 0, width: frame.width - left - right, height: frame.height - bottomInset))
            }
        }
    }

    public override func layoutSubviews() {
        rootScreen?.view.frame = bounds
    }

    public override func accessibilityNodes(in scene: WindowScene) -> [ElementSnapshot] {
        [
            ElementSnapshot(
                type: .window, identifier: accessibilityIdentifier ?? "", label: "", frame: frame,
                isEnabled: true, isHittable: true, children: accessibilityChildNodes(in: scene))
        ]
    }
}
