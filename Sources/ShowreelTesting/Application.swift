import Foundation
import ShowreelAccessibility
import ShowreelWire

/// An app on a device, as a test drives it: XCUIApplication's shape, over the automation API.
///
///     let app = Application("dev.showreel.countries", launchArguments: ["--countries-datasource", "local-mock"])
///     try await app.launch()
///     try await app.cells["Canada"].tap()
///     #expect(try await app.staticTexts["countryName"].label == "Canada")
///
/// Without `device:`, it drives the current test's device (the `.device()` trait's, or the
/// XCTest case's); with no such device, every call throws a sentence that says how to get one.
/// Every action returns once the app is idle again (animations finished, on the device clock).
public struct Application: Sendable {
    public let bundleIdentifier: String
    public let device: DeviceClient
    public var launchArguments: [String]
    public var launchEnvironment: [String: String]

    public init(
        _ bundleIdentifier: String, launchArguments: [String] = [], launchEnvironment: [String: String] = [:],
        device: DeviceClient? = nil
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.launchArguments = launchArguments
        self.launchEnvironment = launchEnvironment
        self.device =
            device ?? TestContext.active?.device
            ?? .unavailable(
                "Application(\"\(bundleIdentifier)\") has no device: add the .device() trait to the test or its suite "
                    + "(import ShowreelKit), subclass ShowreelTestCase in XCTest, or pass device: DeviceClient.named(\"booted\").")
    }

