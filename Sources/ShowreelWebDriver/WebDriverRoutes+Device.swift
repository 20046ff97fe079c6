import Foundation
import ShowreelGraphics

extension WebDriverRoute {
    static let deviceRoutes: [WebDriverRoute] = [
        .init(.GET, "session/:sid/window/rect") { call in
            let size = call.s.device.profile.pointSize
            return ["x": 0, "y": 0, "width": .number(size.width), "height": .number(size.height)]
        },
        .init(.GET, "session/:sid/window/:handle/size") { call in
            let size = call.s.device.profile.pointSize
            return ["width": .number(size.width), "height": .number(size.height)]
        },
        .init(.GET, "session/:sid/orientation") { _ in "PORTRAIT" },
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

    /// Appium's app endpoints are its `mobile:` scripts with the body as their argument.
    private static func app(_ call: Call, _ script: String) async throws(WebDriverError) -> JSONValue {
        try await call.s.step(script) { try await call.s.execute(["script": .string(script), "args": [call.body]]) }
    }
}
