import ShowreelGraphics

/// `simctl status_bar override` as a JSON body: every field optional, only the given ones change.
public struct StatusBarOverride: Codable, Equatable, Sendable {
    public var time: String?
    public var dataNetwork: StatusBarValues.DataNetwork?
    public var wifiBars: Int?
    public var cellularBars: Int?
    public var operatorName: String?
    public var batteryState: StatusBarValues.BatteryState?
    public var batteryLevel: Int?

    public init(
        time: String? = nil, dataNetwork: StatusBarValues.DataNetwork? = nil, wifiBars: Int? = nil, cellularBars: Int? = nil,
        operatorName: String? = nil, batteryState: StatusBarValues.BatteryState? = nil, batteryLevel: Int? = nil
    ) {
        self.time = time; self.dataNetwork = dataNetwork; self.wifiBars = wifiBars; self.cellularBars = cellularBars
        self.operatorName = operatorName; self.batteryState = batteryState; self.batteryLevel = batteryLevel
    }
}
