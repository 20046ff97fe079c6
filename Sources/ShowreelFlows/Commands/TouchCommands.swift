import Foundation
import Logging
import ShowreelAccessibility
import ShowreelDevice
import ShowreelGraphics
import ShowreelRender
import ShowreelScript
import ShowreelUI
import ShowreelWire
import Yams

/// `tapOn`, `doubleTapOn`, `longPressOn`: as Maestro does, a tap on an element waits (up to
/// 5 s) for it to be there, then taps its centre.
struct TapCommand: FlowCommand {
    var target: FlowStep.Target
    var count = 1
    var hold: Duration?

    static let grammar = CommandGrammar(
        names: ["tapOn", "doubleTapOn", "longPressOn"], example: "tapOn: \"Canada\" or tapOn: {id: countryName}"
    ) { parser, input in
        let step = input.name
        // Maestro's tuning of its own driver's taps; a Showreel tap lands once, where it is aimed.
        let tuning = ["retryTapIfNoChange", "waitToSettleTimeoutMs"]
        let extra = (step == "longPressOn" ? ["duration"] : step == "tapOn" ? ["repeat", "delay"] : []) + tuning
        guard let (target, fields) = parser.target(input.value, step: step, extra: extra) else { return nil }
        var command = TapCommand(target: target, count: step == "doubleTapOn" ? 2 : 1, hold: step == "longPressOn" ? .seconds(1) : nil)
        if let value = fields["repeat"] {
            guard let times = parser.int(value, field: "repeat", in: 1...100) else { return nil }
            command.count = times
        }
        if let value = fields["duration"] {
            guard let time = parser.duration(value, field: "duration") else { return nil }
            command.hold = time
        }
        for key in tuning { if let value = fields[key] { _ = parser.string(value, field: key) } }
        return command
    }

    var summary: String {
        hold != nil
            ? "Long-press \(FlowStep.quoted(target))"
            : count == 2 ? "Double-tap \(FlowStep.quoted(target))" : "Tap \(FlowStep.quoted(target))"
    }

    func run(in execution: FlowExecution) async throws {
        let target = try execution.resolve(target)
        if case let .element(spec) = target, !(try await execution.wait(for: spec, present: true, timeout: .seconds(5))) {
            _ = try await execution.element(spec)  // throws with what the screen shows instead
        }
        let touch = try await execution.touchTarget(target)
        try await execution.act(.tap(DeviceAction.Tap(touch, count: count, hold: hold ?? DeviceAction.Defaults.tapHold)))
    }
}

/// `swipe`: a direction from the screen's centre (or `from` a target), an `edge`, or from a
/// point to another (`from`/`to`, or Maestro's `start`/`end`).
struct SwipeCommand: FlowCommand {
    var swipe: FlowStep.Swipe

    static let grammar = CommandGrammar(names: ["swipe"], example: "swipe: left or swipe: {edge: right}") { parser, input in
        let node = input.value
        if case .scalar = node {
            let direction: FlowStep.Direction? = parser.choice(node, field: "swipe")
            return direction.map { SwipeCommand(swipe: FlowStep.Swipe(direction: $0, duration: DeviceAction.Defaults.swipeDuration)) }
        }
        let keys = ["direction", "from", "to", "start", "end", "edge", "duration"]
        guard let fields = parser.mapping(node, field: "swipe", allowed: keys) else { return nil }
        var swipe = FlowStep.Swipe(duration: DeviceAction.Defaults.swipeDuration)
        if let value = fields["direction"] { swipe.direction = parser.choice(value, field: "direction") ?? swipe.direction }
        if let value = fields["edge"] { swipe.edge = parser.choice(value, field: "edge") }
        if let value = fields["from"] { swipe.from = parser.target(value, step: "from")?.0 }
        if let value = fields["to"] { swipe.to = parser.target(value, step: "to")?.0 }
        if let value = fields["start"], let (x, y) = parser.point(value, field: "start") { swipe.from = .point(x: x, y: y) }
        if let value = fields["end"], let (x, y) = parser.point(value, field: "end") { swipe.to = .point(x: x, y: y) }
        if let value = fields["duration"], let time = parser.sharedTime(value, field: "duration") {
            // A swipe lasts a moment.
            guard time <= .seconds(10) else {
                parser.fail(parser.location(value), "a swipe's 'duration' is at most 10 s (10000 ms), got \(FileParser.kind(of: value))")
                return nil
            }
            swipe.duration = time
        }
        let shapes = [
            swipe.edge != nil && swipe.from == nil && swipe.to == nil && swipe.direction == nil,
            swipe.direction != nil && swipe.edge == nil && swipe.to == nil,
            swipe.from != nil && swipe.to != nil && swipe.edge == nil && swipe.direction == nil,
        ]
        guard shapes.contains(true) else {
            parser.fail(
                parser.location(node),
                "a swipe takes 'direction' (with an optional 'from' element or point), 'edge', or 'from' and 'to'")
            return nil
        }
        return SwipeCommand(swipe: swipe)
    }

    var summary: String {
        if let edge = swipe.edge { return "Swipe in from the \(edge.rawValue) edge" }
        if let direction = swipe.direction { return "Swipe \(direction.rawValue)" }
        return "Swipe"
    }

