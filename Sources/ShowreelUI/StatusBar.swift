import ShowreelRender

/// What the status bar shows: the values `simctl status_bar override` can set.
public struct StatusBarValues: Equatable, Sendable, Codable {
    public enum DataNetwork: String, Codable, Sendable, CaseIterable { case hide, wifi, threeG = "3g", fourG = "4g", lte, fiveG = "5g" }
    public enum BatteryState: String, Codable, Sendable, CaseIterable { case charging, charged, discharging }

    public var time = "9:41"
    public var dataNetwork: DataNetwork = .wifi
    public var wifiBars = 3
    public var cellularBars = 4
    public var operatorName = ""
    public var batteryState: BatteryState = .charged
    public var batteryLevel = 100

    public init() {}
}

/// Draws the status bar across the top of the screen, around the sensor housing.
final class StatusBarView: View {
    var values = StatusBarValues() { didSet { if values != oldValue { setNeedsDisplay() } } }

    override init(frame: Rect = .zero) {
        super.init(frame: frame)
        elementType = .statusBar
        isAccessibilityElement = true
        isUserInteractionEnabled = false
    }

    override func draw(in canvas: Canvas) {
        let midY = min(bounds.height / 2 + 4, 32)
        let font = Font.system(16, weight: .bold)
        canvas.draw(values.time, in: Rect(x: 24, y: midY - 11, width: 90, height: 22), font: font, color: .label, alignment: .center)
        var x = bounds.maxX - 30
        // Battery: outline, level fill, cap.
        let battery = Rect(x: x - 25, y: midY - 6, width: 25, height: 12)
        canvas.stroke(battery, color: Color.label.withAlpha(0.4), lineWidth: 1, cornerRadius: 3.5)
        let level = Double(max(0, min(values.batteryLevel, 100))) / 100
        let fillColor: Color = values.batteryState == .charging ? .systemGreen : (values.batteryLevel <= 20 ? .systemRed : .label)
        canvas.fill(Rect(x: battery.minX + 2, y: battery.minY + 2, width: (battery.width - 4) * level, height: battery.height - 4),
                    color: fillColor, cornerRadius: 1.5)
        canvas.fill(Rect(x: battery.maxX + 1, y: midY - 2, width: 1.5, height: 4), color: Color.label.withAlpha(0.4))
        x = battery.minX - 8
        if values.dataNetwork == .wifi {
            // Wi-Fi: three arcs as dots of rising size, drawn as bars for legibility at small sizes.
            for bar in 0..<3 {
                let on = bar < values.wifiBars
                let w = 4.0 + Double(bar) * 4
                canvas.fill(Rect(x: x - 9 - w / 2, y: midY + 4 - Double(bar) * 4, width: w, height: 2.5),
                            color: on ? .label : Color.label.withAlpha(0.25), cornerRadius: 1)
            }
            x -= 22
        } else if values.dataNetwork != .hide {
            let text = values.dataNetwork.rawValue.uppercased()
            canvas.draw(text, in: Rect(x: x - 28, y: midY - 8, width: 28, height: 16), font: .system(13, weight: .bold),
                        color: .label, alignment: .trailing)
            x -= 32
        }
        for bar in 0..<4 {
            let h = 4.0 + Double(bar) * 2.5
            canvas.fill(Rect(x: x - 18 + Double(bar) * 4.5, y: midY + 6 - h, width: 3, height: h),
                        color: bar < values.cellularBars ? .label : Color.label.withAlpha(0.25), cornerRadius: 1)
        }
        if !values.operatorName.isEmpty {
            canvas.draw(values.operatorName, in: Rect(x: x - 90, y: midY - 8, width: 66, height: 16),
                        font: .system(12), color: .label, alignment: .trailing)
        }
    }
}
