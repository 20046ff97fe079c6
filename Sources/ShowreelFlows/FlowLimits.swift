import ShowreelWire
import Yams

/// How big a flow may be, defined once: the parser enforces these before anything runs
/// (`showreel run --check` reports them at `file:line:column`) and docs/flows.md lists them.
/// Without them, nested `repeat`s multiply (1000 x 1000 steps), a few YAML aliases expand
/// to billions of nodes, and deep nesting runs the parser out of stack.
package enum FlowLimits {
    /// Steps a flow runs, counted after `repeat` and `runFlow` are expanded.
    package static let maximumSteps = 10_000
    /// `repeat` and `runFlow` inside one another.
    package static let maximumNesting = 16
    /// YAML nodes of a flow's files with aliases expanded (each use counts again), over the
    /// flow and every file it runs.
    package static let maximumYAMLNodes = 100_000
    /// Lists and maps inside one another in one YAML document.
    package static let maximumYAMLDepth = 100
    /// A `repeat`'s `times`.
    package static let repeatTimes = 1...1000
    /// Seconds of CPU one script or `${...}` may run before it is stopped.
    package static let scriptSeconds = 5.0
    /// A `repeat`'s `while` without `times`, and a `retry`'s attempts.
    package static let whileTimes = 1000
    package static let maximumRetries = 3
    /// A `wait`, a timeout or a duration, in seconds: the device's own limit on one wait.
    package static let maximumSeconds = AutomationLimits.maxWaitSeconds
}

/// The YAML nodes one flow's parse may still look at: shared by the files `runFlow` pulls in,
/// so neither aliases nor the same sub-flow run again and again can make the parse explode.
final class YAMLBudget {
    private(set) var remaining = FlowLimits.maximumYAMLNodes

    /// Walks `root` as the parser will, aliases expanded, without recursion; nil when it fits
    /// the budget (which it then uses up), else the node where it stopped fitting and why (a nil
    /// problem: the budget ran out before, and that was said once already).
    func charge(_ root: Node) -> (node: Node, problem: String?)? {
        guard remaining >= 0 else { return (root, nil) }
        var stack: [(node: Node, depth: Int)] = [(root, 1)]
        while let (node, depth) = stack.popLast() {
            remaining -= 1
            if remaining < 0 {
                return (
                    node,
                    "the flow is too big: more than \(FlowLimits.maximumYAMLNodes) YAML values with aliases expanded "
                        + "(over all the files it runs); the limit keeps an alias that repeats an alias from multiplying without end"
                )
            }
            if depth > FlowLimits.maximumYAMLDepth {
                return (node, "lists and maps are nested more than \(FlowLimits.maximumYAMLDepth) deep here")
            }
            switch node {
            case let .sequence(list): stack += list.reversed().map { ($0, depth + 1) }
            case let .mapping(map): stack += map.reversed().flatMap { [($0.value, depth + 1), ($0.key, depth + 1)] }
            case .scalar, .alias: break
            }
        }
        return nil
    }
}

extension FlowStep {
    /// Steps run, `repeat` and `runFlow` expanded, counted up to just past `limit`.
    static func expandedCount(of steps: [FlowStep], limit: Int) -> Int {
        var total = 0
        for step in steps {
            total += step.expandedCount(limit: limit - total)
            if total > limit { return total }
        }
        return total
    }

    /// This step and what it runs; nesting is bounded by `FlowLimits.maximumNesting`.
    func expandedCount(limit: Int) -> Int {
        let nested = command.nestedSteps
        guard !nested.isEmpty else { return 1 }
        let once = Self.expandedCount(of: nested, limit: limit)
        return 1 + (once == 0 ? 0 : min(once.multipliedReportingOverflow(by: command.repetitions).partialValue, limit + 1))
    }
}
