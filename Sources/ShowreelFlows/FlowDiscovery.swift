import Foundation

/// Which flow files a run takes: files as named, folders' `.yaml`/`.yml` files (not their
/// sub-folders, where sub-flows for `runFlow` live, as in Maestro, unless the workspace's
/// config.yaml names them with `flows:` globs), and a shard of them.
package enum FlowDiscovery {
    /// A flow's name: `.yaml` or `.yml`, not hidden, and not a workspace's `config.yaml`.
    static func isFlowFile(_ name: String) -> Bool {
        (name.hasSuffix(".yaml") || name.hasSuffix(".yml")) && !name.hasPrefix(".") && !WorkspaceConfig.isConfigFile(name)
    }

    /// `path` as the shell may give it (`./x.yaml`, `Flows//`, `Flows/`) in one spelling:
    /// without `.` components, repeated or trailing slashes; `..` is kept (it means a folder).
    /// Ids and shards then do not depend on how a path was typed.
    package static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        let parts = path.split(separator: "/").filter { $0 != "." }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// The flow files under `paths`, each as a path that names it from the current folder,
    /// in the order given (a folder's files sorted by path), without repeats. In folders, `globs`
    /// (a workspace's `flows:`) pick the files at any depth whose path within the folder
    /// matches one; without them, the folder's own files. With globs the list may be empty
    /// (the configuration says why); without, an empty list is an error.
    package static func files(in paths: [String], globs: [FlowGlob]? = nil) throws(FlowDiscoveryError) -> [String] {
        var found: [String] = []
        for typed in paths {
            let path = normalized(typed)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw .missing(typed)
            }
            if isFolder.boolValue {
                let names =
                    globs.map { globs in deepFiles(in: path).filter { file in globs.contains { $0.matches(file) } } } ?? topFiles(in: path)
                found += names.map { joined(path, $0) }
            } else {
                let name = (path as NSString).lastPathComponent
                if WorkspaceConfig.isConfigFile(name) { throw .workspaceConfig(typed) }
                guard isFlowFile(name) else { throw .notAFlow(typed) }
                found.append(path)
            }
        }
        var seen = Set<String>()
        let unique = found.filter { seen.insert(($0 as NSString).standardizingPath).inserted }
        guard !unique.isEmpty || globs != nil else { throw .empty(paths) }
        return unique
    }

    /// `name` inside `folder`, spelled from the current folder.
    static func joined(_ folder: String, _ name: String) -> String {
        folder == "." ? name : folder == "/" ? "/\(name)" : "\(folder)/\(name)"
    }

    /// The flow files directly in `folder`, by name.
    private static func topFiles(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter(isFlowFile).sorted()
            .filter { isFile(joined(folder, $0)) }
    }

    /// The flow files at any depth in `folder`, as paths within it, by path; hidden folders
    /// (`.git`) are not entered.
    private static func deepFiles(in folder: String) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: folder) else { return [] }
        var files: [String] = []
        while let relative = walk.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                walk.skipDescendants()
            } else if isFlowFile(name), isFile(joined(folder, relative)) {
                files.append(relative)
            }
        }
        return files.sorted()
    }

    private static func isFile(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && !folder.boolValue
    }

    /// Shard `index` of `count` (1-based): every count-th flow in id order, so each flow is in
    /// exactly one shard and the same files always give the same shards.
    package static func shard<T>(_ items: [T], id: (T) -> String, index: Int, count: Int) -> [T] {
        items.enumerated()
            .sorted { id($0.element) < id($1.element) }
            .enumerated()
            .filter { $0.offset % count == index - 1 }
            .sorted { $0.element.offset < $1.element.offset }
            .map(\.element.element)
    }
}

package enum FlowDiscoveryError: Error, Equatable, CustomStringConvertible {
    case missing(String)
    case notAFlow(String)
    case empty([String])
    case workspaceConfig(String)

    package var description: String {
        switch self {
        case let .missing(path): "no such file or folder: \(path)"
        case let .workspaceConfig(path):
            "\(path) is a workspace's configuration, not a flow: name its folder to run the workspace's flows"
        case let .notAFlow(path): "\(path) is not a flow file: flows end in .yaml or .yml"
        case let .empty(paths): "no flow files (.yaml or .yml) in \(paths.joined(separator: ", "))"
        }
    }
}
