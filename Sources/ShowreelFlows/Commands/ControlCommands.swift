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

/// `runFlow`: another flow file (relative to this one), or inline `commands`, with `env` as
/// globals while it runs, when its `when` holds (skipped otherwise). `output` is shared.
struct RunFlowCommand: FlowCommand {
    var flow: Flow
    var environment: [String: String] = [:]
    var condition: FlowCondition?

    static let grammar = CommandGrammar(names: ["runFlow"], example: "runFlow: login.yaml") { parser, input in
        parser.runFlow(input.value)
    }

    var summary: String { flow.name }
    var nestedSteps: [FlowStep] { flow.steps }

    func run(in execution: FlowExecution) async throws {
        if let condition, try await !condition.holds(in: execution) { return }
        // The sub-flow's header env, then the step's over it.
        execution.scripts.enterScope(try flow.environment.merging(environment) { $1 }.mapValues(execution.resolve))
        defer { execution.scripts.leaveScope() }
        try await execution.run(flow.onFlowStart)
        do { try await execution.run(flow.steps) } catch {
            try? await execution.run(flow.onFlowComplete)
            throw error
        }
        try await execution.run(flow.onFlowComplete)
    }
}

/// `repeat`: `commands` `times` times, and/or while `while` holds (checked before each round;
/// a `while` alone stops with an error after `FlowLimits.whileTimes` rounds).
struct RepeatCommand: FlowCommand {
    var times: Int?
    /// `times` as an expression, counted when the step runs.
    var timesScript: String?
    var condition: FlowCondition?
    var steps: [FlowStep]

    static let grammar = CommandGrammar(names: ["repeat"], example: "repeat: {times: 3, commands: [back]}") { parser, input in
        let node = input.value
        guard let fields = parser.mapping(node, field: "repeat", allowed: ["times", "while", "commands"]) else { return nil }
        guard fields["times"] != nil || fields["while"] != nil, let commands = fields["commands"] else {
            parser.fail(parser.location(node), "repeat needs 'times' (a number) and 'commands' (a list of steps)")
            return nil
        }
        var times: Int?
        var timesScript: String?
        if let value = fields["times"] {
            // `times: ${output.rounds}` is counted when the step runs (and checked against the limit then).
            if let text = value.scalar?.string, text.contains("${") {
                timesScript = text
            } else {
                guard let count = parser.int(value, field: "times", in: FlowLimits.repeatTimes) else { return nil }
                times = count
            }
        }
        let condition = fields["while"].map { parser.condition($0, field: "while") }
        guard let steps = parser.nested(node, step: "repeat", { parser.steps(commands, field: "commands") }), condition != .some(nil) else {
            return nil
        }
        return RepeatCommand(times: times, timesScript: timesScript, condition: condition ?? nil, steps: steps)
    }

    var summary: String {
        times.map { "Repeat \($0) times" } ?? timesScript.map { "Repeat \($0) times" } ?? "Repeat while \(condition?.description ?? "")"
    }
    var nestedSteps: [FlowStep] { steps }
    var repetitions: Int { times ?? 1 }

    func run(in execution: FlowExecution) async throws {
        var times = times
        if let timesScript {
            let text = try execution.resolve(timesScript)
            guard let number = Double(text.trimmingCharacters(in: .whitespaces)), number.rounded() == number,
                FlowLimits.repeatTimes.contains(Int(exactly: number) ?? 0)
            else {
                throw StepFailure(
                    message:
                        "repeat: 'times' (\(timesScript)) must be a whole number from \(FlowLimits.repeatTimes.lowerBound) to \(FlowLimits.repeatTimes.upperBound), got '\(text)'"
                )
            }
            times = Int(number)
        }
        var round = 0
        while times.map({ round < $0 }) ?? true {
            if let condition, try await !condition.holds(in: execution) { return }
            guard round < FlowLimits.whileTimes else {
                throw StepFailure(
                    message:
                        "repeat: the while condition (\(condition?.description ?? "")) still holds after \(FlowLimits.whileTimes) rounds, the limit: make it turn false, or give 'times'"
                )
            }
            try await execution.run(steps)
            round += 1
        }
    }
}

/// `retry`: runs `commands` (or a `file`) again when a step fails, up to `maxRetries` more
/// times (default 1, at most 3); the last attempt's failure is the step's.
struct RetryCommand: FlowCommand {
    var maxRetries = 1
    var steps: [FlowStep]

