import ArgumentParser
import Foundation
import ShowreelReport
import ShowreelWire

/// `showreel report merge`: shards' manifests joined into one manifest, report and JUnit.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Work with run reports.",
        subcommands: [Merge.self])

    struct Merge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge",
            abstract: "Join the manifests of several runs (CI shards) into one manifest.json, report.html, junit.xml and summary.md.",
            discussion:
                "Video paths are rewritten relative to the output folder, so the merged report plays the shards' videos where they are.")

        @Argument(help: "Folders that each hold a manifest.json (the shards' --output folders).")
        var folders: [String]

        @Option(help: "Where the merged manifest.json, report.html and junit.xml go.")
        var output = "Recordings"

        @Option(help: "The merged report's title (default: the first manifest's).")
        var title: String?

        @Option(help: "Put before the file links of summary.md (where the output folder is served); default: links relative to it.")
        var summaryLinks = ""

        func run() async throws {
            try await reportingFailures {
                let destination = URL(fileURLWithPath: output, isDirectory: true).standardizedFileURL
                var manifests: [RunManifest] = []
                for folder in folders {
                    let url = URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL
                    var manifest: RunManifest
                    do { manifest = try RunManifest.load(from: url.appendingPathComponent(RunManifest.fileName)) } catch {
                        throw CLIFailure(message: "\(error)", exitCode: CLIFailure.Code.usage)
                    }
                    let relative = Self.relativePath(from: destination, to: url)
                    manifest.entries = manifest.entries.map { $0.rebased(onto: relative) }
                    manifests.append(manifest)
                }
                var merged = manifests[0].merged(Array(manifests.dropFirst()))
                if let title { merged.title = title }
                do { try merged.writeReport(to: destination, pathPrefix: output, summaryLinks: summaryLinks) } catch {
                    // As `run` says of an --output it cannot write: 73 (sysexits' EX_CANTCREAT).
                    throw CLIFailure(
                        message: "Could not write the merged report into \(destination.path): \(ErrorSentence.describe(error)). "
                            + "Choose an --output folder you can write.",
                        exitCode: CLIFailure.Code.cannotCreateOutput)
                }
                Console.out(
                    "\(merged.entries.count) entries from \(folders.count) \(folders.count == 1 ? "run" : "runs"): "
                        + "\(merged.outcome); report: \(output)/\(HTMLReport.fileName)")
                if merged.count(.failed) > 0 { throw ExitCode(1) }
            }
        }

        func validate() throws {
            guard !folders.isEmpty else { throw ValidationError("name at least one folder with a manifest.json") }
        }

        /// `to` as a path relative to the folder `from` ("../shard-1", "shard-1", ".").
        static func relativePath(from: URL, to: URL) -> String {
            let a = from.pathComponents, b = to.pathComponents
            var common = 0
            while common < min(a.count, b.count), a[common] == b[common] { common += 1 }
            let parts = Array(repeating: "..", count: a.count - common) + b[common...]
            return parts.isEmpty ? "." : parts.joined(separator: "/")
        }
    }
}
