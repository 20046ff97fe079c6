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

/// `evalScript: ${output.count = 0}`: runs the expression for what it does.
struct EvalScriptCommand: FlowCommand {
    var script: String

    static let grammar = CommandGrammar(names: ["evalScript"], example: "evalScript: ${output.count = 0}") { parser, input in
        parser.string(input.value, field: input.name).map(EvalScriptCommand.init)
    }

    var summary: String { "Run \(script)" }

    func run(in execution: FlowExecution) async throws { _ = try execution.resolve(script) }
}

/// `runScript: file.js` (or `{file, env}`): a JavaScript file beside the flow, read and checked
/// before anything runs, run in the flow's context with `env` as globals while it runs.
struct RunScriptCommand: FlowCommand {
    var file: String
    var source: String
    var environment: [String: String]

    static let grammar = CommandGrammar(names: ["runScript"], example: "runScript: {file: setup.js, env: {NAME: Ada}}") { parser, input in
        var node = input.value
        var environment: [String: String] = [:]
        if case .mapping = node {
            guard let fields = parser.mapping(node, field: input.name, allowed: ["file", "env"]), let file = fields["file"] else {
                parser.fail(parser.location(node), "missing field 'file' in runScript")
                return nil
            }
            if let value = fields["env"] { environment = parser.environment(value, field: "env") ?? [:] }
            node = file
        }
        guard let path = parser.string(node, field: "file") else { return nil }
        let url = URL(fileURLWithPath: path, relativeTo: parser.url.deletingLastPathComponent()).standardizedFileURL
        let id = FileParser.relativeID(path, from: parser.id)
        guard let source = try? String(contentsOf: url, encoding: .utf8) else {
            let siblings = (try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? []
            parser.fail(
                parser.location(node),
                "runScript: no file '\(id)'\(Spelling.hint(for: url.lastPathComponent, in: siblings.filter { $0.hasSuffix(".js") }))")
            return nil
        }
        do throws(ScriptError) { try parser.syntaxChecker.checkSyntax(source, file: id, line: 1) } catch {
            parser.problems.append(FlowDiagnostic(FlowLocation(file: id, line: error.line, column: 1), "JavaScript: \(error.message)"))
            return nil
        }
        return RunScriptCommand(file: id, source: source, environment: environment)
    }

    var summary: String { "Run \((file as NSString).lastPathComponent)" }

    func run(in execution: FlowExecution) async throws {
        let scripts = execution.scripts
        scripts.enterScope(try environment.mapValues(execution.resolve))
        defer { scripts.leaveScope() }
        do { try scripts.evaluate(source, file: file, line: 1) } catch {
            throw StepFailure(message: "JavaScript error at \(error.file):\(error.line): \(error.message)")
        }
    }
}