    /// Launches (or relaunches) the app with `launchArguments` and `launchEnvironment`, and
    /// returns once it is idle on its first screen.
    ///
    /// - Parameters: `fileID`, `filePath`, `line`, `column`: where the call is; leave them to
    ///   their defaults, so a failure is reported at the calling line.
    /// - Throws: `DeviceClient.Failure` when the app is not installed or stops with a fatal
    ///   error (the message is its own).
    public func launch(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) async throws {
        try await device.at(CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
            .launch(bundleIdentifier, arguments: launchArguments, environment: launchEnvironment)
    }

    /// Stops the app, in the foreground or in the background (nothing when it is not running).
    /// - Throws: `DeviceClient.Failure` when the device cannot be reached.
    public func terminate(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) async throws {
        try await device.at(CallSite(fileID: fileID, filePath: filePath, line: line, column: column)).terminate(bundleIdentifier)
    }

    /// Brings the app to the foreground, launching it when it is not running.
    /// - Throws: `DeviceClient.Failure` when the app is not installed or cannot start.
    public func activate(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) async throws {
        try await device.at(CallSite(fileID: fileID, filePath: filePath, line: line, column: column)).activate(bundleIdentifier)
    }

    /// The app's state now: not running, in the background, in the foreground, or crashed.
    public var state: AppState { get async throws { try await device.status(of: bundleIdentifier).state } }

    /// Waits on the device clock until the app is in `state`.
    /// - Parameters:
    ///   - state: the state to wait for.
    ///   - timeout: the most device time to wait (at most an hour).
    /// - Returns: true if the app got there in time.
    /// - Throws: `DeviceClient.Failure` for a timeout out of range or an unreachable device.
    public func wait(
        for state: AppState, timeout: Duration, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
        column: Int = #column
    ) async throws -> Bool {
        try await device.at(CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
            .performWait(.waitForState(bundle: bundleIdentifier, state: state, timeout: timeout)).matched
    }

    /// Types `text` on the software keyboard into the focused field, key by key.
    /// - Parameters:
    ///   - text: at most 1000 characters; ones the keyboard lacks are refused.
    ///   - keyDelay: time between keys; `jitter`: up to this much more at random (seeded, so the
    ///     same run types the same way).
    /// - Throws: `DeviceClient.Failure` when no field has focus or a character has no key.
    public func typeText(
        _ text: String, keyDelay: Duration = .zero, jitter: Duration = .zero, fileID: String = #fileID, filePath: String = #filePath,
        line: Int = #line, column: Int = #column
    ) async throws {
        _ = try await device.at(CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
            .perform(.typeText(DeviceAction.TypeText(text, keyDelay: keyDelay, jitter: jitter)))
    }

    /// Shakes the device (apps open their debug window on shake).
    /// - Throws: `DeviceClient.Failure` when no app is running.
    public func shake(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) async throws {
        _ = try await device.at(CallSite(fileID: fileID, filePath: filePath, line: line, column: column)).perform(.shake)
    }

    /// A hardware-keyboard shortcut, such as Cmd+D (`keyCommand("d")`).
    /// - Parameters:
    ///   - key: the key, a character or a name such as "Return".
    ///   - modifiers: the keys held with it; Command by default.
    /// - Throws: `DeviceClient.Failure` for a key the keyboard does not have.
    public func keyCommand(
        _ key: String, modifiers: KeyModifiers = .command, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line,
        column: Int = #column
    ) async throws {
        _ = try await device.at(CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
            .perform(.keyCommand(DeviceAction.KeyCommand(key, modifiers: modifiers)))
    }

    /// The screen as PNG bytes, at the device's pixel size.
    /// - Throws: `DeviceClient.Failure` when the device cannot be reached.
    public func screenshot(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) async throws
        -> Data
    {
        try await device.at(CallSite(fileID: fileID, filePath: filePath, line: line, column: column)).screenshotPNG()
    }
}

extension Application: ElementContainer {
    public var elementScope: Elements { Elements(device: device, query: ElementQuery(steps: [])) }
}

/// Anything elements can be looked for under: the app, a set of elements, one element.
/// Gives each the XCUITest collections (`buttons`, `staticTexts`, `cells`, ...).
public protocol ElementContainer {
    /// Where the collections search: the app's whole tree, or below an element.
    var elementScope: Elements { get }
}

extension ElementContainer {
    /// Elements of any type (XCUITest's `.any`) or of one type, anywhere below.
    public func descendants(matching type: ElementType = .any) -> Elements {
        Elements(device: elementScope.device, query: elementScope.query.descendants(type: type))
    }

    public var buttons: Elements { elementScope.descendants(matching: .button) }
    public var staticTexts: Elements { elementScope.descendants(matching: .staticText) }
    public var textFields: Elements { elementScope.descendants(matching: .textField) }
    public var secureTextFields: Elements { elementScope.descendants(matching: .secureTextField) }
    public var switches: Elements { elementScope.descendants(matching: .switch) }
    public var tables: Elements { elementScope.descendants(matching: .table) }
    public var cells: Elements { elementScope.descendants(matching: .cell) }
    public var navigationBars: Elements { elementScope.descendants(matching: .navigationBar) }
    public var alerts: Elements { elementScope.descendants(matching: .alert) }
    public var keyboards: Elements { elementScope.descendants(matching: .keyboard) }
    public var keys: Elements { elementScope.descendants(matching: .key) }
    public var images: Elements { elementScope.descendants(matching: .image) }
    public var scrollViews: Elements { elementScope.descendants(matching: .scrollView) }
}

/// A lazy set of elements (XCUIElementQuery): nothing is fetched until asked.
public struct Elements: Sendable, ElementContainer {
    public let device: DeviceClient
    public let query: ElementQuery

    public init(device: DeviceClient, query: ElementQuery) {
        self.device = device
        self.query = query
    }

    public var elementScope: Elements { self }

    /// The element whose identifier, else label, is `key`.
    public subscript(key: String) -> Element { Element(device: device, query: query.refined { $0.key = key }) }

    public func element(boundBy index: Int) -> Element { Element(device: device, query: query.refined { $0.index = index }) }
    public var firstMatch: Element { element(boundBy: 0) }

    public func matching(identifier: String) -> Elements { refined { $0.identifier = identifier } }
    public func containing(label fragment: String) -> Elements { refined { $0.labelContains = fragment } }

    public func children(matching type: ElementType = .any) -> Elements { Elements(device: device, query: query.children(type: type)) }

    public var count: Int { get async throws { try await device.elements(query).count } }
    public var all: [ElementSnapshot] { get async throws { try await device.elements(query) } }

    private func refined(_ change: (inout ElementQuery.Step) -> Void) -> Elements {
        Elements(device: device, query: query.refined(change))
    }
}

/// One element, found afresh on every call (XCUIElement).
public struct Element: Sendable, CustomStringConvertible, ElementContainer {
    public let device: DeviceClient
    public let query: ElementQuery

    public init(device: DeviceClient, query: ElementQuery) {
        self.device = device
        self.query = query
    }

    public var description: String { query.description }
    public var elementScope: Elements { Elements(device: device, query: query) }

    /// Whether it is in the app's element tree (on screen or not, as in XCUITest).
    public var exists: Bool { get async throws { try await !device.elements(query).isEmpty } }
    public var snapshot: ElementSnapshot { get async throws { try await device.element(query) } }
    public var label: String { get async throws { try await snapshot.label } }
    public var value: String? { get async throws { try await snapshot.value } }
    public var identifier: String { get async throws { try await snapshot.identifier } }
    public var elementType: ElementType { get async throws { try await snapshot.type } }
    public var frame: Rect { get async throws { try await snapshot.frame } }
    public var isHittable: Bool { get async throws { try await device.elements(query).first?.isHittable ?? false } }

    /// Taps the element's centre (the first hittable match), then waits until the app is idle.
    /// - Throws: `DeviceClient.Failure` when nothing matches (the message says what the screen
    ///   shows instead) or the element is covered or off screen.
    public func tap(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) async throws {
        _ = try await device.at(CallSite(fileID: fileID, filePath: filePath, line: line, column: column)).perform(
            .tap(DeviceAction.Tap(.element(query))))
    }

    /// Two taps in quick succession.
    /// - Throws: `DeviceClient.Failure` as `tap()` does.
    public func doubleTap(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) async throws {
        _ = try await device.at(CallSite(fileID: fileID, filePath: filePath, line: line, column: column)).perform(
            .tap(DeviceAction.Tap(.element(query), count: 2)))
    }

    /// Holds a finger on the element for `duration` (a long press, at most a minute).
    /// - Throws: `DeviceClient.Failure` as `tap()` does, or for a duration out of range.
    public func press(
        forDuration duration: Duration, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async throws {
        _ = try await device.at(CallSite(fileID: fileID, filePath: filePath, line: line, column: column)).perform(
            .tap(DeviceAction.Tap(.element(query), hold: duration)))
    }

    /// Taps the element to focus it, then types `text` on the software keyboard key by key.
    /// - Parameters:
    ///   - text: at most 1000 characters.
    ///   - keyDelay: time between keys; `jitter`: up to this much more at random (seeded).
    /// - Throws: `DeviceClient.Failure` when the element cannot be tapped or a character has no key.
    public func typeText(
        _ text: String, keyDelay: Duration = .zero, jitter: Duration = .zero, fileID: String = #fileID, filePath: String = #filePath,
        line: Int = #line, column: Int = #column
    ) async throws {
        _ = try await device.at(CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
            .perform(.typeText(DeviceAction.TypeText(text, into: query, keyDelay: keyDelay, jitter: jitter)))
    }

    /// Swipes from the element's centre upwards (content scrolls up), as XCUITest's `swipeUp()`.
    public func swipeUp(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) async throws {
        try await swipe(.up, CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    public func swipeDown(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) async throws {
        try await swipe(.down, CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    public func swipeLeft(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) async throws {
        try await swipe(.left, CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    public func swipeRight(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column) async throws {
        try await swipe(.right, CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    private func swipe(_ direction: DeviceAction.Direction, _ callSite: CallSite) async throws {
        _ = try await device.at(callSite).perform(.swipe(DeviceAction.Swipe(.element(query, direction))))
    }

    /// Waits on the device clock until the element is on screen (one still sliding in, mid-push,
    /// is not there yet).
    /// - Parameter timeout: the most device time to wait (at most an hour).
    /// - Returns: true if it appeared in time.
    public func waitForExistence(
        timeout: Duration, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async throws -> Bool {
        try await device.at(CallSite(fileID: fileID, filePath: filePath, line: line, column: column)).performWait(
            .waitFor(DeviceAction.WaitFor(query, timeout: timeout))
        ).matched
    }

    /// Waits on the device clock until the element is on screen and can be tapped.
    /// - Returns: true if it became hittable in time.
    public func waitForHittable(
        timeout: Duration, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async throws -> Bool {
        try await device.at(CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
            .performWait(.waitFor(DeviceAction.WaitFor(query, hittable: true, timeout: timeout))).matched
    }

    /// Waits on the device clock until no element matches on screen.
    /// - Returns: true if it went in time.
    public func waitForNonExistence(
        timeout: Duration, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
    ) async throws -> Bool {
        try await device.at(CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
            .performWait(.waitFor(DeviceAction.WaitFor(query, exists: false, timeout: timeout))).matched
    }

    public var children: Elements { Elements(device: device, query: query.children()) }
}
