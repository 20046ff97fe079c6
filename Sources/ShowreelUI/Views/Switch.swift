import ShowreelAccessibility
import ShowreelRender

/// An on/off switch: green track when on, a white knob that slides (animated) when tapped.
/// Its accessibility value is "1" or "0", as XCUITest reports switches.
open class Switch: View {
    public private(set) var isOn: Bool
    public var onTintColor: Color = .systemGreen { didSet { setNeedsDisplay() } }
    public var onChange: ((Bool) -> Void)?
    /// 0 (off) to 1 (on): where the knob is drawn.
    var knobPosition: Double { didSet { if knobPosition != oldValue { setNeedsDisplay() } } }
    private var isPressed = false { didSet { if isPressed != oldValue { setNeedsDisplay() } } }

    public static let size = Size(width: 51, height: 31)

    public init(isOn: Bool = false, onChange: ((Bool) -> Void)? = nil) {
        self.isOn = isOn
        self.knobPosition = isOn ? 1 : 0
        self.onChange = onChange
        super.init(frame: Rect(x: 0, y: 0, width: Self.size.width, height: Self.size.height))
        elementType = .switch
        isAccessibilityElement = true
    }

    /// Sets the state; animated, the knob slides on the scene clock.
    public func setOn(_ on: Bool, animated: Bool = true) {
        guard on != isOn else { return }
        isOn = on
        let start = knobPosition
        let end: Double = on ? 1 : 0
        if animated {
            animate(
                duration: AnimationDurations.switchKnob, curve: .easeInOut, key: "knob",
                { [weak self] p in
                    self?.knobPosition = start + (end - start) * p
                })
        } else {
            knobPosition = end
        }
        setNeedsDisplay()
    }

    /// Flips the switch as a tap does (animated, and reported to `onChange`).
    public func toggle() {
        setOn(!isOn, animated: true)
        onChange?(isOn)
    }

    open override func sizeThatFits(_ size: Size) -> Size { Self.size }

    open override func draw(in canvas: Canvas) {
        let track = Rect(x: bounds.midX - 25.5, y: bounds.midY - 15.5, width: 51, height: 31)
        let p = knobPosition
        let offColor = Color(light: Color(hex: 0xE9E9EB), dark: Color(hex: 0x39393D))
        canvas.fill(
            track, color: offColor.mixed(with: isEnabled ? onTintColor : onTintColor.withAlpha(0.5), amount: p),
            cornerRadius: 15.5)
        let knobWidth = isPressed ? 34.0 : 27.0
        let travel = track.width - 4 - knobWidth
        let knob = Rect(x: track.minX + 2 + travel * p, y: track.minY + 2, width: knobWidth, height: 27)
        canvas.fill(knob.offsetBy(dx: 0, dy: 1.5), color: Color.black.withAlpha(0.12), cornerRadius: 13.5)
        canvas.fill(knob.expanded(by: 0.25), color: Color.black.withAlpha(0.06), cornerRadius: 13.75)
        canvas.fill(knob, color: .white, cornerRadius: 13.5)
    }

    open override func touchBegan(at point: Point) -> Bool {
        guard isEnabled else { return false }
        isPressed = true
        return true
    }

    open override func touchMoved(to point: Point) { isPressed = bounds.expanded(by: 30).contains(point) }

    @discardableResult
    open override func touchEnded(at point: Point) -> Bool {
        let inside = bounds.expanded(by: 30).contains(point)
        isPressed = false
        if inside { toggle() }
        return inside
    }

    open override func touchCancelled() { isPressed = false }

    open override func handleTap() -> Bool {
        guard isEnabled else { return false }
        toggle()
        return true
    }

    open override var effectiveAccessibilityValue: String? { accessibilityValue ?? (isOn ? "1" : "0") }
}
