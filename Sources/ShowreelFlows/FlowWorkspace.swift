import Foundation
import ShowreelWire

/// The flows a run takes from the paths it was given, as Maestro plans a workspace: the first
/// folder's `config.yaml` picks the files (`flows:`), the tags of the configuration and of the
/// command line pick among them, `executionOrder` puts some first, and `-e` variables go into
/// every flow's environment over its header's `env:`. Every problem, in the configuration and
/// in the flows, is found before anything runs.
package enum FlowWorkspace {
    /// What to pick and what to give the flows, from the command line.
    package struct Request: Sendable {
        package var paths: [String]
        package var includeTags: [String] = []
        package var excludeTags: [String] = []
        /// `-e KEY=VALUE`: over the same names in each flow's header `env:`.
        package var variables: [String: String] = [:]

        package init(paths: [String], includeTags: [String] = [], excludeTags: [String] = [], variables: [String: String] = [:]) {
            self.paths = paths
            self.includeTags = includeTags
            self.excludeTags = excludeTags
            self.variables = variables
        }
    }

    /// Finds, parses and picks the flows of `request`.
    package static func select(_ request: Request, parser: FlowParser) throws(FlowWorkspaceError) -> FlowSelection {
        let configFile = request.paths.lazy.map(FlowDiscovery.normalized).filter(isFolder).compactMap(WorkspaceConfig.file(in:)).first
        var config: WorkspaceConfig?
        var problems: [FlowDiagnostic] = []
        if let configFile {
            do { config = try WorkspaceConfig.load(configFile) } catch { problems += error.diagnostics }
        }
        let globs = config?.flows.map { $0.compactMap { try? FlowGlob($0.value) } }
        let files: [String]
        do { files = try FlowDiscovery.files(in: request.paths, globs: globs) } catch { throw .discovery(error) }
        if let config, let globs {
            problems += unmatched(config, globs: globs, folders: request.paths.map(FlowDiscovery.normalized).filter(isFolder), found: files)
        }
        var flows: [Flow] = []
        for file in files {
            do { flows.append(try parser.parse(fileAt: URL(fileURLWithPath: file), id: file)) } catch { problems += error.diagnostics }
        }
        guard problems.isEmpty else { throw .invalid(FlowValidationError(problems)) }

        // A lone flow file always runs, as in Maestro: tags pick among a workspace's flows.
        let loneFile = request.paths.count == 1 && !isFolder(FlowDiscovery.normalized(request.paths[0]))
        let include = request.includeTags + (config?.includeTags ?? [])
        let exclude = request.excludeTags + (config?.excludeTags ?? [])
        let picked = loneFile ? flows : flows.filter { Self.tags($0.tags, include: include, exclude: exclude) }
        guard !picked.isEmpty else { throw .noFlowsLeft(include: include, exclude: exclude, tags: flows.flatMap(\.tags)) }

        let first = try ordered(config, all: flows, picked: picked)
        let ids = Set(first.map(\.id))
        var selection = FlowSelection(
            flows: (first + picked.filter { !ids.contains($0.id) }).map { $0.withVariables(request.variables) },
            leftOutByTags: flows.count - picked.count)
        if !first.isEmpty {
            selection.order = RunOrder(flowIDs: first.map(\.id), continueOnFailure: config?.executionOrder?.continueOnFailure ?? true)
        }
        return selection
    }

    /// Maestro's rule: with include tags, a flow needs one of them; with exclude tags, it must
    /// have none of them.
    static func tags(_ tags: [String], include: [String], exclude: [String]) -> Bool {
        (include.isEmpty || tags.contains(where: include.contains)) && !tags.contains(where: exclude.contains)
    }

    /// The flows `flowsOrder` names, in its order, among those the tags picked. A name that no
    /// flow of the workspace has, or that two have, is an error at the name; a flow the tags left
    /// out is left out of the order.
    private static func ordered(_ config: WorkspaceConfig?, all: [Flow], picked: [Flow]) throws(FlowWorkspaceError) -> [Flow] {
        guard let names = config?.executionOrder?.flowsOrder, !names.isEmpty else { return [] }
        var problems: [FlowDiagnostic] = []
        var first: [Flow] = []
        for name in names {
            let named = all.filter { $0.name == name.value }
            if named.isEmpty {
                let all = all.map(\.name)
                problems.append(
                    FlowDiagnostic(
                        name.location,
                        "flowsOrder names no flow '\(name.value)'\(Spelling.hint(for: name.value, in: all)) "
                            + "(a flow's name is its header's name, else its file name without .yaml: \(all.joined(separator: ", ")))"))
            } else if named.count > 1 {
                problems.append(
                    FlowDiagnostic(
                        name.location,
                        "'\(name.value)' names \(named.count) flows (\(named.map(\.id).joined(separator: ", "))): "
                            + "give one another name in its header to order it"))
            } else if let flow = picked.first(where: { $0.id == named[0].id }) {
                first.append(flow)
            }
        }
        guard problems.isEmpty else { throw .invalid(FlowValidationError(problems)) }
        return first
    }

    /// A glob naming a folder that no given folder has (a typo), or globs that together match
    /// no flow at all (Maestro's error), at their place in config.yaml.
    private static func unmatched(_ config: WorkspaceConfig, globs: [FlowGlob], folders: [String], found: [String]) -> [FlowDiagnostic] {
        var problems: [FlowDiagnostic] = []
        for (glob, written) in zip(globs, config.flows ?? []) {
            guard let literal = glob.literalFolder, !folders.contains(where: { isFolder(FlowDiscovery.joined($0, literal)) }) else {
                continue
            }
            let parent = literal.parentPath
            let siblings = folders.flatMap { folder in
                ((try? FileManager.default.contentsOfDirectory(atPath: FlowDiscovery.joined(folder, parent.isEmpty ? "." : parent))) ?? [])
                    .map { parent.isEmpty ? $0 : "\(parent)/\($0)" }
            }
            problems.append(
                FlowDiagnostic(
                    written.location,
                    "'\(glob.pattern)' names the folder '\(literal)', which is not in \(folders.joined(separator: ", "))"
                        + Spelling.hint(for: literal, in: siblings)))
        }
        if problems.isEmpty, found.isEmpty {
            problems.append(
                FlowDiagnostic(
                    config.flowsLocation ?? FlowLocation(file: config.file, line: 1, column: 1),
                    "the flows patterns (\(globs.map(\.pattern).joined(separator: ", "))) match no flow file in "
                        + "\(folders.joined(separator: ", ")): write them relative to the folder, '**' for every flow at any depth"))
        }
        return problems
    }

    private static func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }
}

