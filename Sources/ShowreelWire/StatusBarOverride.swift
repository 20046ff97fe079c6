/// `simctl status_bar override` as a JSON body: every field optional, only the given ones change.
public struct StatusBarOverride: Codable, Equatable, Sendable {
    public var time: String?
    /// hide, wifi, 3g, 4g, lte, 5g
    public var dataNetwork: String?
    public var wifiBars: Int?
    public var cellularBars: Int?
    public var operatorName: String?
    /// charging, charged, discharging
    public var batteryState: String?
    public var batteryLevel: Int?

    public init(time: String? = nil, dataNetwork: String? = nil, wifiBars: Int? = nil, cellularBars: Int? = nil,
                operatorName: String? = nil, batteryState: String? = nil, batteryLevel: Int? = nil) {
        self.time = time; self.dataNetwork = dataNetwork; self.wifiBars = wifiBars; self.cellularBars = cellularBars
        self.operatorName = operatorName; self.batteryState = batteryState; self.batteryLevel = batteryLevel
    }
}
