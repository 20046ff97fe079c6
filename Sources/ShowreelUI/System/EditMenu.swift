import ShowreelAccessibility
import ShowreelRender

/// The text field's edit menu, as iOS shows it after a long press on a field: Copy (when the
/// field has text that may be copied) and Paste (when the pasteboard has text), in a dark
/// capsule above the field. It sits in a window of its own over everything, so the next tap
/// anywhere else closes it (and does nothing else), as on iOS.
final class EditMenuScreen: Screen {
    weak var field: TextField?
    let backdrop = EditMenuBackdrop()
    let menu = View()
    private var buttons: [Button] = []

    init(field: TextField, pasteboard: Pasteboard, strings: SystemStrings) {
        self.field = field
        super.init(title: "Edit Menu", background: .clear)
        // Identified in English in every language, as tests find them; titled in the device's.
        var items: [(identifier: String, title: String, perform: () -> Void)] = []
        if !field.text.isEmpty, !field.isSecureTextEntry {
            items.append(("Copy", strings.copy, { [weak field] in if let field { pasteboard.string = field.text } }))
        }
        if pasteboard.hasStrings {
            items.append(
                ("Paste", strings.paste, { [weak field] in if let field, let text = pasteboard.string { field.insertText(text) } }))
        }
        buttons = items.map { identifier, title, perform in
            let button = Button(title, style: .plain) { [weak self] in
                perform()
                self?.scene?.hideEditMenu()
            }
            button.font = .system(15)
            button.tintColor = .white
            button.cornerRadius = 0
            button.accessibilityIdentifier = identifier
            return button
        }
    }

    override func viewDidLoad() {
        backdrop.onTap = { [weak self] in self?.scene?.hideEditMenu() }
        view.addSubview(backdrop)
        menu.backgroundColor = Color(light: Color(hex: 0x1C1C1E, alpha: 0.94), dark: Color(hex: 0x3A3A3C, alpha: 0.96))
        menu.cornerRadius = 8
        menu.clipsToBounds = true
        menu.accessibilityIdentifier = "editMenu"
        menu.isAccessibilityElement = false
        for button in buttons { menu.addSubview(button) }
        view.addSubview(menu)
    }

    /// Whether the menu has anything to offer (an empty field with an empty pasteboard has not).
    var isEmpty: Bool { buttons.isEmpty }

    override func layout(safeArea: Rect) {
        backdrop.frame = view.bounds
        let height = 36.0
        let widths = buttons.map { TextMetrics.size(of: $0.title, font: $0.font).width + 28 }
        let width = widths.reduce(0, +)
        var x = 0.0
        for (button, buttonWidth) in zip(buttons, widths) {
            button.frame = Rect(x: x, y: 0, width: buttonWidth, height: height)
            x += buttonWidth
        }
        let target = field?.frameInWindow ?? Rect(x: view.bounds.midX, y: view.bounds.midY, width: 0, height: 0)
        let left = min(max(8, target.midX - width / 2), max(8, view.bounds.width - 8 - width))
        // Above the field, or below it when the field is at the top of the safe area.
        let above = target.minY - height - 8
        let top = above >= safeArea.minY ? above : target.maxY + 8
        menu.frame = Rect(x: left, y: top, width: width, height: height)
    }
}

/// Everything around the edit menu: a tap there closes the menu.
final class EditMenuBackdrop: View {
    var onTap: (() -> Void)?
    override func handleTap() -> Bool {
        onTap?()
        return true
    }
}

extension WindowScene {
    /// How long a finger rests on a text field before its edit menu shows.
    public static let editMenuPress: Duration = .milliseconds(500)

    /// Shows the edit menu for `field` (focusing it); nothing when it would be empty.
    public func showEditMenu(for field: TextField) {
        hideEditMenu()
        field.becomeFirstResponder()
        let screen = EditMenuScreen(field: field, pasteboard: pasteboard, strings: systemStrings)
        guard !screen.isEmpty else { return }
        let window = Window(level: .alert, frame: bounds)
        window.backgroundColor = .clear
        window.setRootScreen(screen)
        editMenuWindow = window
        addWindow(window)
    }

    /// Closes the edit menu, if it shows.
    public func hideEditMenu() {
        guard let window = editMenuWindow else { return }
        editMenuWindow = nil
        removeWindow(window)
    }

    /// Whether the edit menu shows.
    public var isEditMenuVisible: Bool { editMenuWindow != nil }
}

extension WindowScene {
    /// Cmd+C and Cmd+V on the focused field, as a hardware keyboard copies and pastes: the
    /// field's whole text (a secure field's is never copied), the pasteboard's at the end.
    func editingCommand(_ input: KeyInput, in field: TextField) -> Bool {
        guard input.modifiers == .command else { return false }
        switch input.key.lowercased() {
        case "c":
            if !field.isSecureTextEntry, !field.text.isEmpty { pasteboard.string = field.text }
            return true
        case "v":
            if let text = pasteboard.string { field.insertText(text) }
            return true
        default:
            return false
        }
    }
}
