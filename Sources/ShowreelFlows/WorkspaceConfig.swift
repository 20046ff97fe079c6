import Foundation
import ShowreelWire
import Yams

/// A folder's `config.yaml`, as Maestro's workspace has it: which files are flows (`flows:`
/// globs, relative to the folder; default its own files), which tags run (`includeTags`,
/// `excludeTags`), and which flows run first, in order (`executionOrder: {flowsOrder}`).
package struct WorkspaceConfig: Sendable, Equatable {
    package var flows: [String] = []
    package var includeTags: [String] = []
    package var excludeTags: [String] = []
    package var flowsOrder: [String] = []

    static let fileNames = ["config.yaml", "config.yml"]

    package init() {}

    /// The config in `folder`, if it has one; problems are at their `file:line:column`.
    package static func load(folder: String) throws(FlowValidationError) -> WorkspaceConfig? {
        guard let name = fileNames.first(where: { FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent($0)) })
        else { return nil }
        let path = (folder as NSString).appendingPathComponent(name)
        let id = FlowDiscovery.normalized(path)
        let parser = FileParser(
            id: id, url: URL(fileURLWithPath: path), parser: FlowParser(knownApps: []), chain: [], budget: YAMLBudget(), nesting: 0)
        var config = WorkspaceConfig()
        do {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            guard let node = try Yams.compose(yaml: text) else { return config }
            let keys = ["flows", "includeTags", "excludeTags", "executionOrder", "appId", "name", "platform", "testOutputDir"]
            if let fields = parser.mapping(node, field: "config.yaml", allowed: keys) {
                if let value = fields["flows"] {
                    let globs =
                        value.sequence != nil ? parser.strings(value, field: "flows") : parser.string(value, field: "flows").map { [$0] }
                    config.flows = globs ?? []
                }
                if let value = fields["includeTags"] { config.includeTags = parser.strings(value, field: "includeTags") ?? [] }
                if let value = fields["excludeTags"] { config.excludeTags = parser.strings(value, field: "excludeTags") ?? [] }
                if let value = fields["executionOrder"],
                    let order = parser.mapping(value, field: "executionOrder", allowed: ["continueOnFailure", "flowsOrder"])
                {
                    if let flows = order["flowsOrder"] { config.flowsOrder = parser.strings(flows, field: "flowsOrder") ?? [] }
                    if let value = order["continueOnFailure"] { _ = parser.bool(value, field: "continueOnFailure") }
                }
            }
        } catch {
            throw FlowValidationError([FlowParser.diagnostic(for: error, file: id)])
        }
        guard parser.problems.isEmpty else { throw FlowValidationError(parser.problems) }
        return config
    }

    /// The flow files of `folder` its `flows:` globs name (`*` and `**` match across folders),
    /// sorted by path; nil when the config names none (the folder's own files then).
    func files(in folder: String) -> [String]? {
        guard !flows.isEmpty else { return nil }
        let all = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [])
            .filter { FlowDiscovery.isFlowFile(($0 as NSString).lastPathComponent) && !Self.fileNames.contains($0) }
        let matched = all.filter { relative in flows.contains { fnmatch($0, relative, 0) == 0 } }.sorted()
        return matched.map { folder == "." ? $0 : "\(folder)/\($0)" }
    }

    /// `flows` with the tags asked for (any of `include`, none of `exclude`; the config's and
    /// the command line's together), the `flowsOrder` ones first in that order.
    package func select(_ flows: [Flow], include: [String], exclude: [String]) -> [Flow] {
        let include = includeTags + include, exclude = excludeTags + exclude
        let kept = flows.filter { flow in
            (include.isEmpty || !Set(flow.tags).isDisjoint(with: include)) && Set(flow.tags).isDisjoint(with: exclude)
        }
        let name = { (flow: Flow) in flow.url.deletingPathExtension().lastPathComponent }
        let first = flowsOrder.compactMap { wanted in kept.first { name($0) == wanted || $0.name == wanted } }
        return first + kept.filter { flow in !first.contains { $0.id == flow.id } }
    }
}
