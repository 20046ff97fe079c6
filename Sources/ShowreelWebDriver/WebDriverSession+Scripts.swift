import Foundation
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelWire

/// `mobile:` scripts through execute (`driver.execute_script("mobile: swipe", {...})`), as
/// Appium's XCUITest driver names them, and `showreel: status` to mark the session's manifest
/// entry failed. A device runs no JavaScript: any other script is refused.
extension WebDriverSession {
    static let scripts =
        [
            "mobile: tap", "mobile: doubleTap", "mobile: touchAndHold", "mobile: swipe", "mobile: scroll",
            "mobile: dragFromToForDuration", "mobile: shake", "mobile: keys", "mobile: launchApp", "mobile: terminateApp",
            "mobile: activateApp", "mobile: queryAppState", "mobile: isAppInstalled", "mobile: pressButton",
            "showreel: status",
        ] + systemScripts

    func execute(_ body: JSONValue) async throws(WebDriverError) -> JSONValue {
        guard let script = body["script"]?.string else { throw .invalidArgument("execute needs 'script', e.g. \"mobile: swipe\".") }
        let args = body["args"]?.array?.first?.object ?? [:]
        let name = script.trimmingCharacters(in: .whitespaces)
        guard name.hasPrefix("mobile:") || name.hasPrefix("showreel:") else {
            throw .unsupported("This device runs no JavaScript; execute takes the scripts \(Self.scripts.joined(separator: ", ")).")
        }
        let canonical = name.replacingOccurrences(of: ": ", with: ":").replacingOccurrences(of: ":", with: ": ")
        switch canonical {
        case "mobile: tap", "mobile: doubleTap", "mobile: touchAndHold":
            let point = try await point(args)
            let hold = canonical == "mobile: touchAndHold" ? try seconds(args, "duration", default: 1) : DeviceAction.Defaults.tapHold
            try await device.tap(at: point, count: canonical == "mobile: doubleTap" ? 2 : 1, hold: hold)
        case "mobile: swipe":
            let direction = try self.direction(args)
            if let id = elementID(args) {
                let (tree, index) = try await resolve(id)
                try await device.swipe(try actionQuery(index, in: tree), direction)
            } else {
                try await device.swipeScreen(direction)
            }
        case "mobile: scroll":
            try await scroll(args)
        case "mobile: dragFromToForDuration":
            let from = Point(x: try number(args, "fromX"), y: try number(args, "fromY"))
            let to = Point(x: try number(args, "toX"), y: try number(args, "toY"))
            try await device.drag(from: from, to: to, duration: try seconds(args, "duration", default: 0.5))
        case "mobile: shake":
            try await device.shake()
        case "mobile: keys":
            try await keys(args)
        case "mobile: launchApp":
            let bundle = try bundleID(args)
            let arguments = args["arguments"]?.array?.compactMap(\.string) ?? []
            let environment = args["environment"]?.object?.compactMapValues(\.string) ?? [:]
            try await device.launch(bundle, arguments: arguments, environment: environment)
        case "mobile: terminateApp":
            let bundle = try bundleID(args)
            let wasRunning = try await device.state(of: bundle) != .notRunning
            try await device.terminate(bundle)
            return .bool(wasRunning)
        case "mobile: activateApp":
            try await device.activate(try bundleID(args))
        case "mobile: queryAppState":
            return .number(Double(try await appState(try bundleID(args))))
        case "mobile: isAppInstalled":
            return .bool(try await device.installedApps().contains(try bundleID(args)))
        case "mobile: pressButton":
            guard args["name"]?.string?.lowercased() == "home" else {
                throw .invalidArgument("mobile: pressButton takes {\"name\": \"home\"}; the device has no other buttons.")
            }
            try await device.pressHome()
        case "showreel: status":
            guard let status = args["status"]?.string, ["passed", "failed"].contains(status) else {
                throw .invalidArgument("showreel: status takes {\"status\": \"passed\" or \"failed\", \"message\": \"...\"}.")
            }
            reportedFailure = status == "failed" ? (args["message"]?.string ?? "The client marked the session failed.") : nil
        default:
            if let answer = try await executeSystem(canonical, args) { return answer }
            throw .unsupported("The script '\(name)' is not supported. Scripts: \(Self.scripts.joined(separator: ", ")).")
        }
        return .null
    }

    /// XCUIApplicationState: 0 not installed, 1 not running, 3 in the background, 4 in the foreground.
    func appState(_ bundle: String) async throws(WebDriverError) -> Int {
        guard try await device.installedApps().contains(bundle) else { return 0 }
        switch try await device.state(of: bundle) {
        case .notRunning, .crashed: return 1
        case .runningBackground: return 3
        case .runningForeground: return 4
        }
    }