    func run(in execution: FlowExecution) async throws {
        var swipe = swipe
        swipe.from = try swipe.from.map(execution.resolve)
        swipe.to = try swipe.to.map(execution.resolve)
        try await execution.act(.swipe(DeviceAction.Swipe(try await execution.path(of: swipe), duration: swipe.duration)))
    }
}

/// `scroll`: drags the content to reveal more in a direction (down unless told).
struct ScrollCommand: FlowCommand {
    var direction: FlowStep.Direction

    static let grammar = CommandGrammar(names: ["scroll"], bare: true, example: "scroll: {direction: up}") { parser, input in
        guard let argument = input.argument else { return ScrollCommand(direction: .down) }
        guard let fields = parser.mapping(argument, field: input.name, allowed: ["direction"]) else { return nil }
        guard let node = fields["direction"] else { return ScrollCommand(direction: .down) }
        return (parser.choice(node, field: "direction") as FlowStep.Direction?).map(ScrollCommand.init)
    }

    var summary: String { "Scroll \(direction.rawValue)" }

    func run(in execution: FlowExecution) async throws { try await execution.act(.scroll(direction)) }
}

/// `scrollUntilVisible`: scrolls until the element is on screen and hittable (the target as
/// the value, or Maestro's `element:`).
struct ScrollUntilVisibleCommand: FlowCommand {
    var target: FlowStep.Target
    var direction: FlowStep.Direction
    var timeout: Duration

    static let grammar = CommandGrammar(
        names: ["scrollUntilVisible"], example: "scrollUntilVisible: \"Canada\" or scrollUntilVisible: {element: {id: countryName}}"
    ) { parser, input in
        let extra = ["direction", "timeout", "element", "speed", "visibilityPercentage", "centerElement"]
        var node = input.value
        var fields: [String: Node] = [:]
        if case .mapping = node, let all = parser.mapping(node, field: input.name, allowed: FileParser.targetKeys + extra),
            let element = all["element"]
        {
            fields = all
            node = element
        }
        guard let (target, own) = parser.target(node, step: input.name, extra: fields.isEmpty ? extra : []) else { return nil }
        if fields.isEmpty { fields = own }
        let direction: FlowStep.Direction? = fields["direction"].map { parser.choice($0, field: "direction") } ?? .down
        let timeout = fields["timeout"].map { parser.sharedTime($0, field: "timeout") } ?? .seconds(20)
        for key in ["speed", "visibilityPercentage"] { if let value = fields[key] { _ = parser.int(value, field: key, in: 0...100) } }
        if let value = fields["centerElement"] { _ = parser.bool(value, field: "centerElement") }
        guard let direction, let timeout else { return nil }
        return ScrollUntilVisibleCommand(target: target, direction: direction, timeout: timeout)
    }

    var summary: String { "Scroll to \(FlowStep.quoted(target))" }

    func run(in execution: FlowExecution) async throws {
        let spec = try FlowExecution.spec(try execution.resolve(target))
        let deadline = execution.device.clock.now + timeout
        let screen = await execution.device.screenPointSize
        while true {
            if let element = await execution.elements(spec).first, element.isHittable,
                element.frame.minY >= 0, element.frame.maxY <= screen.height
            {
                return
            }
            guard execution.device.clock.now < deadline else {
                throw StepFailure(
                    message:
                        "\(FlowExecution.query(spec)) did not come into view after scrolling \(direction.rawValue) for \(timeout.seconds.formatted()) s"
                )
            }
            try await execution.act(.scroll(direction))
        }
    }
}

/// `back`: taps the navigation bar's back button.
struct BackCommand: FlowCommand {
    static let grammar = CommandGrammar(names: ["back"], bare: true, example: "back") { _, _ in BackCommand() }

    var summary: String { "Go back" }

    func run(in execution: FlowExecution) async throws {
        let back = ElementQuery.button("BackButton")
        guard await !execution.device.elements(back).isEmpty else {
            throw StepFailure(message: "there is no back button on this screen")
        }
        try await execution.act(.tap(DeviceAction.Tap(.element(back))))
    }
}

/// `shake`: the device's shake gesture.
struct ShakeCommand: FlowCommand {
    static let grammar = CommandGrammar(names: ["shake"], bare: true, example: "shake") { _, _ in ShakeCommand() }

    var summary: String { "Shake the device" }

    func run(in execution: FlowExecution) async throws { try await execution.act(.shake) }
}

/// `keyCommand: cmd+d`: a hardware keyboard shortcut.
struct KeyCommandCommand: FlowCommand {
    var command: DeviceAction.KeyCommand

    static let grammar = CommandGrammar(names: ["keyCommand"], example: "keyCommand: cmd+d") { parser, input in
        let node = input.value
        guard let text = parser.string(node, field: "keyCommand") else { return nil }
        guard let key = KeyInput(parsing: text) else {
            parser.fail(
                parser.location(node),
                "'\(text)' is not a key command: write modifiers and a key joined by '+', e.g. cmd+d (modifiers: cmd, shift, alt, ctrl)")
            return nil
        }
        let names = key.description.split(separator: "+").dropLast().map(String.init)
        return KeyCommandCommand(command: DeviceAction.KeyCommand(key.key, modifiers: KeyModifiers(names: names) ?? []))
    }

    var summary: String { "Press \((command.modifiers.names + [command.key]).joined(separator: "+"))" }

    func run(in execution: FlowExecution) async throws { try await execution.act(.keyCommand(command)) }
}
