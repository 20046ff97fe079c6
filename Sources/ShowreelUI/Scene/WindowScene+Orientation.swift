import ShowreelRender

/// A turn of the screen in progress: a picture of the screen before it, and how far it went.
struct Rotation {
    /// The screen as it was, at its own (the old orientation's) size.
    let before: PixelBuffer
    let beforeSize: Size
    /// Quarter turns the device went counter-clockwise (see `DeviceOrientation.quarterTurns`).
    let quarterTurns: Int
    var progress: Double = 0
}

extension WindowScene {
    /// Turns the interface to `orientation`: the screen's size swaps, every window, the status
    /// bar and the keyboard are laid out anew, and, `animated`, the screen as it was turns into
    /// the new one over `AnimationDurations.rotation` on the scene clock (as iOS turns a snapshot).
    public func setOrientation(_ orientation: DeviceOrientation, animated: Bool) {
        guard orientation != self.orientation else { return }
        var before: PixelBuffer?
        let beforeSize = bounds.size
        if animated, rotation == nil {
            let pixels = PixelBuffer(width: profile.pixelWidth, height: profile.pixelHeight, zeroed: false)
            renderScreen(into: pixels)
            before = pixels
        }
        let turns = orientation.quarterTurns - self.orientation.quarterTurns
        self.orientation = orientation
        let oldBounds = bounds
        profile = portraitProfile.oriented(orientation)
        let newBounds = Rect(x: 0, y: 0, width: profile.pointSize.width, height: profile.pointSize.height)
        // Full-screen windows (the app's, the keyboard's, alerts', banners') take the new size.
        for window in windows where window.frame == oldBounds { window.frame = newBounds }
        hideEditMenu()
        statusBarView.frame = Rect(x: 0, y: 0, width: newBounds.width, height: profile.statusBarHeight)
        statusBarView.isHidden = profile.statusBarHeight == 0
        keyboardView.profile = profile
        // A banner showing stays centred below the status bar (placed when it came, not laid out).
        if let banner = notifications.banner?.view {
            let width = min(newBounds.width - 16, 500)
            banner.frame = Rect(x: (newBounds.width - width) / 2, y: banner.frame.y, width: width, height: banner.frame.height)
        }
        for window in windows { window.setNeedsLayoutRecursively() }
        layoutIfNeeded()
        invalidate()
        guard let before else { return }
        rotation = Rotation(before: before, beforeSize: beforeSize, quarterTurns: turns)
        animate(
            duration: AnimationDurations.rotation, curve: .easeInOut, key: AnimationKey(owner: self, name: "rotation"),
            { [weak self] p in
                self?.rotation?.progress = p
                self?.invalidate()
            },
            completion: { [weak self] _ in
                self?.rotation = nil
                self?.invalidate()
            })
    }

    /// A frame of the turn: the screen before it fades into the screen after it while both
    /// turn back upright, their frame growing from the old size to the new one.
    func renderTurning(_ rotation: Rotation, into pixels: PixelBuffer) {
        let after = PixelBuffer(width: pixels.width, height: pixels.height, zeroed: false)
        renderScreen(into: after)
        let canvas = Canvas(pixels: pixels, scale: Double(profile.scale))
        canvas.clear(.black)
        let p = rotation.progress
        let width = rotation.beforeSize.width + (bounds.width - rotation.beforeSize.width) * p
        let height = rotation.beforeSize.height + (bounds.height - rotation.beforeSize.height) * p
        let frame = Rect(x: -width / 2, y: -height / 2, width: width, height: height)
        canvas.withState {
            canvas.translate(x: bounds.midX, y: bounds.midY)
            // Turned with the device at first (counter-clockwise is a negative angle on a y-down
            // canvas), then back upright.
            canvas.rotate(by: -Double(rotation.quarterTurns) * .pi / 2 * (1 - p))
            canvas.draw(after, in: frame)
            canvas.withOpacity(1 - p) { canvas.draw(rotation.before, in: frame) }
        }
        canvas.finish()
        changedAreas = nil
    }

    /// Whether the screen is turning (touches wait for it to end).
    public var isRotating: Bool { rotation != nil }
}
