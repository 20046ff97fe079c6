import Foundation
import ShowreelGraphics
import ShowreelWire

extension WebDriverRoute {
    static let deviceRoutes: [WebDriverRoute] = [
        .init(.GET, "session/:sid/window/rect") { call in
            let size = try await call.s.device.screenSize()
            return ["x": 0, "y": 0, "width": .number(size.width), "height": .number(size.height)]
        },
        .init(.GET, "session/:sid/window/:handle/size") { call in
            let size = try await call.s.device.screenSize()
            return ["width": .number(size.width), "height": .number(size.height)]
        },
        // Appium's orientation: PORTRAIT or LANDSCAPE (landscape left, as WebDriverAgent turns it);
        // its rotation: {x, y, z} with z 0 portrait, 90 landscape left, 270 landscape right. Both
        // read the app's interface orientation, as WebDriverAgent does.
        .init(.GET, "session/:sid/orientation") { call in
            .string(try await interfaceOrientation(call).isLandscape ? "LANDSCAPE" : "PORTRAIT")
        },
        .init(.POST, "session/:sid/orientation") { call in
            let name = try call.string("orientation")
            guard let orientation = ["PORTRAIT": DeviceOrientation.portrait, "LANDSCAPE": .landscapeLeft][name.uppercased()] else {
                throw WebDriverError.invalidArgument(
                    "orientation takes {\"orientation\": \"PORTRAIT\"} or \"LANDSCAPE\", got '\(name)'"
                        + (name.uppercased().contains("UPSIDE") ? ": upside down is not supported." : "."))
            }
            try await call.s.step("orientation \(orientation.argument)") { try await call.s.device.setOrientation(orientation) }
            return .null
        },
        .init(.GET, "session/:sid/rotation") { call in
            let orientation = try await interfaceOrientation(call)
            let z = rotationDegrees.first { $0.value == orientation }?.key ?? 0
            return ["x": 0, "y": 0, "z": .number(Double(z))]
        },
        .init(.POST, "session/:sid/rotation") { call in
            let (x, y, z) = (call.body["x"]?.number ?? 0, call.body["y"]?.number ?? 0, call.body["z"]?.number)
            guard x == 0, y == 0, let z, let orientation = rotationDegrees[Int(z)] else {
                throw WebDriverError.invalidArgument(
                    "rotation takes {\"x\": 0, \"y\": 0, \"z\": 0|90|270}: 0 portrait, 90 landscape left, 270 landscape right.")
            }
            try await call.s.step("rotation \(Int(z))") { try await call.s.device.setOrientation(orientation) }
            return .null
        },
        // Appium Inspector reads and writes driver settings; this server has none to change.
        .init(.GET, "session/:sid/appium/settings") { _ in [:] },
        .init(.POST, "session/:sid/appium/settings") { _ in .null },
        .init(.GET, "session/:sid/contexts") { _ in ["NATIVE_APP"] },
        .init(.GET, "session/:sid/context") { _ in "NATIVE_APP" },
        .init(.POST, "session/:sid/appium/device/activate_app") { call in
            try await app(call, "mobile: activateApp")
        },
        .init(.POST, "session/:sid/appium/device/terminate_app") { call in
            try await app(call, "mobile: terminateApp")
        },
        .init(.POST, "session/:sid/appium/device/app_state") { call in
            try await app(call, "mobile: queryAppState")
        },
        .init(.POST, "session/:sid/appium/device/app_installed") { call in
            try await app(call, "mobile: isAppInstalled")
        },
    ]

    /// Appium's rotation angles about the screen's axis (`z`), by orientation.
    private static let rotationDegrees: [Int: DeviceOrientation] = [0: .portrait, 90: .landscapeLeft, 270: .landscapeRight]

    private static func interfaceOrientation(_ call: Call) async throws(WebDriverError) -> DeviceOrientation {
        let answer = try await call.s.device.orientation()
        return answer.interfaceOrientation ?? answer.orientation
    }

    /// Appium's app endpoints are its `mobile:` scripts with the body as their argument.
    private static func app(_ call: Call, _ script: String) async throws(WebDriverError) -> JSONValue {
        try await call.s.step(script) { try await call.s.execute(["script": .string(script), "args": [call.body]]) }
    }
}