    private func elementID(_ args: [String: JSONValue]) -> String? {
        (args["elementId"] ?? args["element"])?.string ?? args["element"]?[Self.elementKey]?.string
    }

    private func number(_ args: [String: JSONValue], _ key: String, default fallback: Double? = nil) throws(WebDriverError) -> Double {
        if let value = args[key], let number = value.number, number.isFinite { return number }
        if args[key] == nil, let fallback { return fallback }
        throw .invalidArgument("'\(key)' must be a number.")
    }

    /// A number of seconds as a duration; the device checks how long a gesture may be.
    private func seconds(_ args: [String: JSONValue], _ key: String, default fallback: Double) throws(WebDriverError) -> Duration {
        let value = try number(args, key, default: fallback)
        guard value >= 0, value < 1e9 else { throw .invalidArgument("'\(key)' must be a number of seconds, 0 or more.") }
        return .milliseconds(Int64(value * 1000))
    }

    private func bundleID(_ args: [String: JSONValue]) throws(WebDriverError) -> String {
        guard let bundle = (args["bundleId"] ?? args["appId"])?.string, !bundle.isEmpty else {
            throw .invalidArgument("The script needs 'bundleId', an app's bundle identifier.")
        }
        return bundle
    }

    private func direction(_ args: [String: JSONValue]) throws(WebDriverError) -> DeviceAction.Direction {
        guard let text = args["direction"]?.string, let direction = DeviceAction.Direction(rawValue: text.lowercased()) else {
            throw .invalidArgument("'direction' must be up, down, left or right.")
        }
        return direction
    }

    /// A point: x and y on the screen, or relative to an element's frame when one is given.
    private func point(_ args: [String: JSONValue]) async throws(WebDriverError) -> Point {
        if let id = elementID(args) {
            let (tree, index) = try await resolve(id)
            let frame = tree.nodes[index].snapshot.frame
            guard let x = args["x"]?.number, let y = args["y"]?.number else { return frame.center }
            return Point(x: frame.minX + x, y: frame.minY + y)
        }
        return Point(x: try number(args, "x"), y: try number(args, "y"))
    }

    /// Scrolls the content `direction` (the finger goes the other way), or until an element
    /// named `name` (or matching `predicateString`) is on screen, at most ten swipes.
    private func scroll(_ args: [String: JSONValue]) async throws(WebDriverError) {
        var target: Locator?
        if let name = args["name"]?.string { target = .name(name) }
        if let predicate = args["predicateString"]?.string { target = .predicate(try IOSPredicate(predicate)) }
        let direction = try args["direction"] == nil && target != nil ? .down : self.direction(args)
        guard let target else {
            try await device.scroll(direction)
            return
        }
        for _ in 0..<10 {
            let tree = try await page()
            if try target.select(in: tree, from: tree.root).contains(where: { tree.isVisible($0) && tree.nodes[$0].snapshot.isHittable }) {
                return
            }
            try await device.scroll(direction)
        }
        let tree = try await page()
        throw WebDriverError(
            .noSuchElement,
            "Scrolled \(direction.rawValue) ten times and no element matches \(args["name"]?.string ?? args["predicateString"]?.string ?? ""). \(tree.summary())"
        )
    }

    /// `mobile: keys`: strings typed, or `{key, modifierFlags}` (XCUIKeyModifierFlags: shift 2,
    /// control 4, option 8, command 16) as key commands.
    private func keys(_ args: [String: JSONValue]) async throws(WebDriverError) {
        guard let keys = args["keys"]?.array else {
            throw .invalidArgument("mobile: keys takes {\"keys\": [\"text\", {\"key\": \"d\", \"modifierFlags\": 16}]}.")
        }
        for key in keys {
            if let text = key.string { try await typeIntoFocus(text); continue }
            guard let name = key["key"]?.string else {
                throw .invalidArgument("Each of mobile: keys' keys is a string or {\"key\": ..., \"modifierFlags\": ...}.")
            }
            let flagValue = key["modifierFlags"]?.number ?? 0
            guard flagValue.isFinite, flagValue >= 0, flagValue <= 0xFFFF, flagValue.rounded() == flagValue else {
                throw .invalidArgument(
                    "mobile: keys' modifierFlags must be a whole number from 0 to 65535 (shift 2, control 4, option 8, command 16), got \(flagValue)."
                )
            }
            let flags = Int(flagValue)
            let modifiers = [(2, "shift"), (4, "control"), (8, "option"), (16, "command")].filter { flags & $0.0 != 0 }.map(\.1)
            if modifiers.isEmpty { try await typeIntoFocus(name) } else { try await device.keyCommand(name, modifiers: modifiers) }
        }
    }
}
