import ShowreelAccessibility
import ShowreelRender
import ShowreelUI
import ShowreelWire

extension Device {
    /// Where a swipe goes.
    public enum Swipe: Sendable, Equatable {
        /// From an element's centre towards a direction, as XCUITest's `swipeUp()` and friends.
        case element(ElementQuery, AutomationAPI.Direction)
        /// In from a screen edge (the back swipe, the debug window's edge swipe).
        case edge(AutomationAPI.Edge)
        /// Between two points: a drag.
        case points(from: Point, to: Point)
    }

    /// A swipe on an element, in from a screen edge, or between two points. The finger moves
    /// in steps on the device clock, so the recording shows the drag and any scrolling it causes.
    public func swipe(_ swipe: Swipe, duration: Duration = .milliseconds(300)) async throws {
        try ensureRunning()
        let query: ElementQuery? = if case let .element(query, _) = swipe { query } else { nil }
        try await traced("swipe \(Self.describe(swipe))", query: query) {
            let (from, to) = try path(of: swipe)
            try await drag(from: from, to: to, duration: duration)
        }
    }

    private static func describe(_ swipe: Swipe) -> String {
        switch swipe {
        case let .element(query, direction): "\(direction.rawValue) on \(query)"
        case let .edge(edge): "in from the \(edge.rawValue) edge"
        case let .points(from, to): "from (\(Int(from.x)), \(Int(from.y))) to (\(Int(to.x)), \(Int(to.y)))"
        }
    }

    /// Finger down at `from`, moved to `to` over `duration`, then lifted.
    public func drag(from: Point, to: Point, duration: Duration = .milliseconds(300)) async throws {
        try await traced("drag from (\(Int(from.x)), \(Int(from.y))) to (\(Int(to.x)), \(Int(to.y)))", point: from) {
            try await dragUntraced(from: from, to: to, duration: duration)
        }
    }

    private func dragUntraced(from: Point, to: Point, duration: Duration) async throws {
        try ensureRunning()
        syncSceneTime()
        scene.touchDown(at: from)
        renderIfNeeded()
        let steps = max(2, Int((duration / Self.frameInterval).rounded(.up)))
        for step in 1...steps {
            try await advance(by: duration / steps)
            let t = Double(step) / Double(steps)
            scene.touchMoved(to: Point(x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t))
            renderIfNeeded()
        }
        _ = scene.touchUp(at: to)
        renderIfNeeded()
        startDisplayLinkIfNeeded()
        try await settle()
    }

    /// Shakes the device (the debug window opens on shake when no text field has focus).
    public func shake() async throws {
        try ensureRunning()
        try await traced("shake") {
            syncSceneTime()
            _ = scene.shake()
            renderIfNeeded()
            startDisplayLinkIfNeeded()
            try await settle()
        }
    }

    /// A hardware-keyboard shortcut such as Cmd+D.
    public func keyCommand(_ key: String, modifiers: [String]) async throws {
        try ensureRunning()
        guard let input = KeyInput(parsing: (modifiers + [key]).joined(separator: "+")) else {
            throw DeviceError.invalidRequest("Unknown key command \((modifiers + [key]).joined(separator: "+")): modifiers are command, shift, option, control.")
        }
        try await traced("key command \((modifiers + [key]).joined(separator: "+"))") {
            syncSceneTime()
            _ = scene.keyCommand(input)
            renderIfNeeded()
            startDisplayLinkIfNeeded()
            try await settle()
        }
    }

    private func path(of swipe: Swipe) throws -> (Point, Point) {
        let screen = scene.bounds
        switch swipe {
        case let .points(from, to): return (from, to)
        case let .edge(edge):
            let y = screen.midY, x = screen.midX
            switch edge {
            case .right: return (Point(x: screen.maxX - 2, y: y), Point(x: screen.width * 0.35, y: y))
            case .left: return (Point(x: 2, y: y), Point(x: screen.width * 0.65, y: y))
            case .top: return (Point(x: x, y: 2), Point(x: x, y: screen.height * 0.5))
            case .bottom: return (Point(x: x, y: screen.maxY - 2), Point(x: x, y: screen.height * 0.5))
            }
        case let .element(query, direction):
            let element = try element(query)
            // As XCUITest does: from the element's centre, half its size (at least 100 pt) that way,
            // kept on screen.
            let c = element.frame.center
            let dx = max(element.frame.width / 2, 100), dy = max(element.frame.height / 2, 100)
            let end: Point
            switch direction {
            case .up: end = Point(x: c.x, y: max(c.y - dy, 1))
            case .down: end = Point(x: c.x, y: min(c.y + dy, screen.maxY - 1))
            case .left: end = Point(x: max(c.x - dx, 1), y: c.y)
            case .right: end = Point(x: min(c.x + dx, screen.maxX - 1), y: c.y)
            }
            return (c, end)
        }
    }
}
