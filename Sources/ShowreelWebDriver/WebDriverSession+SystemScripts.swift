import Foundation
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelWire

/// The `mobile:` scripts of Appium's XCUITest driver for what simctl does to a device from
/// outside: the pasteboard (`setPasteboard`, `getPasteboard`) and deep links (`deepLink`).
extension WebDriverSession {
    static let systemScripts = [
        "mobile: setPasteboard", "mobile: getPasteboard", "mobile: deepLink", "mobile: setPermission", "mobile: getPermission",
        "mobile: alert", "mobile: setSimulatedLocation", "mobile: getSimulatedLocation", "mobile: resetSimulatedLocation",
        "mobile: pushNotification",
    ]

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
        case "mobile: setPermission":
            try await setPermissions(args)
            return .null
        case "mobile: getPermission":
            let bundle = try Self.bundle(args, script)
            guard let name = args["service"]?.string, let service = PrivacyService(rawValue: name) else {
                throw .invalidArgument(
                    "mobile: getPermission needs 'service', one of \(PrivacyService.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            let status = try await device.permissions(of: bundle)[service] ?? .notDetermined
            return .string(Self.appiumWords.first { $0.1 == status }!.0)
        case "mobile: alert":
            guard let action = args["action"]?.string, ["accept", "dismiss", "getButtons"].contains(action) else {
                throw .invalidArgument(
                    "mobile: alert takes {\"action\": \"accept\", \"dismiss\" or \"getButtons\"} (and \"buttonLabel\" to tap one).")
            }
            if action == "getButtons" { return .array(try await alertButtons().map { .string($0.label) }) }
            try await answerAlert(accept: action == "accept", label: args["buttonLabel"]?.string)
            return .null
        case "mobile: setSimulatedLocation":
            try await device.setLocation(try Self.coordinate(args, script))
            return .null
        case "mobile: getSimulatedLocation":
            let here = try await device.location()
            return ["latitude": here.map { .number($0.latitude) } ?? .null, "longitude": here.map { .number($0.longitude) } ?? .null]
        case "mobile: resetSimulatedLocation":
            try await device.setLocation(nil)
            return .null
        case "mobile: pushNotification":
            let bundle = try Self.bundle(args, script)
            guard let payload = args["payload"], payload.object != nil else {
                throw .invalidArgument(
                    "mobile: pushNotification takes {\"bundleId\": ..., \"payload\": {\"aps\": {\"alert\": {\"title\": ..., \"body\": ...}}}}."
                )
            }
            let decoded: PushPayload
            do { decoded = try JSONDecoder().decode(PushPayload.self, from: try JSONEncoder().encode(payload)) } catch {
                throw .invalidArgument("mobile: pushNotification's payload is not simctl's shape: \(describeDecodingError(error)).")
            }
            try await device.push(decoded, to: bundle)
            return .null
        default:
            return nil
        }
    }

    /// A place from `latitude` and `longitude` in degrees.
    static func coordinate(_ args: [String: JSONValue], _ command: String) throws(WebDriverError) -> Coordinate {
        guard let latitude = args["latitude"]?.number, let longitude = args["longitude"]?.number else {
            throw .invalidArgument("\(command) takes {\"latitude\": 43.6532, \"longitude\": -79.3832}, numbers in degrees.")
        }
        let place = Coordinate(latitude: latitude, longitude: longitude)
        guard place.isValid else {
            throw .invalidArgument(
                "\(command): latitude must be from -90 to 90 and longitude from -180 to 180, got \(latitude), \(longitude).")
        }
        return place
    }

    /// Appium's words for permission statuses.
    static let appiumWords: [(String, PermissionStatus)] = [("yes", .granted), ("no", .denied), ("unset", .notDetermined)]

    /// `mobile: setPermission`: `{"bundleId": ..., "access": {"location": "yes", "photos": "no", "camera": "unset"}}`.
    private func setPermissions(_ args: [String: JSONValue]) async throws(WebDriverError) {
        let bundle = try Self.bundle(args, "mobile: setPermission")
        guard let access = args["access"]?.object, !access.isEmpty else {
            throw .invalidArgument(
                "mobile: setPermission takes {\"bundleId\": ..., \"access\": {\"location\": \"yes\"}} (yes, no or unset).")
        }
        var changes: [PermissionChange] = []
        for (name, value) in access.sorted(by: { ($0.key == "all" ? 0 : 1, $0.key) < ($1.key == "all" ? 0 : 1, $1.key) }) {
            guard let word = value.string, let status = Self.appiumWords.first(where: { $0.0 == word })?.1 else {
                throw .invalidArgument("mobile: setPermission's access for '\(name)' must be yes, no or unset.")
            }
            let action: String = status == .granted ? "grant" : status == .denied ? "revoke" : "reset"
            do { changes.append(try PermissionChange(action: action, service: name, bundleIdentifier: bundle)) } catch {
                throw .invalidArgument("mobile: setPermission: \(error)")
            }
        }
        for change in changes { try await device.setPermission(change) }
    }

