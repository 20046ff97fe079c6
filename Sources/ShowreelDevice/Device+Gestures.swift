import ShowreelAccessibility
import ShowreelRender
import ShowreelUI
import ShowreelWire

extension Device {
    /// A swipe on an element, in from a screen edge, or between two points. The finger moves
    /// in steps on the device clock, so the recording shows the drag and any scrolling it causes.
    package func swipe(_ swipe: DeviceAction.Swipe) async throws {
        try ensureRunning()
        let query: ElementQuery? = if case let .element(query, _) = swipe.path { query } else { nil }
        try await traced("swipe \(Self.describe(swipe.path))", query: query) {
            let (from, to) = try path(of: swipe.path)
            try await dragUntraced(from: from, to: to, duration: swipe.duration)
        }
    }

    /// Scrolls the content `direction` into view: the finger drags the other way, from a little
    /// past the screen's centre to a little before it.
    package func scroll(_ direction: DeviceAction.Direction) async throws {
        try ensureRunning()
        try await traced("scroll \(direction.rawValue)") {
            let centre = scene.bounds.center
            let fraction = DeviceAction.Defaults.scrollFraction
            try await dragUntraced(
                from: offset(centre, direction, by: fraction), to: offset(centre, direction.opposite, by: fraction),
                duration: DeviceAction.Defaults.scrollDuration)
        }
    }

    private static func describe(_ path: DeviceAction.Swipe.Path) -> String {
        switch path {
        case let .element(query, direction): "\(direction.rawValue) on \(query)"
        case let .edge(edge): "in from the \(edge.rawValue) edge"
        case let .from(point, direction): "\(direction.rawValue) from (\(Int(point.x)), \(Int(point.y)))"
        case let .points(from, to): "from (\(Int(from.x)), \(Int(from.y))) to (\(Int(to.x)), \(Int(to.y)))"
        }
    }

    /// `point` moved `fraction` of the screen towards `direction`, kept a point inside it.
    private func offset(_ point: Point, _ direction: DeviceAction.Direction, by fraction: Double) -> Point {
        let screen = scene.bounds
        switch direction {
        case .up: return Point(x: point.x, y: max(1, point.y - screen.height * fraction))
        case .down: return Point(x: point.x, y: min(screen.height - 1, point.y + screen.height * fraction))
        case .left: return Point(x: max(1, point.x - screen.width * fraction), y: point.y)
        case .right: return Point(x: min(screen.width - 1, point.x + screen.width * fraction), y: point.y)
        }
    }

    /// Finger down at `from`, moved to `to` over `duration`, then lifted.
    package func drag(from: Point, to: Point, duration: Duration = DeviceAction.Defaults.swipeDuration) async throws {
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
    package func shake() async throws {
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
    package func keyCommand(_ command: DeviceAction.KeyCommand) async throws {
        try ensureRunning()
        let shortcut = (command.modifiers.names + [command.key]).joined(separator: "+")
        guard let input = KeyInput(parsing: shortcut) else {
            throw DeviceError.invalidRequest("Unknown key command \(shortcut): modifiers are command, shift, option, control.")
        }
        try await traced("key command \(shortcut)") {
            syncSceneTime()
            _ = scene.keyCommand(input)
            renderIfNeeded()
            startDisplayLinkIfNeeded()
            try await settle()
        }
    }

    private func path(of path: DeviceAction.Swipe.Path) throws -> (Point, Point) {
        let screen = scene.bounds
        switch path {
        case let .points(from, to): return (from, to)
        case let .from(point, direction): return (point, offset(point, direction, by: DeviceAction.Defaults.swipeFraction))
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
