import ShowreelGraphics

extension DeviceAction {
    /// Holds the device portrait or on its side (`simctl ui orientation`, `XCUIDevice.orientation`).
    package static func setOrientation(_ orientation: DeviceOrientation) -> DeviceAction { .system(.setOrientation(orientation)) }
}

extension AutomationAPI.Routes {
    /// How the device is held.
    package static let setOrientation = Route(.put, "/v1/orientation")
    package static let orientation = Route(.get, "/v1/orientation")
}

extension AutomationAPI {
    /// `PUT /v1/orientation` sets `orientation` (portrait, landscapeLeft, landscapeRight);
    /// `GET /v1/orientation` answers it with `interfaceOrientation`, how the app on screen is
    /// turned (portrait for an app that does not support the device's orientation).
    public struct Orientation: Codable, Equatable, Sendable {
        public var orientation: DeviceOrientation
        public var interfaceOrientation: DeviceOrientation?
        public init(orientation: DeviceOrientation, interfaceOrientation: DeviceOrientation? = nil) {
            self.orientation = orientation; self.interfaceOrientation = interfaceOrientation
        }
    }

    /// The body of `PUT /v1/orientation`, checked by name so a wrong one says what the right ones are.
    package struct SetOrientation: AutomationBody, Equatable, Sendable {
        package var orientation: String
        package init(_ orientation: DeviceOrientation) { self.orientation = orientation.rawValue }

        package func validate(_ limits: AutomationLimits) throws(AutomationInputError) { _ = try parsed() }

        package func parsed() throws(AutomationInputError) -> DeviceOrientation {
            guard let parsed = DeviceOrientation(spelling: orientation) else {
                let names = DeviceOrientation.allCases.map(\.rawValue).joined(separator: ", ")
                let upsideDown = orientation.lowercased().contains("upside")
                throw .outOfRange(
                    field: "orientation",
                    message: "must be one of \(names), got '\(orientation)'"
                        + (upsideDown ? " (upside down is not supported: phones do not show apps that way)" : ""))
            }
            return parsed
        }
    }
}
