import ShowreelAccessibility
import ShowreelRender

/// The software keyboard on screen: light grey panel, white letter keys, grey function keys,
/// a pop-up over a pressed character key. Every key is an element of type `.key`.
final class KeyboardView: View {
    /// The screen as it is now (turned with the device): the keys' size and the band below them.
    var profile: DeviceProfile {
        didSet {
            if profile != oldValue {
                setNeedsLayout()
                setNeedsDisplay()
            }
        }
    }
    private(set) var state = KeyboardState()
    private(set) var keyViews: [KeyView] = []
    var returnKeyTitle = "return" { didSet { if returnKeyTitle != oldValue { rebuild() } } }
    var returnKeyIsProminent = false { didSet { if returnKeyIsProminent != oldValue { rebuild() } } }

    static let background = Color(light: Color(hex: 0xD1D3D9), dark: Color(hex: 0x2B2B2B))
    /// Letter keys, and function keys (shift, delete, return), in both appearances.
    static let keyFill = Color(light: .white, dark: Color(hex: 0x6B6B6B))
    static let functionKeyFill = Color(light: Color(hex: 0xABB0BA), dark: Color(hex: 0x464646))
    static let keyShadow = Color(light: Color(hex: 0x898A8D), dark: Color(hex: 0x000000, alpha: 0.6))
    static let keyInk = Color(light: .black, dark: .white)

    init(profile: DeviceProfile) {
        self.profile = profile
        super.init()
        backgroundColor = Self.background
        elementType = .keyboard
        isAccessibilityElement = true
        accessibilityIdentifier = "keyboard"
        rebuild()
    }

    func show(_ state: KeyboardState) {
        guard state != self.state else { return }
        self.state = state
        rebuild()
    }

    private func rebuild() {
        for key in keyViews { key.removeFromSuperview() }
        keyViews = SoftwareKeyboard.rows(for: state).flatMap { row in
            row.map { key in
                let view = KeyView(key: key, keyboard: self)
                if key.kind == .returnKey {
                    view.caption = returnKeyTitle
                    view.isProminent = returnKeyIsProminent
                }
                if key.kind == .shift { view.isActive = state.isShifted }
                return view
            }
        }
        for key in keyViews { addSubview(key) }
        setNeedsLayout()
    }

    /// A phone on its side: the keyboard is shorter and its keys keep clear of the sensor housing.
    private var isCompactHeight: Bool { profile.isLandscape && !profile.isTablet }

    override func layoutSubviews() {
        let inset = isCompactHeight && profile.sensorHousing != nil ? 47.0 : 0
        let width = bounds.width - 2 * inset
        let isTablet = profile.isTablet
        let unit = (width - 6) / 10
        let gap = isTablet ? 12.0 : 6.0
        let keyHeight = isTablet ? 54.0 : isCompactHeight ? 32.0 : 42.0
        let rowGap = isCompactHeight ? 7.0 : 12.0
        let top = isCompactHeight ? 6.0 : 8.0
        let rows = SoftwareKeyboard.rows(for: state)
        var index = 0
        for (rowIndex, row) in rows.enumerated() {
            let y = top + Double(rowIndex) * (keyHeight + rowGap)
            let views = Array(keyViews[index..<index + row.count])
            index += row.count
            let edgeAnchored = rowIndex >= 2
            if !edgeAnchored {
                let total = row.reduce(0) { $0 + $1.units } * unit
                var x = inset + (width - total) / 2
                for (key, view) in zip(row, views) {
                    view.frame = Rect(x: x + gap / 2, y: y, width: key.units * unit - gap, height: keyHeight)
                    x += key.units * unit
                }
            } else if rowIndex == 2 {
                // Shift (or #+=) at the left edge, delete at the right, the keys between centred.
                let first = row.first!, last = row.last!
                views.first!.frame = Rect(x: inset + 3 + gap / 2, y: y, width: first.units * unit - gap, height: keyHeight)
                views.last!.frame = Rect(
                    x: inset + width - 3 - last.units * unit + gap / 2, y: y, width: last.units * unit - gap, height: keyHeight)
                let middle = row.dropFirst().dropLast()
                let total = middle.reduce(0) { $0 + $1.units } * unit
                var x = inset + (width - total) / 2
                for (key, view) in zip(middle, views.dropFirst().dropLast()) {
                    view.frame = Rect(x: x + gap / 2, y: y, width: key.units * unit - gap, height: keyHeight)
                    x += key.units * unit
                }
            } else {
                var x = inset + 3.0
                for (key, view) in zip(row, views) {
                    view.frame = Rect(x: x + gap / 2, y: y, width: key.units * unit - gap, height: keyHeight)
                    x += key.units * unit
                }
            }
        }
    }

    override func draw(in canvas: Canvas) {
        if profile.cornerRadius > 0, !isCompactHeight {
            // The band under the keys: globe and dictation.
            let band = bounds.maxY - 75
            Symbol.globe.draw(
                in: Rect(x: 22, y: band + 14, width: 26, height: 26), color: Color(light: Color(hex: 0x50555C), dark: Color(hex: 0xD0D0D0)),
                canvas: canvas)
            Symbol.mic.draw(
                in: Rect(x: bounds.maxX - 46, y: band + 14, width: 24, height: 26),
                color: Color(light: Color(hex: 0x50555C), dark: Color(hex: 0xD0D0D0)), canvas: canvas)
        }
    }

