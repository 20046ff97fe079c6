import Foundation
import ShowreelAccessibility
import ShowreelDevice
import ShowreelGraphics
import ShowreelWire

/// W3C actions (`POST /session/{id}/actions`) as the device's gestures: a pointer that goes
/// down and up in place is a tap (held as long as it paused), one that moved is a drag; key
/// sources type on the software keyboard, a modifier held with a key is a key command.
extension WebDriverSession {
    func perform(actions body: JSONValue) async throws(WebDriverError) {
        guard let sources = body["actions"]?.array else {
            throw .invalidArgument("POST /actions needs 'actions', a list of input sources.")
        }
        let pointers = sources.filter { $0["type"]?.string == "pointer" }
        let touching = pointers.filter { $0["actions"]?.array?.contains { $0["type"]?.string == "pointerDown" } == true }
        guard touching.count <= 1 else {
            throw .unsupported(
                "Multi-touch actions (\(touching.count) pointers down at once) are not supported; send one pointer per actions call.")
        }
        for source in sources {
            guard let type = source["type"]?.string, let steps = source["actions"]?.array else {
                throw .invalidArgument("Each input source needs 'type' (pointer, key, none) and 'actions'.")
            }
            switch type {
            case "pointer": try await performPointer(steps)
            case "key": try await performKeys(steps)
            case "none", "wheel": continue
            default: throw .invalidArgument("Unknown input source type '\(type)'; use pointer, key or none.")
            }
        }
    }

    private func performPointer(_ steps: [JSONValue]) async throws(WebDriverError) {
        let screen = try await device.screenSize()
        var position = Point(x: screen.width / 2, y: screen.height / 2)
        var downAt: Point?
        var held = Duration.zero
        var moved = false
        for step in steps {
            let duration = try Self.milliseconds(step["duration"], "duration")
            switch step["type"]?.string {
            case "pointerMove":
                let x = step["x"]?.number ?? 0, y = step["y"]?.number ?? 0
                let target = try await origin(step["origin"], position)
                let next = Point(x: target.x + x, y: target.y + y)
                guard next.x >= 0, next.y >= 0, next.x <= screen.width, next.y <= screen.height else {
                    throw WebDriverError(
                        .moveTargetOutOfBounds,
                        "The pointer cannot move to (\(next.x), \(next.y)): the screen is \(Int(screen.width))x\(Int(screen.height)) points."
                    )
                }
                if downAt != nil {
                    if next != position { moved = true }
                    held += duration
                }
                position = next
            case "pointerDown":
                downAt = position
                held = .zero
                moved = false
            case "pause":
                if downAt != nil { held += duration }
            case "pointerUp":
                guard let start = downAt else { continue }
                if moved {
                    try await device.drag(from: start, to: position, duration: max(held, .milliseconds(50)))
                } else {
                    try await device.tap(at: start, hold: held > .zero ? held : DeviceAction.Defaults.tapHold)
                }
                downAt = nil
            case "pointerCancel":
                downAt = nil
            default:
                throw .invalidArgument(
                    "Unknown pointer action '\(step["type"]?.string ?? "(none)")'; use pointerMove, pointerDown, pointerUp or pause.")
            }
        }
    }

    /// Where a pointerMove's x and y count from: the viewport, the pointer, or an element's centre.
    private func origin(_ origin: JSONValue?, _ pointer: Point) async throws(WebDriverError) -> Point {
        switch origin {
        case nil, .string("viewport")?: return Point(x: 0, y: 0)
        case .string("pointer")?: return pointer
        case let .object(object)?:
            guard let id = (object[Self.elementKey] ?? object["ELEMENT"])?.string else {
                throw .invalidArgument("A pointerMove origin object must be an element reference.")
            }
            let (tree, index) = try await resolve(id)
            return tree.nodes[index].snapshot.frame.center
        default: throw .invalidArgument("A pointerMove origin is viewport, pointer or an element.")
        }
    }

    private func performKeys(_ steps: [JSONValue]) async throws(WebDriverError) {
        var held: [String] = []
        var typed = ""
        for step in steps {
            switch step["type"]?.string {
            case "keyDown":
                guard let value = step["value"]?.string, let scalar = value.unicodeScalars.first, value.unicodeScalars.count == 1 else {
                    throw .invalidArgument("A keyDown needs 'value', one character or WebDriver key.")
                }
                if let modifier = WebDriverKeys.modifiers[scalar] {
                    held.append(modifier)
                } else if !held.isEmpty {
                    try await typeIntoFocus(typed); typed = ""
                    try await device.keyCommand(value, modifiers: held)
                } else {
                    typed += value
                }
            case "keyUp":
                if let value = step["value"]?.string, let scalar = value.unicodeScalars.first,
                    let modifier = WebDriverKeys.modifiers[scalar]
                {
                    held.removeAll { $0 == modifier }
                }
            case "pause": continue
            default: throw .invalidArgument("Unknown key action '\(step["type"]?.string ?? "(none)")'; use keyDown, keyUp or pause.")
            }
        }
        try await typeIntoFocus(typed)
    }

    /// Types on the keyboard that is showing (the focused field), special keys included.
    func typeIntoFocus(_ text: String) async throws(WebDriverError) {
        for piece in try WebDriverKeys.pieces(text) {
            switch piece {
            case let .text(run): try await device.type(run, into: nil)
            case let .key(key): try await device.key(key)
            }
        }
    }

    /// A WebDriver duration in milliseconds (absent: zero); the device checks how long a gesture may be.
    static func milliseconds(_ value: JSONValue?, _ name: String) throws(WebDriverError) -> Duration {
        guard let value, !value.isNull else { return .zero }
        guard let number = value.number, number.isFinite, number >= 0, number < 1e12 else {
            throw .invalidArgument(
                "'\(name)' must be a number of milliseconds, 0 or more, got \(value.kind == "a number" ? "\(value.number!)" : value.kind).")
        }
        return .milliseconds(Int64(number))
    }

    /// The navigation bar's back button, when the screen has one (as XCUITest's driver does).
    func back() async throws(WebDriverError) {
        let tree = try await page()
        let backButton = ElementQuery.button("BackButton")
        guard !backButton.evaluate(in: tree.roots).isEmpty else { return }
        try await device.tap(backButton)
    }
}
