import ShowreelRender

extension WindowScene {
    /// Sets the scene's clock (time since boot, from the device clock). Running animations
    /// move to where they are at that time; finished ones complete. Time never goes back.
    public func advanceTime(to time: Duration) {
        guard time > now else { return }
        now = time
        location.advance(to: time)
        advanceNotifications(to: time)
        stepAnimations()
        refreshStatusBar()
        reconcileKeyboard()
    }

    /// Lets `duration` pass on the scene clock.
    public func advanceTime(by duration: Duration) { advanceTime(to: now + duration) }

    /// True while anything moves on screen: the device keeps time (and frames) flowing.
    public var hasRunningAnimations: Bool { !animations.isEmpty }

    /// True when nothing moves but decoration (a touch indicator fading): the app is idle in
    /// XCUITest's sense, and an action that started a push, a modal or a scroll is done.
    public var isIdle: Bool { animations.allSatisfy { $0.key?.name == Self.touchIndicatorAnimation } }

    static let touchIndicatorAnimation = "touchIndicator"

    /// When the last running animation ends (nil when nothing runs).
    public var animationsEndTime: Duration? { animations.map(\.end).max() }

    /// Starts an animation at the current time: `update` gets the curve's progress (0...1)
    /// now and at every later time step; `completion` runs once at the end (false when
    /// cancelled or replaced by one with the same key).
    @discardableResult
    public func animate(
        duration: Duration, curve: AnimationCurve = .easeInOut, key: AnimationKey? = nil,
        _ update: @escaping (Double) -> Void, completion: ((Bool) -> Void)? = nil
    ) -> AnimationHandle {
        if let key, let existing = animations.first(where: { $0.key == key }) {
            cancelAnimation(id: existing.id)
        }
        nextAnimationID += 1
        let animation = RunningAnimation(
            id: nextAnimationID, key: key, start: now, duration: duration, curve: curve,
            update: update, completion: completion)
        if duration <= .zero {
            update(curve.value(at: 1))
            completion?(true)
            return AnimationHandle(scene: self, id: animation.id)
        }
        animations.append(animation)
        update(curve.value(at: 0))
        scheduleRender()
        return AnimationHandle(scene: self, id: animation.id)
    }

    /// Runs `body` once `delay` has passed on the scene clock (a timer that, like every
    /// animation, keeps the device's time flowing until it fires).
    @discardableResult
    public func after(_ delay: Duration, perform body: @escaping () -> Void) -> AnimationHandle {
        animate(duration: delay, curve: .linear, { _ in }, completion: { finished in if finished { body() } })
    }

    func cancelAnimation(id: Int) {
        guard let index = animations.firstIndex(where: { $0.id == id }) else { return }
        let animation = animations.remove(at: index)
        animation.completion?(false)
    }

    /// Cancels the animation with `key`, if one runs.
    public func cancelAnimation(key: AnimationKey) {
        if let existing = animations.first(where: { $0.key == key }) { cancelAnimation(id: existing.id) }
    }

    private func stepAnimations() {
        // Animations run in the order they started; completions may start new ones (at `now`).
        let running = animations
        guard !running.isEmpty else { return }
        for animation in running where animations.contains(where: { $0 === animation }) {
            let fraction = animation.fraction(at: now)
            animation.update(animation.curve.value(at: fraction))
            if fraction >= 1, animations.contains(where: { $0 === animation }) {
                animations.removeAll { $0 === animation }
                animation.completion?(true)
            }
        }
        scheduleRender()
    }
}
