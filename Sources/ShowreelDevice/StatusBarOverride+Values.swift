import ShowreelUI
import ShowreelWire

extension StatusBarOverride {
    init(_ values: StatusBarValues) {
        self.init(time: values.time, dataNetwork: values.dataNetwork.rawValue, wifiBars: values.wifiBars,
                  cellularBars: values.cellularBars, operatorName: values.operatorName,
                  batteryState: values.batteryState.rawValue, batteryLevel: values.batteryLevel)
    }

    /// Applies the given fields, refusing values a status bar cannot show.
    func apply(to values: inout StatusBarValues) throws {
        if let time { values.time = time }
        if let dataNetwork {
            guard let network = StatusBarValues.DataNetwork(rawValue: dataNetwork) else {
                throw DeviceError.invalidRequest("dataNetwork must be one of \(StatusBarValues.DataNetwork.allCases.map(\.rawValue).joined(separator: ", ")), got '\(dataNetwork)'")
            }
            values.dataNetwork = network
        }
        if let wifiBars { values.wifiBars = try bars(wifiBars, "wifiBars", max: 3) }
        if let cellularBars { values.cellularBars = try bars(cellularBars, "cellularBars", max: 4) }
        if let operatorName { values.operatorName = operatorName }
        if let batteryState {
            guard let state = StatusBarValues.BatteryState(rawValue: batteryState) else {
                throw DeviceError.invalidRequest("batteryState must be one of \(StatusBarValues.BatteryState.allCases.map(\.rawValue).joined(separator: ", ")), got '\(batteryState)'")
            }
            values.batteryState = state
        }
        if let batteryLevel { values.batteryLevel = try bars(batteryLevel, "batteryLevel", max: 100) }
    }

    private func bars(_ value: Int, _ field: String, max: Int) throws -> Int {
        guard (0...max).contains(value) else { throw DeviceError.invalidRequest("\(field) must be from 0 to \(max), got \(value)") }
        return value
    }
}
