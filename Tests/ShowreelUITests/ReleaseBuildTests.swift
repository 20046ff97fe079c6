import Foundation
import ShowreelTestSupport
import Testing

/// Debug aids are absent from release builds: every type in a `*ForDebug*` file is inside
/// `#if DEBUG`, and a release build of the sample apps (and the toolkit under them) has none
/// of their symbols. The build compiles only the `ShowcaseApps` target and what it imports,
/// into its own scratch path (`.build-release-check`, next to `.build`), with `-Onone`:
/// nothing is optimised away, so a type left outside `#if DEBUG` always shows, and the build
/// takes about half the time of `-O` (27 s against 42 s from scratch on 2 cores; seconds
/// once built). `make test` builds it before the tests start, so here it is an up-to-date
/// check rather than minutes of compiling beside the other tests.
@Suite("Release build")
struct ReleaseBuildTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let modules = ["ShowreelUI", "ShowcaseApps"]

    /// The `*ForDebug*` files of the modules, with the debug-only type names they declare.
    static func debugFiles() throws -> [(path: String, text: String, types: [String])] {
        let declaration = try Regex(#"(?:class|struct|enum|protocol|actor)\s+([A-Za-z_][A-Za-z0-9_]*)"#)
        return try modules.flatMap { module -> [(path: String, text: String, types: [String])] in
            let folder = root.appendingPathComponent("Sources/\(module)")
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            return try files.filter { $0.hasSuffix(".swift") && $0.contains("ForDebug") }.sorted().map { file in
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                let types = text.matches(of: declaration).compactMap { $0.output[1].substring.map(String.init) }
                return ("Sources/\(module)/\(file)", text, types.filter { $0.contains("Debug") })
            }
        }
    }

    @Test("every *ForDebug* file is wrapped in #if DEBUG; each app says #if DEBUG once, where it picks its locator")
    func wrapped() throws {
        let files = try Self.debugFiles()
        #expect(files.count >= 8, "found \(files.map(\.path))")
        for file in files {
            let lines = file.text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            #expect(lines.first == "#if DEBUG" && lines.last == "#endif", "\(file.path) is not wrapped in #if DEBUG")
        }
        let apps =
            FileManager.default.enumerator(atPath: Self.root.appendingPathComponent("Sources/ShowcaseApps").path)?
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") && !$0.contains("ForDebug") } ?? []
        var counts: [String: Int] = [:]
        for file in apps {
            let text = try String(contentsOf: Self.root.appendingPathComponent("Sources/ShowcaseApps/\(file)"), encoding: .utf8)
            counts[file] = text.components(separatedBy: "#if DEBUG").count - 1
        }
        #expect(counts.filter { $0.value > 0 } == ["GreetingApp.swift": 1, "Mail/MailApp.swift": 1])
    }

    @Test("a release build of the sample apps contains none of the debug-only symbols")
    func noDebugSymbols() async throws {
        let types = Set(try Self.debugFiles().flatMap(\.types))
        #expect(types.isSuperset(of: ["DebugDrawer", "DebugWindow", "DebugAction", "ServiceLocatorForDebug", "StringServiceForDebug"]))
        let scratch = Self.root.appendingPathComponent(".build-release-check")
        // The build takes a while: on a thread of its own, so the other tests running beside
        // this one keep the concurrency pool's few threads.
        let build = try await offPool {
            try Self.run(
                "/usr/bin/env",
                [
                    "swift", "build", "-c", "release", "--target", "ShowcaseApps",
                    "--package-path", Self.root.path, "--scratch-path", scratch.path, "-Xswiftc", "-Onone",
                ])
        }
        try #require(build.status == 0, "release build failed:\n\(build.output.suffix(3000))")
        let release = try Self.symbols(in: scratch.appendingPathComponent("release"))
        try #require(release.count > 1000, "no symbols read from \(scratch.path)/release")
        // Swift mangles a type's name as its length then the name ("11DebugDrawer").
        let leaked = types.filter { name in release.contains { $0.contains("\(name.count)\(name)") } }
        #expect(leaked.isEmpty, "release build has symbols of \(leaked.sorted())")
        // The same search finds them in the debug build the tests run on (the check can fail).
        let debug = try Self.symbols(in: Self.root.appendingPathComponent(".build/debug"))
        if !debug.isEmpty {
            let found = types.filter { name in debug.contains { $0.contains("\(name.count)\(name)") } }
            #expect(found.isSuperset(of: ["DebugDrawer", "DebugWindow", "ServiceLocatorForDebug", "StringServiceForDebug"]))
        }
    }

    /// Symbol names of the modules' object files under a build folder (only those of source
    /// files that still exist: a deleted file's object stays behind in the build folder).
    static func symbols(in folder: URL) throws -> [String] {
        let objects = modules.flatMap { module -> [String] in
            let sources = Set(
                (FileManager.default.enumerator(atPath: root.appendingPathComponent("Sources/\(module)").path)?
                    .compactMap { $0 as? String } ?? []).map { ($0 as NSString).lastPathComponent + ".o" })
            let dir = folder.appendingPathComponent("\(module).build")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            return names.filter { sources.contains($0) }.map { dir.appendingPathComponent($0).path }
        }
        guard !objects.isEmpty else { return [] }
        let listing = try run("/usr/bin/env", ["nm", "--defined-only", "-j"] + objects)
        return listing.output.split(separator: "\n").map(String.init)
    }

    /// Runs a program to its end with its output drained as it comes.
    static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
