import Foundation
import ShowreelWire

/// The `mobile:` scripts of Appium's XCUITest driver for what simctl does to a device from
/// outside: the pasteboard (`setPasteboard`, `getPasteboard`) and deep links (`deepLink`).
extension WebDriverSession {
    static let systemScripts = ["mobile: setPasteboard", "mobile: getPasteboard", "mobile: deepLink"]

    /// Runs one of `systemScripts`; nil for a script that is not one of them.
    func executeSystem(_ script: String, _ args: [String: JSONValue]) async throws(WebDriverError) -> JSONValue? {
        switch script {
        case "mobile: setPasteboard":
            try Self.checkEncoding(args)
            guard let content = args["content"]?.string else {
                throw .invalidArgument("mobile: setPasteboard takes {\"content\": \"text\"}; 'content' must be a string.")
            }
            try await device.setPasteboard(content)
            return .null
        case "mobile: getPasteboard":
            try Self.checkEncoding(args)
            return .string(try await device.pasteboard())
        case "mobile: deepLink":
            guard let url = args["url"]?.string, URLScheme.of(url) != nil else {
                throw .invalidArgument(
                    "mobile: deepLink takes {\"url\": \"countries://country/CA\"}; 'url' must be a URL with a scheme.")
            }
            let opened = try await device.open(url: url)
            if let bundle = args["bundleId"]?.string, bundle != opened {
                throw .invalidArgument("\(url) opened in \(opened), the app that declares its scheme, not in \(bundle).")
            }
            return .null
        default:
            return nil
        }
    }

    /// The pasteboard holds text: Appium's `encoding` may only name UTF-8.
    private static func checkEncoding(_ args: [String: JSONValue]) throws(WebDriverError) {
        guard let encoding = args["encoding"] else { return }
        guard let name = encoding.string, ["utf8", "utf-8"].contains(name.lowercased()) else {
            throw .invalidArgument("The pasteboard's text is UTF-8: 'encoding' may only be \"utf8\".")
        }
    }

    /// Appium's clipboard endpoints: `content` is base64, `contentType` plaintext (the only kind
    /// the device's pasteboard holds).
    func setClipboard(_ body: JSONValue) async throws(WebDriverError) {
        try Self.checkContentType(body)
        guard let content = body["content"]?.string else {
            throw .invalidArgument("set_clipboard takes {\"content\": \"<base64>\", \"contentType\": \"plaintext\"}.")
        }
        guard let data = Data(base64Encoded: content), let text = String(data: data, encoding: .utf8) else {
            throw .invalidArgument("set_clipboard's 'content' must be UTF-8 text in base64.")
        }
        try await device.setPasteboard(text)
    }

    func clipboard(_ body: JSONValue) async throws(WebDriverError) -> JSONValue {
        try Self.checkContentType(body)
        return .string(Data(try await device.pasteboard().utf8).base64EncodedString())
    }

    private static func checkContentType(_ body: JSONValue) throws(WebDriverError) {
        guard let type = body["contentType"] else { return }
        guard type.string == "plaintext" else {
            throw .invalidArgument("The device's pasteboard holds text: 'contentType' may only be \"plaintext\".")
        }
    }
}

extension WebDriverRoute {
    /// Appium's clipboard endpoints and W3C's navigate-to (Appium opens a deep link with `driver.get(url)`).
    static let systemRoutes: [WebDriverRoute] = [
        .init(.POST, "session/:sid/appium/device/set_clipboard") { call in
            try await call.s.step("set clipboard") { try await call.s.setClipboard(call.body) }
            return .null
        },
        .init(.POST, "session/:sid/appium/device/get_clipboard") { call in
            try await call.s.step("get clipboard") { try await call.s.clipboard(call.body) }
        },
        .init(.POST, "session/:sid/url") { call in
            let url = try call.string("url")
            return try await call.s.step("open \(url)") {
                try await call.s.execute(["script": "mobile: deepLink", "args": [["url": .string(url)]]])
            }
        },
    ]
}
