import Foundation
import ShowreelDevice
import ShowreelGraphics
import ShowreelWire

/// What a new session asked for, read from W3C capabilities (`alwaysMatch` merged with each
/// `firstMatch`, the first that fits wins) or the legacy `desiredCapabilities`. Unknown
/// capabilities are ignored, as the spec says; a known one with a bad value is an
/// `invalid argument` naming it.
struct SessionCapabilities: Sendable, Equatable {
    var bundleID: String?
    var arguments: [String] = []
    var environment: [String: String] = [:]
    var profile: DeviceProfile = .phone
    var udid: String?
    var autoLaunch = true
    var clock: DeviceClock.Kind = .virtual
    var statusBar: StatusBarOverride?
    var showsTouches = false
    var record = false
    var name: String?
    /// Appium's `newCommandTimeout`: a session that hears nothing this long ends (nil: never).
    var newCommandTimeout: Duration? = .seconds(60)

    /// Reads the body of `POST /session`.
    static func parse(_ body: JSONValue) throws(WebDriverError) -> SessionCapabilities {
        var candidates: [[String: JSONValue]] = []
        if let w3c = body["capabilities"], !w3c.isNull {
            guard let object = w3c.object else {
                throw .invalidArgument("'capabilities' must be an object with alwaysMatch and firstMatch, got \(w3c.kind).")
            }
            let always = object["alwaysMatch"]?.object ?? [:]
            let first = object["firstMatch"]?.array ?? [[:]]
            for option in first.isEmpty ? [[:]] : first {
                guard let option = option.object else { throw .invalidArgument("each entry of 'firstMatch' must be an object.") }
                candidates.append(always.merging(option) { a, _ in a })
            }
        } else if let legacy = body["desiredCapabilities"]?.object {
            candidates.append(legacy)
        } else {
            throw .invalidArgument(
                "POST /session needs 'capabilities' (W3C: {\"alwaysMatch\": {...}, \"firstMatch\": [{}]}) or 'desiredCapabilities'.")
        }
        var lastProblem: WebDriverError?
        for candidate in candidates {
            do throws(WebDriverError) { return try SessionCapabilities(candidate) } catch { lastProblem = error }
        }
        throw lastProblem!
    }

    init() {}

    init(_ raw: [String: JSONValue]) throws(WebDriverError) {
        // Legacy clients send Appium's keys without the "appium:" prefix.
        var caps: [String: JSONValue] = [:]
        for (key, value) in raw {
            let bare = key.hasPrefix("appium:") ? String(key.dropFirst("appium:".count)) : key
            if caps[bare] == nil || key.hasPrefix("appium:") { caps[bare] = value }
        }
        if let platform = try Self.string(caps, "platformName"), platform.lowercased() != "ios" {
            throw WebDriverError(
                .sessionNotCreated, "platformName '\(platform)' is not supported: Showreel's devices are iOS-like; send platformName iOS.")
        }
        let app = try Self.string(caps, "app")
        bundleID = try Self.string(caps, "bundleId") ?? app
        if let process = caps["processArguments"], !process.isNull {
            guard let object = process.object else {
                throw .invalidArgument("appium:processArguments must be an object {\"args\": [...], \"env\": {...}}, got \(process.kind).")
            }
            arguments += try Self.strings(object["args"], "appium:processArguments.args")
            environment.merge(try Self.dictionary(object["env"], "appium:processArguments.env")) { $1 }
        }
        arguments += try Self.strings(caps["arguments"], "appium:arguments")
        environment.merge(try Self.dictionary(caps["environment"], "appium:environment")) { $1 }
        if let deviceName = try Self.string(caps, "deviceName") {
            guard
                let profile = DeviceProfile.all.first(where: {
                    $0.name.caseInsensitiveCompare(deviceName) == .orderedSame
                        || $0.displayName.caseInsensitiveCompare(deviceName) == .orderedSame
                })
            else {
                let names = DeviceProfile.all.map { "\($0.name) (\($0.displayName))" }.joined(separator: ", ")
                throw .invalidArgument("appium:deviceName '\(deviceName)' is no device profile here. Profiles: \(names).")
            }
            self.profile = profile
        }
        udid = try Self.string(caps, "udid")
        autoLaunch = try Self.bool(caps, "autoLaunch") ?? true
        if let timeout = caps["newCommandTimeout"], !timeout.isNull {
            guard let seconds = timeout.number, seconds.isFinite, seconds >= 0, seconds <= 86_400 else {
                throw .invalidArgument("appium:newCommandTimeout must be a number of seconds from 0 (never) to 86400, got \(timeout.kind).")
            }
            newCommandTimeout = seconds == 0 ? nil : .milliseconds(Int64(seconds * 1000))
        }
        if let clock = try Self.string(caps, "showreel:clock") {
            guard let kind = DeviceClock.Kind(rawValue: clock) else {
                throw .invalidArgument("showreel:clock must be virtual or real, got '\(clock)'.")
            }
            self.clock = kind
        }
        if let bar = caps["showreel:statusBar"], !bar.isNull {
            do { statusBar = try StrictJSON.decode(StatusBarOverride.self, from: bar.encoded()) } catch {
                throw .invalidArgument("showreel:statusBar must be an object like {\"time\": \"9:41\", \"batteryLevel\": 100}: \(error)")
            }
        }
        showsTouches = try Self.bool(caps, "showreel:showTouches") ?? false
        record = try Self.bool(caps, "showreel:record") ?? false
        if let name = try Self.string(caps, "showreel:name") {
            guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
                throw .invalidArgument("showreel:name '\(name)' cannot name a video file: no '/', no leading '.', not empty.")
            }
            self.name = name
        }
    }

    private static func string(_ caps: [String: JSONValue], _ key: String) throws(WebDriverError) -> String? {
        guard let value = caps[key], !value.isNull else { return nil }
        guard let text = value.string else { throw .invalidArgument("\(display(key)) must be a string, got \(value.kind).") }
        return text
    }

    private static func bool(_ caps: [String: JSONValue], _ key: String) throws(WebDriverError) -> Bool? {
        guard let value = caps[key], !value.isNull else { return nil }
        guard let flag = value.bool else { throw .invalidArgument("\(display(key)) must be true or false, got \(value.kind).") }
        return flag
    }

    private static func strings(_ value: JSONValue?, _ name: String) throws(WebDriverError) -> [String] {
        guard let value, !value.isNull else { return [] }
        guard let list = value.array, list.allSatisfy({ $0.string != nil }) else {
            throw .invalidArgument("\(name) must be a list of strings, got \(value.kind).")
        }
        return list.compactMap(\.string)
    }

    private static func dictionary(_ value: JSONValue?, _ name: String) throws(WebDriverError) -> [String: String] {
        guard let value, !value.isNull else { return [:] }
        guard let object = value.object, object.values.allSatisfy({ $0.string != nil }) else {
            throw .invalidArgument("\(name) must be an object of strings, got \(value.kind).")
        }
        return object.compactMapValues(\.string)
    }

    private static func display(_ key: String) -> String {
        key.contains(":") || key == "platformName" ? key : "appium:\(key)"
    }
}