/// The flows a run takes, in the order they run, and what chose them.
package struct FlowSelection: Sendable {
    /// The flows `executionOrder` names first (in its order), then the others in path order.
    package var flows: [Flow]
    /// How many flows the include and exclude tags left out.
    package var leftOutByTags: Int
    /// The ordered part of the run, when config.yaml has `executionOrder.flowsOrder`.
    package var order: RunOrder?
}

/// A workspace's `executionOrder`: these flows run before the others, one at a time, in this
/// order; unless `continueOnFailure`, the first failure among them skips the rest of them.
package struct RunOrder: Sendable, Equatable {
    package var flowIDs: [String]
    package var continueOnFailure: Bool

    package init(flowIDs: [String], continueOnFailure: Bool) {
        self.flowIDs = flowIDs
        self.continueOnFailure = continueOnFailure
    }
}

/// Why the paths give no flows to run: nothing runs.
package enum FlowWorkspaceError: Error, CustomStringConvertible {
    case discovery(FlowDiscoveryError)
    /// Problems in config.yaml or in flows, each at its `file:line:column`.
    case invalid(FlowValidationError)
    /// The tags left no flow; `tags` are those the flows have, for a spelling hint.
    case noFlowsLeft(include: [String], exclude: [String], tags: [String])

    package var description: String {
        switch self {
        case let .discovery(error): error.description
        case let .invalid(error): error.description
        case let .noFlowsLeft(include, exclude, tags):
            "the tags leave no flow to run (include: \(include.isEmpty ? "any" : include.joined(separator: ", ")); "
                + "exclude: \(exclude.isEmpty ? "none" : exclude.joined(separator: ", ")))"
                + (include.lazy.compactMap { tag in Spelling.nearest(to: tag, in: Set(tags)).flatMap { $0 == tag ? nil : $0 } }.first.map {
                    "; did you mean '\($0)'?"
                } ?? "")
                + (tags.isEmpty ? "; no flow has tags" : "; the flows' tags: \(Set(tags).sorted().joined(separator: ", "))")
        }
    }
}

extension Flow {
    /// This flow with `variables` over its header's `env:` (the command line's `-e` wins).
    func withVariables(_ variables: [String: String]) -> Flow {
        var flow = self
        flow.environment.merge(variables) { $1 }
        return flow
    }
}
