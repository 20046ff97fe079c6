import ShowreelAccessibility
import ShowreelRender

/// Everything on a device's screen: the windows in level order, the status bar, the
/// software keyboard and the touch indicators.
///
/// It knows when it changed (any view's `setNeedsDisplay`), draws itself into a pixel
/// buffer, routes touches to the top-most window that wants them, and describes itself
/// as an accessibility tree. It never reads the wall clock: time is what the device sets
/// with `advanceTime(to:)`, and every animation is a pure function of it.
///
/// Driving it from a device:
/// - Time: call `advanceTime(to: clock.now)` whenever the device clock moves; while
///   `hasRunningAnimations`, step it a frame (1/60 s) at a time and `renderIfNeeded(into:)`
///   after each step, so every frame of a push, sheet or keyboard slide is published.
///   `animationsEndTime` says when the last running animation ends.
/// - Touches: `touchDown(at:)`, `touchMoved(to:)`, `touchUp(at:)` (screen points); `tap(at:)`
///   is down and up at once. Buttons highlight on down and fire on up inside; a vertical
///   drag over a list scrolls it; a swipe in from the right edge calls `onEdgeSwipeFromRight`.
/// - Keyboard: `isKeyboardVisible`, `keyboardState`, `keyFrame(_:)`, and the pure planner
///   `SoftwareKeyboard.keyTaps(toType:from:)` for typing key by key.
/// - Apps: `setAppRootScreen(_:)` shows an app and attaches its root's `sceneAccessories`
///   (a debug drawer's window, the debug window's triggers), detaching the previous app's.
/// - Events: `shake()`, `keyCommand(_:)` ("cmd+d"); status bar: `overrideStatusBar`,
///   `clearStatusBarOverrides()`; `showsTouches` for demo recordings.
public final class WindowScene {
    /// The screen as it is now: the device's profile turned to `orientation` (see `setOrientation`).
    public internal(set) var profile: DeviceProfile
    /// The screen held upright, as the device was booted with.
    public let portraitProfile: DeviceProfile
    /// How the interface is turned: the device's orientation when the app on screen supports it.
    public internal(set) var orientation: DeviceOrientation = .portrait
    /// The turn in progress: the screen before it, drawn turning into the new one.
    var rotation: Rotation?
    public private(set) var windows: [Window] = []
    public let appWindow: Window
    let statusBarView: StatusBarView
    let keyboardWindow: Window
    let keyboardView: KeyboardView
    public private(set) var needsRender = true
    /// Called once per change, when the scene goes from clean to dirty.
    public var onInvalidate: (() -> Void)?
    /// How many frames `render(into:)` has drawn (dirty tracking is visible in tests).
    public private(set) var renderCount = 0
    /// The areas of the screen (in pixels) that the last `render(into:)` may have changed since
    /// the render before it; nil when any may have (the first frame, a window added or removed).
    /// Made of the area each changed view drew on, before and after the change.
    public internal(set) var changedAreas: [PixelArea]?
    /// What changed since the last render: where the changed views had drawn then, and the
    /// views, to add where they draw now.
    var damage = SceneDamage()
    /// Where the scene itself last drew over the windows (the home and touch indicators).
    var sceneOverlayAreas: [PixelArea] = []
    /// The picture the last render drew, which a render of only the changed areas starts from.
    private weak var lastRendered: PixelBuffer?
    /// How many renders drew only the changed areas (see `render(into:over:)`).
    package private(set) var partialRenderCount = 0
    /// Backgrounds left out of renders as hidden under opaque views (see `View+Overdraw`).
    package private(set) var overdrawLeftOut = 0
    /// Tests: each render (of only the changed areas, or whole but leaving out hidden drawing)
    /// is checked against a whole render that leaves nothing out, and where they differ is
    /// noted in `renderMismatches`.
    package var verifiesRenders = false
    package private(set) var renderMismatches: [String] = []
    private var scratchPicture: PixelBuffer?

    // Time and animation.
    public internal(set) var now: Duration = .zero
    var animations: [RunningAnimation] = []
    var nextAnimationID = 0

