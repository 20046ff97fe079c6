import ShowreelGraphics
import ShowreelUI
import ShowreelWire

extension StatusBarOverride {
    init(_ values: StatusBarValues) {
        self.init(
            time: values.time, dataNetwork: values.dataNetwork, wifiBars: values.wifiBars,
            cellularBars: values.cellularBars, operatorName: values.operatorName,
            batteryState: values.batteryState, batteryLevel: values.batteryLevel)
    }

    /// Applies the given fields, refusing values a status bar cannot show.
    package func apply(to values: inout StatusBarValues) throws {
        if let time { values.time = time }
        if let dataNetwork { values.dataNetwork = dataNetwork }
        if let wifiBars { values.wifiBars = try bars(wifiBars, "wifiBars", max: 3) }
        if let cellularBars { values.cellularBars = try bars(cellularBars, "cellularBars", max: 4) }
        if let operatorName { values.operatorName = operatorName }
        if let batteryState { values.batteryState = batteryState }
        if let batteryLevel { values.batteryLevel = try bars(batteryLevel, "batteryLevel", max: 100) }
    }

    private func bars(_ value: Int, _ field: String, max: Int) throws -> Int {
        guard (0...max).contains(value) else { throw DeviceError.invalidRequest("\(field) must be from 0 to \(max), got \(value)") }
        return value
    }
}
