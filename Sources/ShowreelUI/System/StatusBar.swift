import ShowreelAccessibility
import ShowreelRender

/// Draws the status bar across the top of the screen, around the sensor housing.
final class StatusBarView: View {
    var values = StatusBarValues() { didSet { if values != oldValue { setNeedsDisplay() } } }
    /// Dark content on light screens, white on dark ones.
    var foreground: Color = .label { didSet { if foreground != oldValue { setNeedsDisplay() } } }
    /// An airplane instead of signal and network (see `NetworkState`).
    var airplaneMode = false { didSet { if airplaneMode != oldValue { setNeedsDisplay() } } }

    override init(frame: Rect = .zero) {
        super.init(frame: frame)
        elementType = .statusBar
        isAccessibilityElement = true
        isUserInteractionEnabled = false
    }

    override func draw(in canvas: Canvas) {
        if bounds.height >= 40 { drawAroundHousing(canvas) } else { drawClassic(canvas) }
    }

    /// A phone with a sensor housing: time in the left ear, signal, network and battery in the right.
    private func drawAroundHousing(_ canvas: Canvas) {
        let midY = min(bounds.height / 2 + 4, 32)
        canvas.draw(
            values.time, in: Rect(x: 24, y: midY - 11, width: 90, height: 22), font: .system(16, weight: .bold),
            color: foreground, alignment: .center)
        var x = drawBattery(canvas, right: bounds.maxX - 28, midY: midY) - 7
        if airplaneMode {
            _ = drawAirplane(canvas, right: x, midY: midY)
            return
        }
        x = drawNetwork(canvas, right: x, midY: midY) - 6
        x = drawCellular(canvas, right: x, midY: midY)
        if !values.operatorName.isEmpty {
            canvas.draw(
                values.operatorName, in: Rect(x: x - 80, y: midY - 8, width: 74, height: 16),
                font: .system(12), color: foreground, alignment: .trailing)
        }
    }

    /// A phone with a home button (or a tablet): signal, operator and network on the left,
    /// time in the middle, battery level and battery on the right.
    private func drawClassic(_ canvas: Canvas) {
        let midY = bounds.height / 2
        let font = Font.system(12, weight: .bold)
        var x = 6.0
        if airplaneMode { _ = drawAirplane(canvas, right: x + 15, midY: midY) }
        for bar in 0..<4 where !airplaneMode {
            canvas.fillCircle(
                center: Point(x: x + 3, y: midY), radius: 2.7,
                color: bar < values.cellularBars ? foreground : foreground.withAlpha(0.25))
            x += 6.5
        }
        x += 3
        if !values.operatorName.isEmpty, !airplaneMode {
            let width = TextMetrics.size(of: values.operatorName, font: .system(12)).width
            canvas.draw(
                values.operatorName, in: Rect(x: x, y: 0, width: width + 1, height: bounds.height),
                font: .system(12), color: foreground)
            x += width + 5
        }
        if !airplaneMode { _ = drawNetwork(canvas, right: x + networkWidth, midY: midY) }
        canvas.draw(
            values.time, in: Rect(x: bounds.midX - 60, y: 0, width: 120, height: bounds.height), font: font,
            color: foreground, alignment: .center)
        let batteryLeft = drawBattery(canvas, right: bounds.maxX - 8, midY: midY)
        canvas.draw(
            "\(values.batteryLevel)%", in: Rect(x: batteryLeft - 48, y: 0, width: 44, height: bounds.height),
            font: .system(12), color: foreground, alignment: .trailing)
    }

    private var networkWidth: Double {
        switch values.dataNetwork {
        case .hide: return 0
        case .wifi: return 17
        default: return TextMetrics.size(of: networkLabel, font: .system(12, weight: .bold)).width
        }
    }

    private var networkLabel: String {
        switch values.dataNetwork {
        case .lte: return "LTE"
        case .fiveG: return "5G"
        case .fourG: return "4G"
        case .threeG: return "3G"
        default: return ""
        }
    }

    /// Draws the battery ending at `right`; returns its left edge.
    private func drawBattery(_ canvas: Canvas, right: Double, midY: Double) -> Double {
        let battery = Rect(x: right - 2.5 - 25, y: midY - 6, width: 25, height: 12)
        canvas.stroke(battery, color: foreground.withAlpha(0.4), lineWidth: 1, cornerRadius: 3.5)
        let level = Double(max(0, min(values.batteryLevel, 100))) / 100
        let fillColor: Color = values.batteryState == .charging ? .systemGreen : (values.batteryLevel <= 20 ? .systemRed : foreground)
        canvas.fill(
            Rect(x: battery.minX + 2, y: battery.minY + 2, width: (battery.width - 4) * level, height: battery.height - 4),
            color: fillColor, cornerRadius: 1.5)
        canvas.fill(Rect(x: battery.maxX + 1, y: midY - 2, width: 1.5, height: 4), color: foreground.withAlpha(0.4))
        if values.batteryState == .charging {
            let bolt = Path(polygon: [
                Point(x: battery.midX + 1.5, y: battery.minY - 1), Point(x: battery.midX - 3.5, y: midY + 0.5),
                Point(x: battery.midX - 0.5, y: midY + 0.5), Point(x: battery.midX - 1.5, y: battery.maxY + 1),
                Point(x: battery.midX + 3.5, y: midY - 0.5), Point(x: battery.midX + 0.5, y: midY - 0.5),
            ])
            canvas.fill(bolt, color: foreground)
        }
        return battery.minX
    }

    /// Draws Wi-Fi arcs or the cellular network's name ending at `right`; returns the left edge.
    private func drawNetwork(_ canvas: Canvas, right: Double, midY: Double) -> Double {
        switch values.dataNetwork {
        case .hide:
            return right
        case .wifi:
            // Three arcs over a wedge, the bars beyond `wifiBars` dimmed.
            let center = Point(x: right - 8.5, y: midY + 5)
            for bar in 0..<3 {
                let on = bar < values.wifiBars
                var arc = Path()
                let radius = 3.5 + Double(bar) * 4
                if bar == 0 {
                    arc.move(to: center)
                    arc.arc(center: center, radius: radius + 1, from: -0.75 * Double.pi, to: -0.25 * Double.pi)
                    arc.close()
                    canvas.fill(arc, color: on ? foreground : foreground.withAlpha(0.25))
                } else {
                    arc.arc(center: center, radius: radius, from: -0.75 * Double.pi, to: -0.25 * Double.pi)
                    canvas.stroke(arc, color: on ? foreground : foreground.withAlpha(0.25), lineWidth: 2.2)
                }
            }
            return right - 17
        default:
            let width = networkWidth
            canvas.draw(
                networkLabel, in: Rect(x: right - width - 1, y: midY - 8, width: width + 1, height: 16),
                font: .system(12, weight: .bold), color: foreground, alignment: .trailing)
            return right - width
        }
    }

    /// Draws the four cellular bars ending at `right`; returns the left edge.
    private func drawCellular(_ canvas: Canvas, right: Double, midY: Double) -> Double {
        let left = right - 17
        for bar in 0..<4 {
            let h = 4.0 + Double(bar) * 2.6
            canvas.fill(
                Rect(x: left + Double(bar) * 4.6, y: midY + 5.5 - h, width: 3, height: h),
                color: bar < values.cellularBars ? foreground : foreground.withAlpha(0.25), cornerRadius: 0.8)
        }
        return left
    }
}