    // Touches.
    var activeTouch: TouchTracker?
    /// Draws a translucent circle where a finger is (for demo recordings).
    public var showsTouches = false { didSet { if showsTouches != oldValue { scheduleRender() } } }
    var touchIndicator: (point: Point, alpha: Double)? { didSet { if showsTouches { scheduleRender() } } }
    /// Called when a swipe starts at the right edge of the screen and moves left (the debug window opens).
    public var onEdgeSwipeFromRight: (() -> Void)?
    /// Called for a shake that no screen handled.
    public var onShake: (() -> Bool)?
    /// Scene-wide key commands, tried after the screens' own (Cmd+D for the debug window).
    public var keyCommands: [KeyCommand] = []

    // Keyboard and focus.
    public internal(set) weak var firstResponder: TextField?
    public internal(set) var keyboardState = KeyboardState()
    var keyboardProgress: Double = 0 { didSet { if keyboardProgress != oldValue { keyboardWindow.setNeedsLayout() } } }
    var keyboardAnimation: AnimationHandle?

    // Status bar.
    var statusBarOverride: StatusBarValues?
    /// The time the status bar shows at `now == 0` when not overridden (minutes after midnight).
    public var statusBarStartMinutes = 9 * 60 + 41 { didSet { refreshStatusBar() } }
    var alertWindows: [(alert: AlertController, window: Window)] = []
    /// The device's pasteboard, shared by its apps.
    public let pasteboard = Pasteboard()
    /// What each app may use (location, photos, ...), and which app asks.
    public let permissions = PermissionStore()
    /// What the system says, in the device's language (set by the device).
    public var systemStrings = SystemStrings(deviceLanguages: [])
    /// The simulated location apps read, set or moved along a route by the device.
    public let location = LocationSimulator()
    /// The notifications delivered to apps, and the banner showing the latest.
    public let notifications = NotificationList()
    /// The pictures and videos added to the device, as apps pick them (`pickPhoto`).
    public let photos = PhotoLibrary()
    /// Connectivity: airplane mode, as apps read it and the status bar shows it.
    public let network = NetworkState()
    /// The text field's Copy and Paste menu while it shows.
    var editMenuWindow: Window?

    /// Light or dark for every window and the status bar: semantic colours draw their variant.
    public var interfaceStyle: InterfaceStyle = .light { didSet { if interfaceStyle != oldValue { invalidate() } } }
    /// Whether the foreground app reads right to left (Arabic, Hebrew): set from its root
    /// screen's `layoutDirection` when it comes on screen; leading edges are then on the right.
    public private(set) var isRightToLeft = false
    /// Shapes the scene's text; kept across frames, so unchanged strings are not shaped again.
    let textEngine = TextEngine()

    public init(profile: DeviceProfile) {
        self.profile = profile
        portraitProfile = profile
        let screenRect = Rect(x: 0, y: 0, width: profile.pointSize.width, height: profile.pointSize.height)
        appWindow = Window(level: .normal, frame: screenRect)
        appWindow.backgroundColor = .black
        statusBarView = StatusBarView(frame: Rect(x: 0, y: 0, width: screenRect.width, height: profile.statusBarHeight))
        keyboardWindow = Window(level: .keyboard, frame: screenRect)
        keyboardView = KeyboardView(profile: profile)
        reportsInvalidation(of: statusBarView)
        addWindow(appWindow)
        let host = Screen(title: "Keyboard", background: .clear)
        host.view.isUserInteractionEnabled = true
        host.view.addSubview(keyboardView)
        keyboardWindow.setRootScreen(host)
        keyboardWindow.isHidden = true
        addWindow(keyboardWindow)
        refreshStatusBar()
    }

    public var bounds: Rect { appWindow.frame }

    /// The area app content should stay inside: below the status bar, above the home indicator.
    public var safeArea: Rect {
        if profile.isLandscape, !profile.isTablet {
            // A phone on its side: no status bar, the sensor housing's width kept clear on both
            // sides (as iOS keeps them symmetric), a shorter home indicator area.
            let side = profile.sensorHousing == nil ? 0.0 : 47
            let bottom = profile.cornerRadius > 0 ? 21.0 : 0
            return Rect(x: side, y: 0, width: bounds.width - 2 * side, height: bounds.height - bottom)
        }
        let bottom = profile.cornerRadius > 0 ? 34.0 : 0
        return Rect(
            x: 0, y: profile.statusBarHeight, width: bounds.width,
            height: bounds.height - profile.statusBarHeight - bottom)
    }