    static let grammar = CommandGrammar(names: ["retry"], example: "retry: {maxRetries: 3, commands: [{tapOn: Next}]}") { parser, input in
        let node = input.value
        guard let fields = parser.mapping(node, field: "retry", allowed: ["maxRetries", "commands", "file", "env"]) else { return nil }
        var command = RetryCommand(steps: [])
        if let value = fields["maxRetries"] {
            guard let count = parser.int(value, field: "maxRetries", in: 0...FlowLimits.maximumRetries) else { return nil }
            command.maxRetries = count
        }
        if let commands = fields["commands"] {
            guard let steps = parser.nested(node, step: "retry", { parser.steps(commands, field: "commands") }) else { return nil }
            command.steps = steps
        } else if fields["file"] != nil {
            guard let flow = parser.runFlow(node) else { return nil }
            command.steps = [FlowStep(location: input.at, command: flow, title: "runFlow: \(flow.flow.id)")]
        } else {
            parser.fail(parser.location(node), "retry needs 'commands' (a list of steps) or 'file'")
            return nil
        }
        return command
    }

    var summary: String { "Retry up to \(maxRetries) times" }
    var nestedSteps: [FlowStep] { steps }
    var repetitions: Int { maxRetries + 1 }

    func run(in execution: FlowExecution) async throws {
        for attempt in 0...maxRetries {
            guard let failure = try await execution.attempt(steps) else { return }
            if attempt == maxRetries {
                throw StepFailure(message: "failed \(maxRetries + 1) times; the last time: \(failure)")
            }
            execution.options.logger.info("retry: attempt \(attempt + 1) failed (\(failure)); trying again")
        }
    }
}

extension FileParser {
    /// Steps one level deeper in `repeat`, `retry` and `runFlow` (nesting is bounded).
    func nested<T>(_ node: Node, step: String, _ body: () -> T) -> T? {
        guard withinNesting(node, step: step) else { return nil }
        nesting += 1
        defer { nesting -= 1 }
        return body()
    }

    /// `runFlow: file.yaml`, or `{file | commands, env, when}`: the file is parsed in turn (a
    /// file already on the way here is a cycle).
    func runFlow(_ node: Node) -> RunFlowCommand? {
        var fileNode = node
        var command: RunFlowCommand?
        var environment: [String: String] = [:]
        var condition: FlowCondition?
        if case .mapping = node {
            guard let fields = mapping(node, field: "runFlow", allowed: ["file", "commands", "env", "when"]) else { return nil }
            if let value = fields["env"] { environment = self.environment(value, field: "env") ?? [:] }
            if let value = fields["when"] {
                guard let parsed = self.condition(value, field: "when") else { return nil }
                condition = parsed
            }
            guard (fields["file"] == nil) != (fields["commands"] == nil) else {
                fail(location(node), "missing field 'file' in runFlow (or 'commands', a list of steps; one of the two)")
                return nil
            }
            if let commands = fields["commands"] {
                guard let steps = nested(node, step: "runFlow", { self.steps(commands, field: "commands") }) else { return nil }
                let flow = Flow(
                    id: id, url: url, name: "runFlow", appId: nil, arguments: [], environment: [:], device: Flow.DeviceSettings(), tags: [],
                    steps: steps)
                return RunFlowCommand(flow: flow, environment: environment, condition: condition)
            }
            fileNode = fields["file"]!
        }
        guard let path = string(fileNode, field: "runFlow") else { return nil }
        let target = URL(fileURLWithPath: path, relativeTo: url.deletingLastPathComponent()).standardizedFileURL
        let targetID = Self.relativeID(path, from: id)
        guard FileManager.default.fileExists(atPath: target.path) else {
            let siblings = (try? FileManager.default.contentsOfDirectory(atPath: target.deletingLastPathComponent().path)) ?? []
            fail(
                location(fileNode),
                "runFlow: no file '\(targetID)'\(Spelling.hint(for: target.lastPathComponent, in: siblings.filter(FlowDiscovery.isFlowFile)))"
            )
            return nil
        }
        if let first = chain.firstIndex(of: target) {
            let names = (chain[first...] + [target]).map(\.lastPathComponent).joined(separator: " -> ")
            fail(location(fileNode), "runFlow cycle: \(names)")
            return nil
        }
        guard withinNesting(fileNode, step: "runFlow") else { return nil }
        var nestedProblems: [FlowDiagnostic] = []
        let flow = parser.parse(
            target, id: targetID, chain: chain, problems: &nestedProblems, requiresApp: false, budget: budget,
            nesting: nesting + 1)
        problems += nestedProblems
        command = flow.map { RunFlowCommand(flow: $0, environment: environment, condition: condition) }
        return command
    }
}
