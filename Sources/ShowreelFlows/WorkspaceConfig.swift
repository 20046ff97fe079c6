import Foundation
import ShowreelWire
import Yams

/// A workspace's `config.yaml` (or `config.yml`) as Maestro reads it: which files of the folder
/// are flows (`flows:` globs), the tags a run includes and excludes, and the flows that run
/// first, one at a time and in order (`executionOrder`). It is never run as a flow.
package struct WorkspaceConfig: Sendable {
    /// The file as the user would name it (`Flows/config.yaml`), for messages.
    package var file: String
    /// Globs relative to the folder; nil runs the folder's top-level flows (Maestro's `*`).
    package var flows: [Located]?
    /// Where `flows:` is written, for "matches no flow".
    package var flowsLocation: FlowLocation?
    package var includeTags: [String] = []
    package var excludeTags: [String] = []
    package var executionOrder: ExecutionOrder?

    /// A value with where it is written, for errors found once the flows are known.
    package struct Located: Sendable {
        package var value: String
        package var location: FlowLocation
    }

    /// `executionOrder`: `flowsOrder` names flows (their header `name`, else their file name)
    /// that run before the others, one at a time; `continueOnFailure: false` stops that ordered
    /// run at its first failure.
    package struct ExecutionOrder: Sendable {
        package var continueOnFailure = true
        package var flowsOrder: [Located] = []
    }

    static let fileNames = ["config.yaml", "config.yml"]
    static let keys = ["flows", "includeTags", "excludeTags", "executionOrder", "local"]
    static let executionOrderKeys = ["continueOnFailure", "flowsOrder"]

    /// Whether a file of this name is a workspace's configuration, never a flow (Maestro's rule).
    static func isConfigFile(_ name: String) -> Bool { fileNames.contains(name) }

    /// The configuration file in `folder` (`config.yaml` first, as Maestro looks), if any.
    static func file(in folder: String) -> String? {
        fileNames.lazy.map { folder == "." ? $0 : folder.hasSuffix("/") ? folder + $0 : "\(folder)/\($0)" }
            .first { FileManager.default.fileExists(atPath: $0) }
    }

    /// Reads and checks `path`; throws every problem, each at its `file:line:column`. An empty
    /// file is an empty configuration, as in Maestro.
    package static func load(_ path: String) throws(FlowValidationError) -> WorkspaceConfig {
        let url = URL(fileURLWithPath: path)
        let reader = FileParser(
            id: path, url: url, parser: FlowParser(knownApps: []), chain: [], budget: YAMLBudget(), nesting: 0)
        let start = FlowLocation(file: path, line: 1, column: 1)
        let text: String
        do { text = try String(contentsOf: url, encoding: .utf8) } catch {
            throw FlowValidationError([FlowDiagnostic(start, "cannot read the workspace configuration (\(ErrorSentence.describe(error)))")])
        }
        var config = WorkspaceConfig(file: path)
        let document: Node?
        do { document = try Yams.compose(yaml: text) } catch {
            throw FlowValidationError([FlowParser.diagnostic(for: error, file: path)])
        }
        guard let document, !FileParser.isNull(document) else { return config }
        if let (node, problem) = reader.budget.charge(document) {
            throw FlowValidationError([FlowDiagnostic(reader.location(node), problem ?? "the configuration is too big")])
        }
        config.read(document, with: reader)
        guard reader.problems.isEmpty else {
            throw FlowValidationError(
                reader.problems.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) })
        }
        return config
    }

    private mutating func read(_ document: Node, with reader: FileParser) {
        guard let fields = reader.mapping(document, field: "the workspace configuration", allowed: Self.keys) else { return }
        if let node = fields["flows"] {
            flowsLocation = reader.location(node)
            flows = Self.textList(node, field: "flows", with: reader)
            for glob in flows ?? [] {
                do { _ = try FlowGlob(glob.value) } catch {
                    reader.fail(glob.location, "'\(glob.value)' is not a glob: \(error.description) (write e.g. 'smoke/*' or '**')")
                }
            }
        }
        if let node = fields["includeTags"] { includeTags = Self.textList(node, field: "includeTags", with: reader)?.map(\.value) ?? [] }
        if let node = fields["excludeTags"] { excludeTags = Self.textList(node, field: "excludeTags", with: reader)?.map(\.value) ?? [] }
        if let node = fields["executionOrder"] { executionOrder = Self.executionOrder(node, with: reader) }
        // Maestro's deprecated `local: {deterministicOrder: true}`: Showreel's order is always by
        // path, so it is checked and changes nothing.
        if let node = fields["local"], let local = reader.mapping(node, field: "local", allowed: ["deterministicOrder"]),
            let value = local["deterministicOrder"]
        {
            _ = reader.bool(value, field: "deterministicOrder")
        }
    }

    private static func executionOrder(_ node: Node, with reader: FileParser) -> ExecutionOrder? {
        guard let fields = reader.mapping(node, field: "executionOrder", allowed: executionOrderKeys) else { return nil }
        var order = ExecutionOrder()
        if let value = fields["continueOnFailure"], let continues = reader.bool(value, field: "continueOnFailure") {
            order.continueOnFailure = continues
        }
        if let value = fields["flowsOrder"] {
            var seen = Set<String>()
            for name in textList(value, field: "flowsOrder", with: reader) ?? [] {
                if seen.insert(name.value).inserted {
                    order.flowsOrder.append(name)
                } else {
                    reader.fail(name.location, "'\(name.value)' is listed twice in flowsOrder: a flow runs once")
                }
            }
        }
        return order
    }

    /// A list of text, or one text for a list of one (Maestro's `StringList`), each with its place.
    private static func textList(_ node: Node, field: String, with reader: FileParser) -> [Located]? {
        let items: [Node]
        switch node {
        case .scalar where !FileParser.isNull(node): items = [node]
        case let .sequence(list): items = Array(list)
        default:
            reader.fail(reader.location(node), "'\(field)' must be a list of text, got \(FileParser.kind(of: node))")
            return nil
        }
        let values = items.map { item in
            reader.string(item, field: "\(field) item").map { Located(value: $0, location: reader.location(item)) }
        }
        return values.contains { $0 == nil } ? nil : values.compactMap { $0 }
    }
}