    public func addWindow(_ window: Window) {
        reportsInvalidation(of: window)
        window.attachedScene = self
        windows.append(window)
        // Stable: windows of the same level keep the order they were added in.
        windows = windows.enumerated().sorted { ($0.element.level, $0.offset) < ($1.element.level, $1.offset) }.map(\.element)
        invalidate()
    }

    public func removeWindow(_ window: Window) {
        guard window !== appWindow, window !== keyboardWindow else { return }
        window.invalidationHandler = nil
        window.attachedScene = nil
        windows.removeAll { $0 === window }
        invalidate()
    }

    /// Shows `screen` as the app window's root (nil shows the empty home screen).
    public func setAppRootScreen(_ screen: Screen?) {
        // The keyboard and alerts of the app that leaves go at once (its alerts stay linked
        // to their screens and show again when it comes back).
        if let field = firstResponder {
            firstResponder = nil
            field.focusDidChange()
        }
        keyboardAnimation?.cancel()
        keyboardProgress = 0
        hideEditMenu()
        keyboardWindow.isHidden = true
        for entry in alertWindows { removeWindow(entry.window) }
        alertWindows.removeAll()
        let old = appWindow.rootScreen
        let changed = old !== screen
        if changed { for accessory in old?.sceneAccessories ?? [] { accessory.detach(from: self) } }
        let rightToLeft = screen?.layoutDirection == .rightToLeft
        if rightToLeft != isRightToLeft {
            isRightToLeft = rightToLeft
            for window in windows { window.setNeedsLayoutRecursively() }
        }
        appWindow.setRootScreen(screen)
        if changed { for accessory in screen?.sceneAccessories ?? [] { accessory.attach(to: self) } }
        layoutIfNeeded()
        invalidate()
    }

    /// Makes `root` (a window, the status bar) and the views in it report their changes here.
    private func reportsInvalidation(of root: View) {
        root.invalidationHandler = { [weak self] view, rect in self?.invalidate(view, rect: rect) }
    }

    /// Something other than a view changed (a window came or went): anything may change.
    func invalidate() {
        damage.everything = true
        scheduleRender()
    }

    /// `view` changed: the area it drew on, and will draw on, changes; or only `rect` (in
    /// screen points), when given.
    func invalidate(_ view: View, rect: Rect? = nil) {
        if let rect {
            if let area = PixelArea(covering: rect, scale: Double(profile.scale), width: profile.pixelWidth, height: profile.pixelHeight) {
                damage.add(area)
            }
        } else {
            damage.add(view)
        }
        scheduleRender()
    }

    /// A new frame is due, with nothing changed yet beyond what views report (an animation
    /// step: its updates go through the views they move).
    func scheduleRender() {
        guard !needsRender else { return }
        needsRender = true
        onInvalidate?()
    }

    /// Forces the next `renderIfNeeded` to draw (benchmarks, a new output buffer).
    public func setNeedsRender() { invalidate() }

    // MARK: Layout

    /// Brings every window, screen and view up to date with the current time and state.
    public func layoutIfNeeded() {
        for window in windows where !window.isHidden || window === keyboardWindow {
            window.layoutIfNeeded()
            window.layoutScreens(safeArea: safeArea(of: window))
        }
        layoutKeyboard()
        for window in windows where !window.isHidden { window.layoutIfNeeded() }
        statusBarView.foreground = statusBarStyle == .lightContent ? .white : .label
    }

    private func safeArea(of window: Window) -> Rect {
        let area = safeArea.offsetBy(dx: -window.frame.x, dy: -window.frame.y)
        let minX = max(area.minX, 0), minY = max(area.minY, 0)
        let maxX = min(area.maxX, window.frame.width), maxY = min(area.maxY, window.frame.height)
        return Rect(x: minX, y: minY, width: max(0, maxX - minX), height: max(0, maxY - minY))
    }

    /// The status bar style the top full-screen content asks for.
    public var statusBarStyle: StatusBarStyle {
        guard let root = appWindow.rootScreen else { return .lightContent }
        if !profile.isTablet,
            appWindow.presentedScreens.contains(where: { $0.modalPresentationStyle == .pageSheet && $0.presentationProgress > 0.5 })
        {
            return .lightContent
        }
        let full = appWindow.presentedScreens.last { $0.modalPresentationStyle == .fullScreen && $0.presentationProgress > 0.5 }
        return (full ?? root).preferredStatusBarStyle
    }

