import ArgumentParser
import Foundation
import ShowreelWire

/// `showreel init NAME`: a new package with an app on the toolkit, its own executable (every
/// verb with that app installed), recorded UI tests, flows and a CI workflow, ready to run.
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a new package: your app on the toolkit, an executable with every verb, recorded tests, flows and CI.",
        discussion: """
            Writes NAME/ (or --output DIR): Package.swift, Sources/NAMEApp (the app), Sources/name (every \
            verb with the app installed), Tests/NAMEUITests, Flows/, .github/workflows/ui.yml, README.md and \
            .gitignore. The package depends on Showreel by URL (the default) or by path (--showreel PATH). It \
            refuses a folder that exists and is not empty, and never overwrites a file. Exit status: 0 when the \
            package is written, 64 for a name that is not a Swift identifier, a folder in the way or a --showreel \
            that is neither a URL nor a Showreel checkout, 73 when a file cannot be written (nothing is left behind).
            """)

    @Argument(help: "The app's name, a Swift identifier (e.g. Groceries): the package, its targets and the executable are named after it.")
    var name: String

    @Option(help: "Where the package goes (default: ./NAME). It must not exist, or be an empty folder.")
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Showreel as the package's dependency: a checkout's path, or a Git URL with #branch or #version (default: \(PackageTemplate.defaultRepository)#\(PackageTemplate.defaultReference)).",
            valueName: "path-or-url"))
    var showreel: String?

    func run() async throws {
        try await reportingFailures {
            let template = try PackageTemplate(name: name, dependency: try dependency())
            let folder = URL(fileURLWithPath: output ?? name, isDirectory: true).standardizedFileURL
            try PackageWriter.write(template.files, into: folder, shownAs: output ?? name)
            let place = output ?? name
            Console.status(
                "Wrote \(template.files.count) files into \(place)/: the app \(template.appModule), the executable \(template.executable), tests and flows."
            )
            Console.out("cd \(place) && swift run \(template.executable) run Flows && swift test")
        }
    }

    /// The `.package(...)` clause for `--showreel`.
    private func dependency() throws -> PackageTemplate.Dependency {
        guard let showreel, !showreel.isEmpty else { return .defaultURL }
        if showreel.contains("://") || showreel.hasPrefix("git@") { return .url(showreel) }
        let path = URL(fileURLWithPath: showreel, isDirectory: true).standardizedFileURL.path
        guard FileManager.default.fileExists(atPath: path + "/Package.swift") else {
            throw CLIFailure(
                message: "--showreel \(showreel): no Package.swift there; give the path of a Showreel checkout, or a Git URL.",
                exitCode: CLIFailure.Code.usage)
        }
        return .path(path)
    }
}

/// Writes a new package's files, each new (never over an existing file); on failure removes
/// what it wrote, so nothing half-written stays behind.
enum PackageWriter {
    static func write(_ files: [(path: String, contents: String)], into folder: URL, shownAs name: String) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        let existed = manager.fileExists(atPath: folder.path, isDirectory: &isDirectory)
        if existed {
            guard isDirectory.boolValue else {
                throw CLIFailure(message: "\(name) is a file; choose another --output.", exitCode: CLIFailure.Code.usage)
            }
            let contents = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
            guard contents.isEmpty else {
                throw CLIFailure(
                    message: "\(name) already exists and is not empty; choose another --output (init never overwrites).",
                    exitCode: CLIFailure.Code.usage)
            }
        }
        do {
            if !existed { try manager.createDirectory(at: folder, withIntermediateDirectories: true) }
            for file in files {
                let url = folder.appendingPathComponent(file.path)
                try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(file.contents.utf8).write(to: url, options: .withoutOverwriting)
            }
        } catch {
            if existed {
                // It was empty: everything in it now is this run's.
                for entry in (try? manager.contentsOfDirectory(atPath: folder.path)) ?? [] {
                    try? manager.removeItem(at: folder.appendingPathComponent(entry))
                }
            } else {
                try? manager.removeItem(at: folder)
            }
            throw CLIFailure(
                message: "Could not write the package into \(name): \(ErrorSentence.describe(error)) Nothing was left behind.",
                exitCode: CLIFailure.Code.cannotCreateOutput)
        }
    }
}