    private static func bundle(_ args: [String: JSONValue], _ script: String) throws(WebDriverError) -> String {
        guard let bundle = (args["bundleId"] ?? args["appId"])?.string, !bundle.isEmpty else {
            throw .invalidArgument("\(script) needs 'bundleId', an app's bundle identifier.")
        }
        return bundle
    }

    // MARK: Alerts (W3C's user prompts and `mobile: alert`)

    /// The buttons of the alert on screen (the top-most one), left to right.
    func alertButtons() async throws(WebDriverError) -> [ElementSnapshot] {
        try await alert().flattened.filter { $0.type == .button }
    }

    /// The alert on screen; `no such alert` without one.
    func alert() async throws(WebDriverError) -> ElementSnapshot {
        let alerts = try await device.tree().flatMap(\.flattened).filter { $0.type == .alert }
        guard let alert = alerts.last else { throw WebDriverError(.noSuchAlert, "No alert is showing.") }
        return alert
    }

    /// Taps the button named `label`, or the alert's accepting button (its last: Allow, OK) or
    /// dismissing one (its first: Don't Allow, Cancel).
    func answerAlert(accept: Bool, label: String?) async throws(WebDriverError) {
        let buttons = try await alertButtons()
        let button: ElementSnapshot?
        if let label {
            button = buttons.first { $0.label == label }
            guard button != nil else {
                throw .invalidArgument(
                    "The alert has no button '\(label)'; it has \(buttons.map { "'\($0.label)'" }.joined(separator: ", ")).")
            }
        } else {
            button = accept ? buttons.last : buttons.first
        }
        guard let button else { throw WebDriverError(.noSuchAlert, "The alert on screen has no buttons.") }
        try await device.tap(at: button.frame.center)
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
        // Appium's push_file: on a simulator, a file pushed outside an app's container goes to the
        // photo library (`simctl addmedia`); `@com.apple.photos/name` says so explicitly.
        .init(.POST, "session/:sid/appium/device/push_file") { call in
            let path = try call.string("path")
            guard let content = call.body["data"]?.string, let data = Data(base64Encoded: content) else {
                throw WebDriverError.invalidArgument(
                    "push_file takes {\"path\": \"cat.png\", \"data\": \"<base64>\"}; 'data' must be base64.")
            }
            if path.hasPrefix("@"), !path.hasPrefix("@com.apple.photos") {
                throw WebDriverError.invalidArgument(
                    "push_file to an app's container (\(path)) is not supported: push pictures and videos to the photo library "
                        + "with a plain path or @com.apple.photos/NAME.")
            }
            let name = (path as NSString).lastPathComponent
            try await call.s.step("push \(name) to the photo library") {
                try await call.s.device.addMedia(MediaFile(name: name, data: data))
            }
            return .null
        },
        .init(.POST, "session/:sid/appium/device/set_clipboard") { call in
            try await call.s.step("set clipboard") { try await call.s.setClipboard(call.body) }
            return .null
        },
        .init(.POST, "session/:sid/appium/device/get_clipboard") { call in
            try await call.s.step("get clipboard") { try await call.s.clipboard(call.body) }
        },
        .init(.GET, "session/:sid/alert/text") { call in
            let alert = try await call.s.alert()
            return .string(alert.label)
        },
        .init(.POST, "session/:sid/alert/accept") { call in
            try await call.s.step("accept alert") { try await call.s.answerAlert(accept: true, label: nil) }
            return .null
        },
        .init(.POST, "session/:sid/alert/dismiss") { call in
            try await call.s.step("dismiss alert") { try await call.s.answerAlert(accept: false, label: nil) }
            return .null
        },
        .init(.GET, "session/:sid/location") { call in
            guard let here = try await call.s.device.location() else {
                throw WebDriverError(.unknownError, "The device has no simulated location: set one with POST /location first.")
            }
            return ["latitude": .number(here.latitude), "longitude": .number(here.longitude), "altitude": 0]
        },
        .init(.POST, "session/:sid/location") { call in
            let fields = call.body["location"]?.object ?? call.body.object ?? [:]
            let place = try WebDriverSession.coordinate(fields, "POST /location")
            try await call.s.step("set location \(place)") { try await call.s.device.setLocation(place) }
            return .null
        },
        // Appium's network connection: a bit mask, 1 airplane mode, 2 Wi-Fi, 4 data.
        .init(.GET, "session/:sid/network_connection") { call in
            .number(try await call.s.device.airplaneMode() ? 1 : 6)
        },
        .init(.POST, "session/:sid/network_connection") { call in
            guard let type = (call.body["parameters"]?["type"] ?? call.body["type"])?.number, [0, 1, 2, 4, 6].contains(type) else {
                throw WebDriverError.invalidArgument(
                    "network_connection takes {\"parameters\": {\"type\": 1}}: 1 airplane mode, 6 Wi-Fi and data (0, 2, 4 too).")
            }
            try await call.s.step("network connection \(Int(type))") { try await call.s.device.setAirplaneMode(type == 1) }
            return .number(type == 1 ? 1 : 6)
        },
        .init(.POST, "session/:sid/url") { call in
            let url = try call.string("url")
            return try await call.s.step("open \(url)") {
                try await call.s.execute(["script": "mobile: deepLink", "args": [["url": .string(url)]]])
            }
        },
    ]
}
