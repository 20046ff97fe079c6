import Foundation
import ShowreelRecorder
import ShowreelTestSupport
import Testing

/// `showreel run` as a careless user and a hard stop meet it: paths as the shell types them,
/// an output folder that cannot exist, Ctrl-C in the middle of a flow, and `kill -9` into the
/// folder of an earlier run.
@Suite("showreel run: paths, output, interrupts and kills")
struct FlowHardeningTests {
    static let repository = FlowRunTests.repository

    /// A flow of `taps` taps on Hello's button, a second apart.
    static func tapping(_ taps: Int) -> String {
        "appId: dev.showreel.hello\n---\n- launchApp\n- repeat:\n    times: \(taps)\n    commands:\n"
            + "      - tapOn: {id: tapButton}\n      - wait: 1\n"
    }

    func start(_ arguments: [String], in workspace: Workspace, name: String) throws -> ChildProcess {
        var environment = workspace.environment
        environment["CI"] = "true"
        return try ChildProcess(
            try BuildProducts.showreel, arguments, environment: environment, in: workspace, name: name,
            directory: Self.repository)
    }

    /// Sends `signal` to `run` once it has been recording into `folder` for a while: its video has
    /// some frames (over 50 KB), or 3 s passed since it appeared. On a loaded machine the encoder
    /// may fall behind and write little while the flow runs on (the frames wait in its spool), so
    /// the size alone can say "recording" only as the flow ends.
    func send(_ signal: Int32, to run: ChildProcess, onceRecordingInto folder: URL, since start: Date) async throws {
        var appeared: Date?
        try await run.send(signal, when: "recording into \(folder.path)") {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            let sizes = names.filter { $0.hasSuffix(".mov") }.compactMap { name -> Int? in
                let attributes = (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)) ?? [:]
                guard (attributes[.modificationDate] as? Date ?? .distantPast) > start else { return nil }
                return attributes[.size] as? Int
            }
            guard let size = sizes.max() else { return false }
            if appeared == nil { appeared = Date() }
            return size > 50_000 || Date().timeIntervalSince(appeared!) > 3
        }
    }

    @Test("paths as the shell gives them: ./file, folder/, ../, a doubled slash, an absolute path")
    func shellPaths() async throws {
        let workspace = try Workspace()
        let upAndBack = "../\(Self.repository.lastPathComponent)/Fixtures/Flows/hello.yaml"
        for path in [
            "./Fixtures/Flows/hello.yaml", "Fixtures/Flows/", "./Fixtures//Flows/./hello.yaml", upAndBack, "Fixtures/../Fixtures/Flows/",
            Self.repository.appendingPathComponent("Fixtures/Flows/hello.yaml").path,
        ] {
            let run = try start(["run", path, "--check"], in: workspace, name: "check")
            #expect(try await run.waitForExit(timeout: .seconds(60)) == 0, "\(path): \(run.stderr)")
            #expect(run.stdout.contains("valid"), "\(path)")
        }
    }

    @Test("an output folder that cannot be created is refused before anything runs: 73 and one sentence")
    func uncreatableOutput() async throws {
        let workspace = try Workspace()
        let run = try start(["run", "Fixtures/Flows/hello.yaml", "--output", "/proc/nope"], in: workspace, name: "nope")
        #expect(try await run.waitForExit(timeout: .seconds(60)) == 73, "stderr: \(run.stderr)")
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("error: Cannot create the output folder /proc/nope: "), "\(run.stderr)")
        #expect(!run.stderr.contains("Error Domain"))
        #expect(!run.stderr.contains("Running"))
    }

    @Test("Ctrl-C in the middle of a flow: reported as interrupted (manifest, JUnit, terminal), never as CancellationError, exit 130")
    func interruptedFlow() async throws {
        let workspace = try Workspace()
        let flow = workspace.file("taps.yaml")
        try Data(Self.tapping(1000).utf8).write(to: flow)
        let output = workspace.file("out")
        let started = Date()
        let run = try start(["run", flow.path, "--output", output.path], in: workspace, name: "taps")
        try await send(SIGINT, to: run, onceRecordingInto: output, since: started)
        #expect(try await run.waitForExit(timeout: .seconds(60)) == 130, "stderr: \(run.stderr)")
        let manifest = try RunManifestFile(output)
        #expect(manifest.statuses == ["interrupted"], "\(run.stderr)")
        #expect(!manifest.text.contains("CancellationError"))
        let junit = try String(contentsOf: output.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.contains("type=\"interrupted\""))
        #expect(run.stderr.contains("[1/1] interrupted"), "\(run.stderr)")
        #expect(run.stdout.contains("1 interrupted"), "\(run.stdout)")
        // The video up to the interrupt is kept, complete, under its own name.
        #expect(try MediaProbe.probe(output.appendingPathComponent("taps.mov")).readToEnd)
        // Ctrl-C asks to stop now: no preview is made of the interrupted video.
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("taps.webp").path))
    }

    @Test("kill -9 of a run into an earlier run's folder leaves that run's videos whole, and the next run removes its partial file")
    func killedRunKeepsEarlierVideos() async throws {
        let workspace = try Workspace()
        let output = workspace.file("out")
        let first = workspace.file("first"), second = workspace.file("second")
        for folder in [first, second] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try Data(Self.tapping(2).utf8).write(to: first.appendingPathComponent("flow.yaml"))
        try Data(Self.tapping(1000).utf8).write(to: second.appendingPathComponent("flow.yaml"))

        let earlier = try start(
            ["run", first.appendingPathComponent("flow.yaml").path, "--output", output.path], in: workspace, name: "first")
        #expect(try await earlier.waitForExit(timeout: .seconds(120)) == 0, "stderr: \(earlier.stderr)")
        let video = output.appendingPathComponent("flow.mov")
        let before = try MediaProbe.probe(video)

        let started = Date()
        let killed = try start(
            ["run", second.appendingPathComponent("flow.yaml").path, "--output", output.path], in: workspace, name: "second")
        try await send(SIGKILL, to: killed, onceRecordingInto: output, since: started)
        _ = try await killed.waitForExit(timeout: .seconds(60))

        // What the earlier manifest names is still the earlier, complete video.
        let manifest = try RunManifestFile(output)
        #expect(manifest.videos == ["flow.mov"])
        let after = try MediaProbe.probe(video)
        #expect(after.readToEnd)
        #expect(after.duration == before.duration)

        // The killed run's partial file outlives it, until the next run into the folder (of
        // another flow, which would not overwrite it) sees that no live process writes it.
        let partial = output.appendingPathComponent(".flow.partial.mov")
        #expect(FileManager.default.fileExists(atPath: partial.path))
        try Data(Self.tapping(1).utf8).write(to: first.appendingPathComponent("other.yaml"))
        let next = try start(
            ["run", first.appendingPathComponent("other.yaml").path, "--output", output.path], in: workspace, name: "next")
        #expect(try await next.waitForExit(timeout: .seconds(120)) == 0, "stderr: \(next.stderr)")
        #expect(!FileManager.default.fileExists(atPath: partial.path), "the killed run's partial file is removed")
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("other.mov").path))

        let reel = try start(["reel", output.path], in: workspace, name: "reel")
        #expect(try await reel.waitForExit(timeout: .seconds(120)) == 0, "stderr: \(reel.stderr)")
    }
}

/// The parts of a run's manifest.json these tests read.
struct RunManifestFile {
    let text: String
    let entries: [[String: Any]]

    init(_ folder: URL) throws {
        text = try String(contentsOf: folder.appendingPathComponent("manifest.json"), encoding: .utf8)
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        entries = object?["entries"] as? [[String: Any]] ?? []
    }

    var statuses: [String] { entries.compactMap { $0["status"] as? String } }
    var videos: [String] { entries.compactMap { $0["video"] as? String } }
}
