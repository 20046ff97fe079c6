/// What the status bar shows: the values `simctl status_bar override` can set.
public struct StatusBarValues: Equatable, Sendable, Codable {
    /// The network indicator: none, Wi-Fi, or a cellular generation.
    public enum DataNetwork: String, Codable, Sendable, CaseIterable {
        case hide, wifi
        case threeG = "3g"
        case fourG = "4g"
        case lte
        case fiveG = "5g"

        public init(from decoder: any Decoder) throws { self = try StatusBarValues.decodeChoice(from: decoder) }
    }

    public enum BatteryState: String, Codable, Sendable, CaseIterable {
        case charging, charged, discharging

        public init(from decoder: any Decoder) throws { self = try StatusBarValues.decodeChoice(from: decoder) }
    }

    public var time = "9:41"
    public var dataNetwork: DataNetwork = .wifi
    public var wifiBars = 3
    public var cellularBars = 4
    public var operatorName = ""
    public var batteryState: BatteryState = .charged
    public var batteryLevel = 100

    public init() {}

    /// One of `T`'s raw values, or an error that lists them all.
    static func decodeChoice<T: RawRepresentable & CaseIterable>(from decoder: any Decoder) throws -> T where T.RawValue == String {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = T(rawValue: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "must be one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'")
        }
        return value
    }
}