    override func drawOverlay(in canvas: Canvas) {
        // The pressed character key's pop-up, above the other keys.
        guard let pressed = keyViews.first(where: { $0.isPressed && $0.key.kind == .character }) else { return }
        let key = pressed.frame
        let bubble = Self.popUpBubble(over: key)
        var shape = Path(roundedRect: bubble, radius: 8)
        shape.append(
            Path(roundedRect: Rect(x: key.minX, y: bubble.maxY - 10, width: key.width, height: key.maxY - bubble.maxY + 10), radius: 5))
        canvas.fill(Path(roundedRect: bubble.offsetBy(dx: 0, dy: 1), radius: 8), color: Color(hex: 0x898A8D, alpha: 0.6))
        canvas.fill(shape, color: Self.keyFill)
        canvas.draw(pressed.caption, in: bubble.offsetBy(dx: 0, dy: -2), font: .system(34), color: Self.keyInk, alignment: .center)
    }

    private static func popUpBubble(over key: Rect) -> Rect {
        Rect(x: key.midX - key.width * 0.8, y: key.minY - 56, width: key.width * 1.6, height: 54)
    }

    /// A character key's press showed or hid its pop-up: only that area changes.
    func popUpChanged(over key: KeyView) {
        guard key.key.kind == .character else { return }
        let bubble = Self.popUpBubble(over: key.frame)
        setNeedsDisplay(
            Rect(x: bubble.minX, y: bubble.minY, width: bubble.width, height: key.frame.maxY - bubble.minY)
                .insetBy(dx: -2, dy: -2))
    }

    func keyTapped(_ key: KeyView) {
        scene?.keyboardKeyPressed(key.key.identifier)
    }

    override var effectiveAccessibilityLabel: String { accessibilityLabel ?? "" }
}

/// One key cap.
final class KeyView: View {
    let key: SoftwareKeyboard.Key
    private(set) weak var keyboard: KeyboardView?
    var caption: String { didSet { setNeedsDisplay() } }
    var isPressed = false { didSet { if isPressed != oldValue { setNeedsDisplay(); keyboard?.popUpChanged(over: self) } } }
    /// Shift while shifted.
    var isActive = false
    /// A blue Return key ("go", "join", "done").
    var isProminent = false

    init(key: SoftwareKeyboard.Key, keyboard: KeyboardView) {
        self.key = key
        self.keyboard = keyboard
        self.caption = key.caption
        super.init()
        elementType = .key
        isAccessibilityElement = true
        accessibilityIdentifier = key.identifier
        accessibilityLabel = key.kind == .character ? key.identifier : key.identifier
    }

    private var isFunctionKey: Bool { key.kind != .character && key.kind != .space }

    override func draw(in canvas: Canvas) {
        var fill = isFunctionKey ? KeyboardView.functionKeyFill : KeyboardView.keyFill
        if key.kind == .shift && isActive { fill = KeyboardView.keyFill }
        if key.kind == .returnKey && isProminent { fill = .systemBlue }
        if isPressed && key.kind != .character { fill = fill == KeyboardView.keyFill ? KeyboardView.functionKeyFill : KeyboardView.keyFill }
        canvas.fill(bounds.offsetBy(dx: 0, dy: 1), color: KeyboardView.keyShadow, cornerRadius: 5)
        canvas.fill(bounds, color: fill, cornerRadius: 5)
        let ink: Color = (key.kind == .returnKey && isProminent) ? .white : KeyboardView.keyInk
        switch key.kind {
        case .character:
            let lower = caption.lowercased() == caption && caption.uppercased() != caption
            canvas.draw(caption, in: bounds.offsetBy(dx: 0, dy: lower ? -2 : 0), font: .system(22), color: ink, alignment: .center)
        case .shift:
            let s = min(bounds.width, bounds.height) * 0.5
            let r = Rect(x: bounds.midX - s / 2, y: bounds.midY - s / 2, width: s, height: s)
            let arrow = Path(polygon: [
                Point(x: r.midX, y: r.minY), Point(x: r.maxX, y: r.minY + s * 0.5), Point(x: r.minX + s * 0.72, y: r.minY + s * 0.5),
                Point(x: r.minX + s * 0.72, y: r.maxY), Point(x: r.minX + s * 0.28, y: r.maxY),
                Point(x: r.minX + s * 0.28, y: r.minY + s * 0.5),
                Point(x: r.minX, y: r.minY + s * 0.5),
            ])
            if isActive { canvas.fill(arrow, color: ink) } else { canvas.stroke(arrow, color: ink, lineWidth: 1.6) }
        case .delete:
            let h = bounds.height * 0.38, w = h * 1.45
            let r = Rect(x: bounds.midX - w / 2, y: bounds.midY - h / 2, width: w, height: h)
            let outline = Path(polygon: [
                Point(x: r.minX, y: r.midY), Point(x: r.minX + h * 0.5, y: r.minY), Point(x: r.maxX, y: r.minY),
                Point(x: r.maxX, y: r.maxY), Point(x: r.minX + h * 0.5, y: r.maxY),
            ])
            canvas.stroke(outline, color: ink, lineWidth: 1.6)
            let c = Point(x: r.minX + w * 0.6, y: r.midY), d = h * 0.2
            canvas.stroke(Path(polyline: [Point(x: c.x - d, y: c.y - d), Point(x: c.x + d, y: c.y + d)]), color: ink, lineWidth: 1.6)
            canvas.stroke(Path(polyline: [Point(x: c.x + d, y: c.y - d), Point(x: c.x - d, y: c.y + d)]), color: ink, lineWidth: 1.6)
        default:
            canvas.draw(caption, in: bounds, font: .system(16), color: ink, alignment: .center)
        }
    }

    override func touchBegan(at point: Point) -> Bool {
        isPressed = true
        return true
    }

    override func touchMoved(to point: Point) { isPressed = bounds.expanded(by: 4).contains(point) }

    @discardableResult
    override func touchEnded(at point: Point) -> Bool {
        let inside = isPressed
        isPressed = false
        if inside { keyboard?.keyTapped(self) }
        return inside
    }

    override func touchCancelled() { isPressed = false }
}
