import Foundation
import ShowreelTestSupport
import Testing

/// `showreel run` on a Maestro workspace: a folder whose config.yaml picks flows by glob and by
/// tag and runs some first in order, with `--include-tags`, `--exclude-tags` and `-e` on top.
@Suite("showreel run: a workspace's config.yaml, tags and variables", .timeLimit(.minutes(10)))
struct WorkspaceRunTests {
    /// A Hello flow with these tags that passes, or fails at its second step.
    static func flow(tags: [String], fails: Bool = false) -> String {
        "appId: dev.showreel.hello\ntags: [\(tags.joined(separator: ", "))]\n---\n- launchApp\n"
            + (fails ? "- assertVisible: {text: \"Nowhere\", timeout: 0.5}\n" : "- assertVisible: {id: tapCount}\n")
    }

    /// A new workspace with `files` (path within the folder: text) in its folder `ws`, folders and all.
    static func workspace(_ files: [String: String]) throws -> Workspace {
        let workspace = try Workspace()
        for (path, text) in files {
            let file = workspace.file("ws").appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        return workspace
    }

    func run(_ arguments: [String], in workspace: Workspace, name: String) async throws -> ChildProcess {
        var environment = workspace.environment
        environment["CI"] = "true"
        let process = try ChildProcess(
            try BuildProducts.showreel, arguments, environment: environment, in: workspace, name: name,
            directory: workspace.url)
        _ = try await process.waitForExit(timeout: .seconds(300))
        return process
    }

    @Test(
        "globs pick the files, config and command-line tags pick among them, flowsOrder runs first and stops at its failure; the rest still run"
    )
    func orderedTaggedRun() async throws {
        let workspace = try Self.workspace(
            [
                "config.yaml": """
                flows:
                  - "*"
                  - "smoke/*"
                includeTags: [hello]
                excludeTags: slow
                executionOrder:
                  continueOnFailure: false
                  flowsOrder: [first, broken, after]
                """,
                "first.yaml": Self.flow(tags: ["hello"]),
                "other.yaml": Self.flow(tags: ["hello", "smoke"]),
                "smoke/broken.yaml": Self.flow(tags: ["hello"], fails: true),
                "smoke/after.yaml": Self.flow(tags: ["hello"]),
                "slow.yaml": Self.flow(tags: ["hello", "slow"]),
                "untagged.yaml": "appId: dev.showreel.hello\n---\n- launchApp\n",
                "flaky.yaml": Self.flow(tags: ["hello", "flaky"]),
                // Not matched by the globs: sub-flows and drafts live in sub-folders.
                "drafts/deep.yaml": Self.flow(tags: ["hello"], fails: true),
            ])
        let check = try await run(["run", "ws", "--check", "--exclude-tags", "flaky"], in: workspace, name: "check")
        #expect(check.terminationStatus == 0, "\(check.stderr)")
        #expect(check.stdout.contains("4 flows are valid (3 left out by tags)."), "\(check.stdout)")

        let run = try await run(["run", "ws", "--exclude-tags", "flaky", "--output", "out", "--workers", "2"], in: workspace, name: "run")
        #expect(run.terminationStatus == 1, "\(run.stderr)")
        let manifest = try RunManifestFile(workspace.file("out"))
        let ids = manifest.entries.compactMap { $0["id"] as? String }
        #expect(ids == ["ws/first.yaml", "ws/smoke/broken.yaml", "ws/smoke/after.yaml", "ws/other.yaml"], "\(ids)")
        #expect(manifest.statuses == ["passed", "failed", "skipped", "passed"], "\(run.stderr)")
        let skipped = (manifest.entries[2]["failures"] as? [[String: Any]])?.first?["message"] as? String ?? ""
        #expect(skipped.contains("broken failed before it") && skipped.contains("continueOnFailure: false"), "\(skipped)")
        #expect(run.stdout.contains("4 flows: 2 passed, 1 failed, 1 skipped"), "\(run.stdout)")
        #expect(run.stdout.contains("(3 left out by tags)"), "\(run.stdout)")
        // The ordered flows ran one at a time, before the others.
        #expect(run.stderr.contains("[1/4] passed ws/first.yaml"), "\(run.stderr)")
        #expect(run.stderr.contains("[2/4] failed ws/smoke/broken.yaml"), "\(run.stderr)")
    }

    @Test(
        "--include-tags adds to config.yaml's; tags that leave nothing, an ordered run with --shard, a malformed -e: exit 64 saying what to write"
    )
    func usageErrors() async throws {
        let workspace = try Self.workspace(
            [
                "config.yaml": "includeTags: [smoke]\n",
                "a.yaml": Self.flow(tags: ["smoke"]), "b.yaml": Self.flow(tags: ["regression"]), "c.yaml": Self.flow(tags: []),
            ])
        let both = try await run(["run", "ws", "--check", "--include-tags", "regression"], in: workspace, name: "both")
        #expect(both.terminationStatus == 0 && both.stdout.contains("2 flows are valid (1 left out by tags)."), "\(both.stdout)")

        let none = try await run(["run", "ws", "--check", "--exclude-tags", "smoke"], in: workspace, name: "none")
        #expect(none.terminationStatus == 64)
        #expect(
            none.stderr.contains(
                "error: the tags leave no flow to run (include: smoke; exclude: smoke); the flows' tags: regression, smoke"),
            "\(none.stderr)")

        let typo = try await run(["run", "ws/a.yaml", "ws/b.yaml", "--check", "--include-tags", "smkoe"], in: workspace, name: "typo")
        #expect(typo.terminationStatus == 64)
        #expect(typo.stderr.contains("did you mean 'smoke'?"), "\(typo.stderr)")

        // A lone flow file runs whatever the tags, as in Maestro.
        let lone = try await run(["run", "ws/b.yaml", "--check", "--include-tags", "smoke"], in: workspace, name: "lone")
        #expect(lone.terminationStatus == 0, "\(lone.stderr)")

        for bad in ["USERNAME", "=ada"] {
            let env = try await run(["run", "ws", "--check", "-e", bad], in: workspace, name: "env")
            #expect(env.terminationStatus == 64)
            #expect(env.stderr.contains("-e '\(bad)' is not a variable: write -e KEY=VALUE"), "\(env.stderr)")
        }
        let good = try await run(["run", "ws", "--check", "-e", "USERNAME=ada=lovelace", "--env", "EMPTY="], in: workspace, name: "good")
        #expect(good.terminationStatus == 0, "\(good.stderr)")

        let config = try await run(["run", "ws/config.yaml", "--check"], in: workspace, name: "config")
        #expect(config.terminationStatus == 64)
        #expect(config.stderr.contains("ws/config.yaml is a workspace's configuration, not a flow"), "\(config.stderr)")

        try Data("executionOrder:\n  flowsOrder: [a]\n".utf8).write(to: workspace.file("ws/config.yaml"))
        let sharded = try await run(["run", "ws", "--check", "--shard", "1/2"], in: workspace, name: "shard")
        #expect(sharded.terminationStatus == 64)
        #expect(sharded.stderr.contains("--shard cannot split a run with config.yaml's executionOrder"), "\(sharded.stderr)")
    }

