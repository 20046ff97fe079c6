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

/// One command of the flow language (Maestro's names): what a step does, as its grammar parsed
/// and checked it, run on the flow's device. The next command is one more type and one more
/// line in `CommandCatalog`; `FlowExecution` only runs steps.
protocol FlowCommand: Sendable {
    /// The step in plain words, for `--captions steps`: "Tap “Canada”".
    var summary: String { get }
    /// Steps it runs inside it (`repeat`, `runFlow`, `retry`): counted toward the limits and
    /// traced as their own steps.
    var nestedSteps: [FlowStep] { get }
    /// How many times `nestedSteps` may run, for the step limit counted before the run.
    var repetitions: Int { get }
    func run(in execution: FlowExecution) async throws
}

extension FlowCommand {
    var nestedSteps: [FlowStep] { [] }
    var repetitions: Int { 1 }
}

/// How a command is written: its names, whether it may stand alone (`- back`), an example for
/// error messages, and how its value is read (nil after the problems are reported).
struct CommandGrammar: Sendable {
    var names: [String]
    var bare: Bool = false
    var example: String
    var parse: @Sendable (FileParser, CommandInput) -> (any FlowCommand)?
}

/// A step's name and value, where it is written.
struct CommandInput {
    var name: String
    var argument: Node?
    var at: FlowLocation

    /// The value, for commands that need one (the parser checked it is there).
    var value: Node { argument! }
}
