import ShowreelAccessibility
import Foundation
import ShowreelWire

/// An app on a device, as a test drives it: XCUIApplication's shape, over the automation API.
///
///     let app = Application("dev.showreel.hello", device: device)
///     try await app.launch()
///     try await app.buttons["tapButton"].tap()
///     #expect(try await app.staticTexts["tapCount"].label == "Tapped 1 time")
public struct Application: Sendable {
    public let bundleIdentifier: String
    public let device: DeviceClient
    public var launchArguments: [String] = []
    public var launchEnvironment: [String: String] = [:]

    public init(_ bundleIdentifier: String, device: DeviceClient) {
        self.bundleIdentifier = bundleIdentifier
        self.device = device
    }

    /// Launches (or relaunches) the app with `launchArguments` and `launchEnvironment`.
    /// An app that stops with a fatal error throws its message.
    public func launch() async throws { try await device.launch(bundleIdentifier, arguments: launchArguments, environment: launchEnvironment) }
    public func terminate() async throws { try await device.terminate(bundleIdentifier) }
    public func activate() async throws { try await device.activate(bundleIdentifier) }

    public var state: AppState { get async throws { try await device.state(of: bundleIdentifier).state } }

    public func wait(for state: AppState, timeout: Double) async throws -> Bool {
        try await device.wait(for: state, of: bundleIdentifier, timeout: timeout)
    }

    // The element collections a test starts from.
    public var buttons: Elements { descendants(matching: "button") }
    public var staticTexts: Elements { descendants(matching: "staticText") }
    public var textFields: Elements { descendants(matching: "textField") }
    public var secureTextFields: Elements { descendants(matching: "secureTextField") }
    public var switches: Elements { descendants(matching: "switch") }
    public var tables: Elements { descendants(matching: "table") }
    public var cells: Elements { descendants(matching: "cell") }
    public var navigationBars: Elements { descendants(matching: "navigationBar") }
    public var alerts: Elements { descendants(matching: "alert") }
    public var keyboards: Elements { descendants(matching: "keyboard") }
    public var keys: Elements { descendants(matching: "key") }
    public var images: Elements { descendants(matching: "image") }

    /// Elements of any type (XCUITest's `.any`) or of one type name.
    public func descendants(matching type: String = "any") -> Elements {
        Elements(device: device, query: .descendants(type: type))
    }

    /// Types on the software keyboard into the focused field.
    public func typeText(_ text: String, keyDelay: Double = 0, jitter: Double = 0) async throws {
        try await device.typeText(AutomationAPI.TypeText(text: text, keyDelay: keyDelay, jitter: jitter))
    }

    public func shake() async throws { try await device.shake() }
    public func keyCommand(_ key: String, modifiers: [String] = ["command"]) async throws { try await device.keyCommand(key, modifiers: modifiers) }
    public func screenshot() async throws -> Data { try await device.screenshot() }
}

/// A lazy set of elements (XCUIElementQuery): nothing is fetched until asked.
public struct Elements: Sendable {
    public let device: DeviceClient
    public let query: ElementQuery

    public init(device: DeviceClient, query: ElementQuery) {
        self.device = device
        self.query = query
    }

    public subscript(key: String) -> Element { Element(device: device, query: query.refined { $0.key = key }) }

    public func element(boundBy index: Int) -> Element { Element(device: device, query: query.refined { $0.index = index }) }
    public var firstMatch: Element { element(boundBy: 0) }

    public func matching(identifier: String) -> Elements { Elements(device: device, query: query.refined { $0.identifier = identifier }) }
    public func containing(label fragment: String) -> Elements {
        Elements(device: device, query: query.refined { $0.labelContains = fragment })
    }

    public func descendants(matching type: String = "any") -> Elements { Elements(device: device, query: query.descendants(type: type)) }
    public func children(matching type: String = "any") -> Elements { Elements(device: device, query: query.children(type: type)) }

    public var count: Int { get async throws { try await device.elements(query).count } }
    public var all: [ElementSnapshot] { get async throws { try await device.elements(query) } }
}

/// One element, found afresh on every call (XCUIElement).
public struct Element: Sendable, CustomStringConvertible {
    public let device: DeviceClient
    public let query: ElementQuery

    public init(device: DeviceClient, query: ElementQuery) {
        self.device = device
        self.query = query
    }

    public var description: String { query.description }

    public var exists: Bool { get async throws { try await !device.elements(query).isEmpty } }
    public var snapshot: ElementSnapshot { get async throws { try await device.element(query) } }
    public var label: String { get async throws { try await snapshot.label } }
    public var value: String? { get async throws { try await snapshot.value } }
    public var identifier: String { get async throws { try await snapshot.identifier } }
    public var isHittable: Bool { get async throws { try await device.elements(query).first?.isHittable ?? false } }

    public func tap() async throws { try await device.tap(AutomationAPI.Tap(query: query)) }
    public func doubleTap() async throws { try await device.tap(AutomationAPI.Tap(query: query, count: 2)) }
    public func press(forDuration seconds: Double) async throws { try await device.tap(AutomationAPI.Tap(query: query, duration: seconds)) }

    /// Taps the element to focus it, then types on the software keyboard.
    public func typeText(_ text: String, keyDelay: Double = 0, jitter: Double = 0) async throws {
        try await device.typeText(AutomationAPI.TypeText(text: text, query: query, keyDelay: keyDelay, jitter: jitter))
    }

    public func swipeUp() async throws { try await swipe(.up) }
    public func swipeDown() async throws { try await swipe(.down) }
    public func swipeLeft() async throws { try await swipe(.left) }
    public func swipeRight() async throws { try await swipe(.right) }
    private func swipe(_ direction: AutomationAPI.Direction) async throws {
        try await device.swipe(AutomationAPI.Swipe(query: query, direction: direction))
    }

    /// Waits on the device clock; true if the element appeared in time.
    public func waitForExistence(timeout: Double) async throws -> Bool { try await device.waitFor(query, timeout: timeout) }
    public func waitForNonExistence(timeout: Double) async throws -> Bool { try await device.waitFor(query, exists: false, timeout: timeout) }

    public var children: Elements { Elements(device: device, query: query.children()) }
    public func descendants(matching type: String = "any") -> Elements { Elements(device: device, query: query.descendants(type: type)) }
}
