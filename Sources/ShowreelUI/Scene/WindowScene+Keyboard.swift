import ShowreelRender

extension WindowScene {
    /// True while the software keyboard is on screen (or sliding in or out).
    public var isKeyboardVisible: Bool { keyboardProgress > 0 || firstResponder != nil }

    /// The keyboard's frame on screen right now (nil when it is not showing).
    public var keyboardFrame: Rect? { isKeyboardVisible ? keyboardView.frameInWindow : nil }

    /// True while the keyboard slides in or out: its keys are not where a finger can reach them yet.
    public var isKeyboardSliding: Bool { keyboardAnimation?.isRunning ?? false }

    /// The keyboard's full height on this profile.
    public var keyboardHeight: Double { SoftwareKeyboard.height(for: profile) }

    /// The identifiers of the keys the keyboard shows now (empty when hidden).
    public var visibleKeyIdentifiers: [String] {
        isKeyboardVisible ? SoftwareKeyboard.keyIdentifiers(in: keyboardState) : []
    }

    /// The on-screen frame of a key, by identifier ("a", "shift", "more", "Return"...).
    public func keyFrame(_ identifier: String) -> Rect? {
        guard isKeyboardVisible else { return nil }
        layoutIfNeeded()
        return keyboardView.keyViews.first { $0.key.identifier == identifier }?.frameInWindow
    }

    /// Makes `field` the focused field (nil: none); the keyboard slides in or out.
    func setFirstResponder(_ field: TextField?) {
        guard field !== firstResponder else { return }
        let previous = firstResponder
        firstResponder = field
        previous?.focusDidChange()
        field?.focusDidChange()
        if let field {
            keyboardState = KeyboardState()
            keyboardView.returnKeyTitle = field.returnKeyType.title
            keyboardView.returnKeyIsProminent = field.returnKeyType != .default
            keyboardView.show(keyboardState)
            if previous == nil { slideKeyboard(in: true) }
        } else {
            slideKeyboard(in: false)
        }
    }

    private func slideKeyboard(in showing: Bool) {
        keyboardWindow.isHidden = false
        let start = keyboardProgress
        keyboardAnimation = animate(
            duration: AnimationDurations.keyboard, curve: .easeOut,
            key: AnimationKey(owner: self, name: "keyboard"),
            { [weak self] p in
                self?.keyboardProgress = start + ((showing ? 1 : 0) - start) * p
            },
            completion: { [weak self] finished in
                guard let self, finished, !showing else { return }
                self.keyboardWindow.isHidden = self.firstResponder == nil
            })
    }

    func layoutKeyboard() {
        let height = keyboardHeight
        keyboardView.frame = Rect(x: 0, y: bounds.height - height * keyboardProgress, width: bounds.width, height: height)
        if keyboardProgress <= 0 && firstResponder == nil { keyboardWindow.isHidden = true }
    }

    /// A key of the software keyboard was tapped: the state changes and the focused field edits.
    func keyboardKeyPressed(_ identifier: String) {
        guard let (state, edit) = SoftwareKeyboard.press(identifier, in: keyboardState) else { return }
        keyboardState = state
        keyboardView.show(state)
        if let edit { firstResponder?.apply(edit) }
    }

    /// A focused field that left the screen (its view was removed) gives up focus.
    func reconcileKeyboard() {
        if let field = firstResponder, field.window == nil {
            setFirstResponder(nil)
        } else if firstResponder == nil, keyboardProgress > 0, !(keyboardAnimation?.isRunning ?? false) {
            slideKeyboard(in: false)
        }
    }
}