    // MARK: Rendering

    /// Draws the whole screen into `pixels` (which must be the profile's pixel size): mid-turn,
    /// the screen before the turn turning into the one after it.
    public func render(into pixels: PixelBuffer) {
        render(into: pixels, over: nil)
    }

    /// Renders into `pixels`; with `previous`, the picture this scene rendered last (the same
    /// size), only what changed since is drawn: `previous` is copied and the changed areas drawn
    /// over it, which costs a fraction of a whole screen when a small part of it changed. The
    /// pixels are the same as a whole render's.
    ///
    /// `pixels` may hold an older frame of this scene already: `stale` says where it differs
    /// from `previous` (nil: anywhere), and only that is copied.
    package func render(into pixels: PixelBuffer, over previous: PixelBuffer?, differingIn stale: [PixelArea]? = nil) {
        if let rotation {
            renderTurning(rotation, into: pixels)
            // A picture mid-turn is no screen to draw changes over.
            lastRendered = nil
        } else {
            renderScreen(into: pixels, over: previous, differingIn: stale)
            lastRendered = pixels
        }
    }

    /// Draws the windows, the status bar and the indicators as they are now; over `previous`,
    /// only the changed areas (see `render(into:over:)`).
    func renderScreen(into pixels: PixelBuffer, over previous: PixelBuffer? = nil, differingIn stale: [PixelArea]? = nil) {
        layoutIfNeeded()
        if let previous, previous === lastRendered, previous.width == pixels.width, previous.height == pixels.height,
            let limit = damage.limit(
                adding: sceneOverlayAreas + plannedOverlayAreas, scale: Double(profile.scale), width: pixels.width,
                height: pixels.height),
            limit.areas.reduce(0, { $0 + $1.pixelCount }) < pixels.width * pixels.height / 2
        {
            pixels.copyPixels(in: stale, from: previous)
            if draw(into: pixels, limit: limit) {
                partialRenderCount += 1
                if verifiesRenders { compareWithReferenceRender(pixels, kind: "partial render, areas \(limit.areas)") }
                return
            }
        }
        _ = draw(into: pixels, limit: nil)
        if verifiesRenders { compareWithReferenceRender(pixels, kind: "whole render") }
    }

    /// Draws the screen (within `limit`, when given) and finishes the render; false, with
    /// nothing finished, when a limited render drew outside its areas (a whole one is due).
    private func draw(into pixels: PixelBuffer, limit: DrawingLimit?) -> Bool {
        var overlayAreas: [PixelArea] = []
        if let limit {
            // Cairo clips what it draws to a surface's edge, which rounds antialiased edges near
            // it a little differently: each area is drawn with a margin into a scratch picture,
            // and only the area itself is copied into the frame, the same as a whole render's.
            let scratch = partialScratch(width: pixels.width, height: pixels.height)
            for (index, area) in limit.areas.enumerated() {
                limit.current = area.expanded(by: Self.partialMargin, width: pixels.width, height: pixels.height)
                overlayAreas = paint(scratch, limit: limit, isLastPass: index == limit.areas.count - 1)
                pixels.copyPixels(in: area, from: scratch)
            }
        } else {
            overlayAreas = paint(pixels, limit: nil)
        }
        let areas = damage.areas(addingBefore: sceneOverlayAreas, after: overlayAreas)
        if let limit, areas?.allSatisfy(limit.covers) != true { return false }
        changedAreas = areas
        damage = SceneDamage()
        sceneOverlayAreas = overlayAreas
        needsRender = false
        renderCount += 1
        return true
    }

