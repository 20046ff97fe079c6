import Foundation

/// Which flow files a run takes: files as named, folders' `.yaml`/`.yml` files (not their
/// sub-folders, where sub-flows for `runFlow` live, as in Maestro), and a shard of them.
package enum FlowDiscovery {
    static func isFlowFile(_ name: String) -> Bool {
        (name.hasSuffix(".yaml") || name.hasSuffix(".yml")) && !name.hasPrefix(".")
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
    /// in the order given (a folder's files sorted by name), without repeats.
    package static func files(in paths: [String]) throws(FlowDiscoveryError) -> [String] {
        var found: [String] = []
        for typed in paths {
            let path = normalized(typed)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw .missing(typed)
            }
            if isFolder.boolValue, let config = try? WorkspaceConfig.load(folder: path), let files = config.files(in: path) {
                found += files
            } else if isFolder.boolValue {
                // A workspace's config.yaml is no flow.
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter {
                    isFlowFile($0) && !WorkspaceConfig.fileNames.contains($0)
                }.sorted()
                found += names.map { path == "." ? $0 : path == "/" ? "/\($0)" : "\(path)/\($0)" }
                    .filter {
                        var sub: ObjCBool = false; return FileManager.default.fileExists(atPath: $0, isDirectory: &sub) && !sub.boolValue
                    }
            } else {
                guard isFlowFile((path as NSString).lastPathComponent) else { throw .notAFlow(typed) }
                found.append(path)
            }
        }
        var seen = Set<String>()
        let unique = found.filter { seen.insert(($0 as NSString).standardizingPath).inserted }
        guard !unique.isEmpty else { throw .empty(paths) }
        return unique
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

    package var description: String {
        switch self {
        case let .missing(path): "no such file or folder: \(path)"
        case let .notAFlow(path): "\(path) is not a flow file: flows end in .yaml or .yml"
        case let .empty(paths): "no flow files (.yaml or .yml) in \(paths.joined(separator: ", "))"
        }
    }
}