    @Test("every mistake in config.yaml is found before anything runs, at config.yaml:line:column with the nearest spelling")
    func configErrors() async throws {
        let workspace = try Self.workspace(
            [
                "config.yaml": """
                flow:
                  - "*"
                excludeTags: {slow: true}
                executionOrder:
                  continueOnFailure: maybe
                  flowOrder: [a]
                """,
                "a.yaml": Self.flow(tags: []), "smoke/b.yaml": Self.flow(tags: []),
            ])
        let first = try await run(["run", "ws", "--check"], in: workspace, name: "first")
        #expect(first.terminationStatus == 64)
        let lines = first.stderr.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "ws/config.yaml:1:1: error: unknown field 'flow' in the workspace configuration; did you mean 'flows'? "
                    + "(fields: flows, includeTags, excludeTags, executionOrder, local)",
                "ws/config.yaml:3:14: error: 'excludeTags' must be a list of text, got a map",
                "ws/config.yaml:5:22: error: 'continueOnFailure' must be true or false, got 'maybe'",
                "ws/config.yaml:6:3: error: unknown field 'flowOrder' in executionOrder; did you mean 'flowsOrder'? "
                    + "(fields: continueOnFailure, flowsOrder)",
                "error: 4 problems in 1 file; nothing ran.",
            ], "\(first.stderr)")

        try Data("flows: [\"*\", \"smoek/*\", \"[a\"]\n".utf8).write(to: workspace.file("ws/config.yaml"))
        let globs = try await run(["run", "ws", "--check"], in: workspace, name: "globs")
        #expect(globs.terminationStatus == 64)
        #expect(globs.stderr.contains("ws/config.yaml:1:25: error: '[a' is not a glob: a '[' has no ']'"), "\(globs.stderr)")

        try Data("flows: [\"*\", \"smoek/*\"]\n".utf8).write(to: workspace.file("ws/config.yaml"))
        let folder = try await run(["run", "ws", "--check"], in: workspace, name: "folder")
        #expect(folder.terminationStatus == 64)
        #expect(
            folder.stderr.contains(
                "ws/config.yaml:1:14: error: 'smoek/*' names the folder 'smoek', which is not in ws; did you mean 'smoke'?"),
            "\(folder.stderr)")

        // A folder of one character (Foundation's parent path trapped on it: the run crashed).
        try Data("flows: [\"q/*\"]\n".utf8).write(to: workspace.file("ws/config.yaml"))
        let short = try await run(["run", "ws", "--check"], in: workspace, name: "short")
        #expect(short.terminationStatus == 64)
        #expect(short.stderr.contains("ws/config.yaml:1:9: error: 'q/*' names the folder 'q', which is not in ws"), "\(short.stderr)")

        try Data("flows: [\"other/*\"]\n".utf8).write(to: workspace.file("ws/config.yaml"))
        try FileManager.default.createDirectory(at: workspace.file("ws/other"), withIntermediateDirectories: true)
        let empty = try await run(["run", "ws", "--check"], in: workspace, name: "empty")
        #expect(empty.terminationStatus == 64)
        #expect(
            empty.stderr.contains("ws/config.yaml:1:8: error: the flows patterns (other/*) match no flow file in ws"), "\(empty.stderr)")

        try Data("executionOrder:\n  flowsOrder:\n    - a\n    - b\n    - aa\n".utf8).write(to: workspace.file("ws/config.yaml"))
        try Data(Self.flow(tags: []).utf8).write(to: workspace.file("ws/b.yaml"))
        let order = try await run(["run", "ws", "--check"], in: workspace, name: "order")
        #expect(order.terminationStatus == 64)
        #expect(order.stderr.contains("ws/config.yaml:5:7: error: flowsOrder names no flow 'aa'; did you mean 'a'?"), "\(order.stderr)")
    }
}