    /// Draws the windows, the status bar and the indicators into `pixels` (only `limit.current`,
    /// when given); returns where the indicators drew.
    private func paint(_ pixels: PixelBuffer, limit: DrawingLimit?, isLastPass: Bool = true, leavingOutOverdraw: Bool = true)
        -> [PixelArea]
    {
        let canvas: Canvas
        if let limit {
            canvas = Canvas(pixels: pixels, scale: Double(profile.scale), text: textEngine, limit: limit)
        } else {
            canvas = Canvas(pixels: pixels, scale: Double(profile.scale), text: textEngine)
        }
        canvas.leavesOutOverdraw = leavingOutOverdraw
        defer { overdrawLeftOut += canvas.overdrawLeftOut }
        canvas.interfaceStyle = interfaceStyle
        canvas.isRightToLeft = isRightToLeft
        // The black behind the windows shows only where none covers it (see `View+Overdraw`).
        let picture = PixelArea(rows: 0..<pixels.height, columns: 0..<pixels.width)
        let covered = windows.contains {
            $0.level < .statusBar && $0.isOpaqueRectangle(for: interfaceStyle)
                && canvas.pixelsCovered(by: $0.frame)?.contains(picture) == true
        }
        if !covered { canvas.clear(.black) }
        for window in windows where window.level < .statusBar { window.render(in: canvas) }
        statusBarView.render(in: canvas)
        for window in windows where window.level >= .statusBar { window.render(in: canvas) }
        // The indicators' ink says where they drew: the last pass draws them whole for it; an
        // earlier pass of a partial render draws one only if it reaches the pass's area (a
        // touch's circles drawn a pass each were a twentieth of a typing flow's CPU).
        func reaches(_ planned: PixelArea?) -> Bool {
            guard let limit, !isLastPass else { return true }
            return planned.map { $0.intersects(limit.current) } ?? true
        }
        let overlayAreas = [
            canvas.inkArea { if reaches(plannedHomeIndicatorArea) { drawHomeIndicator(in: canvas) } },
            canvas.inkArea { if reaches(plannedTouchIndicatorArea) { drawTouchIndicator(in: canvas) } },
        ].compactMap { $0 }
        canvas.finish()
        return overlayAreas
    }

    /// Tests: draws the whole screen into a picture of its own, leaving nothing out, and notes
    /// where it differs from `pixels`, which a render (`kind`) just drew.
    private func compareWithReferenceRender(_ pixels: PixelBuffer, kind: String) {
        let whole = PixelBuffer(width: pixels.width, height: pixels.height, zeroed: false)
        _ = paint(whole, limit: nil, leavingOutOverdraw: false)
        guard !pixels.hasSamePixels(as: whole) else { return }
        var first: (x: Int, y: Int)?
        for y in 0..<pixels.height where first == nil {
            if let x = (0..<pixels.width).first(where: { pixels.pixel(x: $0, y: y) != whole.pixel(x: $0, y: y) }) { first = (x, y) }
        }
        let (x, y) = first ?? (0, 0)
        renderMismatches.append(
            "render \(renderCount) (\(kind)): (\(x), \(y)) is \(pixels.pixel(x: x, y: y)), a reference render's \(whole.pixel(x: x, y: y))"
        )
    }

    /// Pixels drawn around each area of a partial render and thrown away (see `draw(into:limit:)`).
    static let partialMargin = 8

    /// The picture partial renders draw into before copying their areas out, kept across frames.
    private func partialScratch(width: Int, height: Int) -> PixelBuffer {
        if let scratch = scratchPicture, scratch.width == width, scratch.height == height { return scratch }
        let scratch = PixelBuffer(width: width, height: height, zeroed: false)
        scratchPicture = scratch
        return scratch
    }

    /// Where the home and touch indicators will draw, from their geometry (checked after the render).
    private var plannedOverlayAreas: [PixelArea] {
        [plannedHomeIndicatorArea, plannedTouchIndicatorArea].compactMap { $0 }
    }

    private var plannedHomeIndicatorArea: PixelArea? {
        guard profile.cornerRadius > 0 else { return nil }
        return plannedArea(of: Rect(x: bounds.midX - 67, y: bounds.maxY - 8 - 5, width: 134, height: 5))
    }

    private var plannedTouchIndicatorArea: PixelArea? {
        guard showsTouches, let indicator = touchIndicator, indicator.alpha > 0 else { return nil }
        return plannedArea(of: Rect(x: indicator.point.x - 24, y: indicator.point.y - 24, width: 48, height: 48))
    }

    private func plannedArea(of rect: Rect) -> PixelArea? {
        PixelArea(covering: rect, scale: Double(profile.scale), width: profile.pixelWidth, height: profile.pixelHeight)
    }

