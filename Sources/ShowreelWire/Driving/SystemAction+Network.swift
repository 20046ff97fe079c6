extension DeviceAction {
    /// Airplane mode on (no network for apps) or off.
    package static func setAirplaneMode(_ on: Bool) -> DeviceAction { .system(.setAirplaneMode(on)) }
}

extension AutomationAPI.Routes {
    /// The device's connectivity: airplane mode.
    package static let setNetwork = Route(.put, "/v1/network")
    package static let network = Route(.get, "/v1/network")
}

extension AutomationAPI {
    /// `PUT /v1/network` and `GET /v1/network`: whether airplane mode is on.
    package struct Network: AutomationBody, Equatable, Sendable {
        package var airplaneMode: Bool
        package init(airplaneMode: Bool) { self.airplaneMode = airplaneMode }
    }
}
