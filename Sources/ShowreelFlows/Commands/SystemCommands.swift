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

/// What simctl does to a device from outside (clipboard, links, permissions, location,
/// airplane mode, orientation, photos): one grammar for the family, parsed in `SystemStep+Parsing`, run in
/// `FlowExecution+System`.
extension SystemStep: FlowCommand {
    static let grammar = CommandGrammar(names: names, bare: true, example: "setClipboard: \"hello@example.com\"") { parser, input in
        if input.argument == nil, !bareNames.contains(input.name) {
            parser.fail(input.at, "'\(input.name)' needs a value, e.g. \(example(input.name) ?? input.name)")
            return nil
        }
        return parser.systemStep(input.name, input.argument)
    }

    func run(in execution: FlowExecution) async throws { try await execution.perform(self) }
}

/// Commands a Showreel device cannot run, refused before anything runs with the reason: a web
/// browser it does not have, and the AI commands, which need a model no run should depend on.
struct RefusedCommand: FlowCommand {
    static let reasons: [String: String] = [
        "openBrowser": "openBrowser is not supported: a Showreel device has no web browser; openLink opens a link in the app that owns it",
        "assertWithAI": "assertWithAI is not supported: a run must not depend on a model's answer; assert on elements instead",
        "assertNoDefectsWithAI": "assertNoDefectsWithAI is not supported: a run must not depend on a model's answer; use assertScreenshot",
        "extractTextWithAI": "extractTextWithAI is not supported: a run must not depend on a model's answer; use copyTextFrom",
    ]

    static let grammar = CommandGrammar(
        names: [
            "openBrowser", "assertWithAI", "assertNoDefectsWithAI", "extractTextWithAI",
        ],
        bare: true, example: ""
    ) { parser, input in
        parser.fail(input.at, reasons[input.name] ?? "\(input.name) is not supported")
        return nil
    }

    var summary: String { "" }

    func run(in execution: FlowExecution) async throws {}
}
