import ShowreelRender

extension WindowScene {
    // MARK: Status bar

    /// What the status bar shows: the overrides when set, else the live values (the time
    /// follows the scene clock). Setting it overrides every field.
    public var statusBar: StatusBarValues {
        get { statusBarOverride ?? liveStatusBar }
        set { statusBarOverride = newValue; refreshStatusBar() }
    }

    /// The values without overrides, as a freshly booted device shows them.
    public var liveStatusBar: StatusBarValues {
        var values = StatusBarValues()
        let minutes = (statusBarStartMinutes + Int(now.components.seconds / 60)) % (24 * 60)
        let hour = minutes / 60 % 12 == 0 ? 12 : minutes / 60 % 12
        values.time = "\(hour):" + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60)"
        return values
    }

    /// Like `simctl status_bar override`: changes only the fields `change` sets, keeping
    /// earlier overrides.
    public func overrideStatusBar(_ change: (inout StatusBarValues) -> Void) {
        var values = statusBar
        change(&values)
        statusBar = values
    }

    /// Like `simctl status_bar clear`: back to the live values.
    public func clearStatusBarOverrides() {
        statusBarOverride = nil
        refreshStatusBar()
    }

    public var isStatusBarOverridden: Bool { statusBarOverride != nil }

    func refreshStatusBar() {
        statusBarView.values = statusBar
    }

    // MARK: Motion and key commands

    /// A shake of the device: the top-most screen, then its containers and presenters, get
    /// `motionEnded(.shake)`; if none handles it, `onShake`. Returns whether something did.
    @discardableResult
    public func shake() -> Bool {
        var screen = topMostScreen
        while let current = screen {
            if current.motionEnded(.shake) { return true }
            screen = current.parentScreen ?? current.presentingScreen
        }
        return onShake?() ?? false
    }

    /// A hardware key press. Plain keys type into the focused text field; commands go to the
    /// top-most screen's `keyCommands`, then its containers' and presenters', then the
    /// scene's own. Returns whether something handled it.
    @discardableResult
    public func keyCommand(_ input: KeyInput) -> Bool {
        let typing = input.modifiers.subtracting(.shift).isEmpty
        if typing, let field = firstResponder {
            switch input.key.lowercased() {
            case "return", "enter", "\n": field.apply(.returnKey)
            case "delete", "backspace": field.apply(.deleteBackward)
            case "space": field.insertText(" ")
            default:
                guard input.key.count == 1 else { return false }
                field.insertText(input.modifiers.contains(.shift) ? input.key.uppercased() : input.key)
            }
            return true
        }
        if let field = firstResponder, editingCommand(input, in: field) { return true }
        var screen = topMostScreen
        while let current = screen {
            if let command = current.keyCommands.first(where: { $0.input == input }) {
                command.action()
                return true
            }
            screen = current.parentScreen ?? current.presentingScreen
        }
        if let command = keyCommands.first(where: { $0.input == input }) {
            command.action()
            return true
        }
        return false
    }

    /// Parses and sends a key command ("cmd+d").
    @discardableResult
    public func keyCommand(_ text: String) -> Bool {
        guard let input = KeyInput(parsing: text) else { return false }
        return keyCommand(input)
    }
}