    /// The home indicator of a phone without a home button, over every window.
    private func drawHomeIndicator(in canvas: Canvas) {
        if profile.cornerRadius > 0 {
            let background = appWindow.rootScreen?.view.backgroundColor.resolved(for: interfaceStyle)
            let light = (statusBarStyle == .lightContent || interfaceStyle == .dark) && background?.luminance ?? 1 < 0.4
            canvas.fill(
                Rect(x: bounds.midX - 67, y: bounds.maxY - 8 - 5, width: 134, height: 5),
                color: (light ? Color.white : Color.black).withAlpha(0.85), cornerRadius: 2.5)
        }
    }

    /// Where a finger is, for demo recordings.
    private func drawTouchIndicator(in canvas: Canvas) {
        if showsTouches, let indicator = touchIndicator, indicator.alpha > 0 {
            canvas.fillCircle(center: indicator.point, radius: 22, color: Color.white.withAlpha(0.45 * indicator.alpha))
            canvas.strokeCircle(center: indicator.point, radius: 22, color: Color.black.withAlpha(0.25 * indicator.alpha), lineWidth: 1.5)
            canvas.fillCircle(center: indicator.point, radius: 18, color: Color(hex: 0x8E8E93, alpha: 0.35 * indicator.alpha))
        }
    }

    /// Renders only when something changed since the last frame; returns whether it drew.
    @discardableResult
    public func renderIfNeeded(into pixels: PixelBuffer) -> Bool {
        guard needsRender else { return false }
        render(into: pixels)
        return true
    }

    // MARK: Accessibility

    /// How many element trees were taken: what a query or a trace costs, for tests.
    package private(set) var accessibilityTreesTaken = 0

    /// The accessibility tree: the status bar, then one node per visible window, top first.
    public func accessibilityTree() -> [ElementSnapshot] {
        accessibilityTreesTaken += 1
        layoutIfNeeded()
        var nodes = [statusBarNode()]
        for window in windows.reversed() where !window.isHidden {
            nodes += window.accessibilityNodes(in: self)
        }
        return nodes
    }

    private func statusBarNode() -> ElementSnapshot {
        let values = statusBar
        return ElementSnapshot(
            type: .statusBar, identifier: "statusBar", label: values.time,
            value: "\(values.dataNetwork.rawValue), battery \(values.batteryLevel)%",
            frame: statusBarView.frame, isEnabled: true, isHittable: false)
    }

    /// The deepest view a touch at `point` (screen coordinates) lands on: the top-most window
    /// that takes it (a clear window that nothing inside wants lets it through).
    public func hitView(at point: Point) -> View? {
        for window in windows.reversed() where !window.isHidden {
            guard let hit = window.hitTest(point) else { continue }
            let rootView = window.rootScreen?.view
            let transparent = window.backgroundColor.alpha == 0 && (rootView?.backgroundColor.alpha ?? 0) == 0
            if transparent && (hit === window || hit === rootView) { continue }
            return hit
        }
        return nil
    }

    /// An element is hittable when a tap at its centre would reach it (or something inside it).
    public func isHittable(_ view: View, frame: Rect) -> Bool {
        guard view.isUserInteractionEnabled, bounds.contains(frame.center) else { return false }
        guard let hit = hitView(at: frame.center) else { return false }
        return hit.isDescendant(of: view)
    }

    // MARK: Hierarchy

    /// The screen a person is looking at: the top of the app window's presentations,
    /// inside its containers (a navigation controller's top screen).
    public var topMostScreen: Screen? {
        guard var screen = appWindow.topPresentedScreen else { return nil }
        while let nav = screen as? NavigationController, let top = nav.topScreen { screen = top }
        return screen
    }

    /// Every screen of the app window from the top down to the root: each presentation's
    /// screens (a navigation stack top first, then its controller), then its presenter's.
    public var screensFromTop: [Screen] {
        var result: [Screen] = []
        var level = appWindow.topPresentedScreen
        while let screen = level {
            result += Self.flatten(screen)
            level = screen.presentingScreen
        }
        return result
    }

    private static func flatten(_ screen: Screen) -> [Screen] {
        screen.children.reversed().flatMap(flatten) + [screen]
    }

    /// The app's appearance proxies (those of the app window's root screen).
    public var appearance: Appearance? { appWindow.rootScreen?.appearance }
}
