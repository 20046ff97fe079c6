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

/// `assertVisible`, `assertNotVisible`, `waitFor`: the element is there (or not) within the
/// timeout (2 s for the asserts, 10 s for waitFor).
struct AssertVisibleCommand: FlowCommand {
    var target: FlowStep.Target
    var present: Bool
    var timeout: Duration
    var isWait = false

    static let grammar = CommandGrammar(
        names: ["assertVisible", "assertNotVisible", "waitFor"], example: "assertVisible: \"Canada\" or assertVisible: {id: countryName}"
    ) { parser, input in
        guard let (target, fields) = parser.target(input.value, step: input.name, extra: ["timeout"]) else { return nil }
        let fallback: Duration = input.name == "waitFor" ? .seconds(10) : .seconds(2)
        guard let timeout = fields["timeout"].map({ parser.duration($0, field: "timeout") }) ?? fallback else { return nil }
        return AssertVisibleCommand(
            target: target, present: input.name != "assertNotVisible", timeout: timeout, isWait: input.name == "waitFor")
    }

    var summary: String {
        isWait
            ? "Wait for \(FlowStep.quoted(target))"
            : present ? "\(FlowStep.quoted(target)) is visible" : "\(FlowStep.quoted(target)) is not visible"
    }

    func run(in execution: FlowExecution) async throws {
        let spec = try FlowExecution.spec(try execution.resolve(target))
        if try await execution.wait(for: spec, present: present, timeout: timeout) { return }
        if present {
            _ = try await execution.element(spec)  // throws with what the screen shows instead
        } else {
            throw StepFailure(message: "\(FlowExecution.query(spec)) is still visible after \(timeout.seconds.formatted()) s")
        }
    }
}

/// `extendedWaitUntil: {visible | notVisible: selector, timeout: ms}` (Maestro's timeout is in
/// milliseconds; "2s" says seconds).
struct ExtendedWaitUntilCommand: FlowCommand {
    var wait: AssertVisibleCommand

    static let grammar = CommandGrammar(
        names: ["extendedWaitUntil"], example: "extendedWaitUntil: {visible: \"Canada\", timeout: 10000}"
    ) { parser, input in
        guard let fields = parser.mapping(input.value, field: input.name, allowed: ["visible", "notVisible", "timeout"]) else { return nil }
        guard (fields["visible"] == nil) != (fields["notVisible"] == nil), let node = fields["visible"] ?? fields["notVisible"] else {
            parser.fail(parser.location(input.value), "extendedWaitUntil takes one of 'visible' or 'notVisible', a selector")
            return nil
        }
        let timeout = fields["timeout"].map { parser.milliseconds($0, field: "timeout") } ?? .seconds(10)
        guard let (target, _) = parser.target(node, step: fields["visible"] != nil ? "visible" : "notVisible"), let timeout else {
            return nil
        }
        return ExtendedWaitUntilCommand(
            wait: AssertVisibleCommand(target: target, present: fields["visible"] != nil, timeout: timeout, isWait: true))
    }

    var summary: String { wait.summary }

    func run(in execution: FlowExecution) async throws { try await wait.run(in: execution) }
}

/// `assertTrue: ${...}` (or `{condition: ...}`): the value is true as Maestro reads it (not
/// blank, false, undefined, null or 0).
struct AssertTrueCommand: FlowCommand {
    var condition: String

    static let grammar = CommandGrammar(names: ["assertTrue"], example: "assertTrue: ${output.count > 2}") { parser, input in
        guard let node = parser.shorthand(input.value, step: input.name, field: "condition") else { return nil }
        return parser.string(node, field: "assertTrue").map(AssertTrueCommand.init)
    }

    var summary: String { "Check \(condition)" }

    func run(in execution: FlowExecution) async throws {
        let value = try execution.resolve(condition)
        guard FlowExecution.isTrue(value) else { throw StepFailure(message: "\(condition) is not true (it is '\(value)')") }
    }
}

/// `wait: 1.5`: lets device time pass.
struct WaitCommand: FlowCommand {
    var duration: Duration

    static let grammar = CommandGrammar(names: ["wait"], example: "wait: 1.5") { parser, input in
        parser.duration(input.value, field: input.name).map(WaitCommand.init)
    }

    var summary: String { "Wait \(duration.seconds.formatted()) s" }

    func run(in execution: FlowExecution) async throws { try await execution.act(.wait(duration)) }
}

/// `waitForAnimationToEnd` (`timeout` in ms): the device settles after every action already,
/// so this waits for what is still moving, at most the timeout (default 15 s), in 100 ms looks.
struct WaitForAnimationToEndCommand: FlowCommand {
    var timeout: Duration = .seconds(15)

    static let grammar = CommandGrammar(names: ["waitForAnimationToEnd"], bare: true, example: "waitForAnimationToEnd: {timeout: 5000}") {
        parser, input in
        guard let node = input.argument else { return WaitForAnimationToEndCommand() }
        guard let fields = parser.mapping(node, field: input.name, allowed: ["timeout"]) else { return nil }
        return fields["timeout"].map { parser.milliseconds($0, field: "timeout").map(WaitForAnimationToEndCommand.init) }
            ?? WaitForAnimationToEndCommand()
    }

    var summary: String { "Wait for animations to end" }

    func run(in execution: FlowExecution) async throws {
        let device = execution.device
        let deadline = device.clock.now + timeout
        var last = await device.screenshot()
        while device.clock.now < deadline {
            try await execution.act(.wait(.milliseconds(100)))
            let next = await device.screenshot()
            if next.hasSamePixels(as: last) { return }
            last = next
        }
    }
}

extension FileParser {
    /// Maestro's milliseconds: a plain number is ms (`10000`); text with a unit (`2s`) says its own.
    /// A time in a field both grammars have (a swipe's `duration`, `scrollUntilVisible`'s
    /// `timeout`): a bare whole number of 100 or more is Maestro's milliseconds (`duration:
    /// 400`, `timeout: 20000`), so Maestro's flows run unchanged; a smaller or fractional one is
    /// seconds, as everywhere else in a flow (`duration: 0.8`); `500ms` and `2s` say their unit.
    func sharedTime(_ node: Node, field: String) -> Duration? {
        if case let .scalar(scalar) = node, let whole = Int(scalar.string.trimmingCharacters(in: .whitespaces)), whole >= 100 {
            return milliseconds(node, field: field)
        }
        return duration(node, field: field)
    }

    func milliseconds(_ node: Node, field: String) -> Duration? {
        if case .scalar = node, let number = node.float {
            guard number.isFinite, number >= 0, number <= FlowLimits.maximumSeconds * 1000 else {
                fail(
                    location(node),
                    "'\(field)' must be milliseconds from 0 to \(Int(FlowLimits.maximumSeconds * 1000)), got \(Self.kind(of: node))")
                return nil
            }
            return .milliseconds(Int64(number.rounded()))
        }
        return duration(node, field: field)
    }
}
