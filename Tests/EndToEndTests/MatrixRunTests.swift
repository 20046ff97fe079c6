import Foundation
import ShowreelRecorder
import ShowreelTestSupport
import Testing

/// `showreel run` over a matrix of languages, devices and appearances, and App Store previews,
/// as the built binary does them.
@Suite("showreel run: matrix runs and App Store previews")
struct MatrixRunTests {
    func run(_ arguments: [String], in workspace: Workspace, name: String) async throws -> ChildProcess {
        try await FlowRunTests().run(arguments, in: workspace, name: name)
    }

    func manifestEntries(_ folder: URL) throws -> [[String: Any]] {
        try #require(try FlowRunTests().json(folder.appendingPathComponent("manifest.json"))["entries"] as? [[String: Any]])
    }

    @Test("Every cell gets its folder, its manifest cell and JUnit name; shards split the cells; the report filters each axis in Chromium")
    func smallMatrix() async throws {
        let workspace = try Workspace()
        let output = workspace.file("Recordings")
        let axes = ["--language", "en,de", "--device", "phone,phone-small", "--appearance", "dark"]
        let run = try await self.run(
            ["run", "Fixtures/Flows/hello.yaml", "--output", output.path, "--workers", "2"] + axes, in: workspace, name: "run")
        #expect(run.terminationStatus == 0, "stderr: \(run.stderr)")
        let cells = ["en-phone-dark", "en-phone-small-dark", "de-phone-dark", "de-phone-small-dark"]
        let entries = try manifestEntries(output)
        #expect(entries.compactMap { $0["id"] as? String } == cells.map { "Fixtures/Flows/hello.yaml [\($0)]" })
        for (entry, cell) in zip(entries, cells) {
            #expect(entry["video"] as? String == "\(cell)/hello.mov")
            let parts = try #require(entry["cell"] as? [String: String])
            #expect("\(parts["language"] ?? "")-\(parts["device"] ?? "")-\(parts["appearance"] ?? "")" == cell)
            let info = try MediaProbe.probe(output.appendingPathComponent("\(cell)/hello.mov"))
            #expect(
                cell.contains("small") ? (info.width, info.height) == (376, 668) : (info.width, info.height) == (390, 844), "even sizes")
        }
        let junit = try String(contentsOf: output.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(
            junit.contains("name=\"Hello: tap the button three times [de-phone-small-dark]\" file=\"Fixtures/Flows/hello.yaml\""),
            "\(junit)")

        let results = try await HeadlessChromium.probe(
            output.appendingPathComponent("report.html"), script: Self.filterProbe, in: workspace)
        #expect((results["errors"] as? [String]) == [], "\(results)")
        #expect(results["axes"] as? [String] == ["language", "device", "appearance"])
        #expect(results["all"] as? [String] == cells)
        #expect(results["german"] as? [String] == ["de-phone-dark", "de-phone-small-dark"])
        #expect(results["germanSmall"] as? [String] == ["de-phone-small-dark"])

        // Shards split the cells' jobs between them, every job in exactly one.
        var sharded: [String] = []
        for index in 1...2 {
            let folder = workspace.file("shard-\(index)")
            let shard = try await self.run(
                ["run", "Fixtures/Flows/hello.yaml", "--output", folder.path, "--shard", "\(index)/2"] + axes,
                in: workspace, name: "shard-\(index)")
            #expect(shard.terminationStatus == 0, "stderr: \(shard.stderr)")
            let ids = try manifestEntries(folder).compactMap { $0["id"] as? String }
            #expect(ids.count == 2)
            sharded += ids
        }
        #expect(sharded.sorted() == cells.map { "Fixtures/Flows/hello.yaml [\($0)]" }.sorted())

        // --check validates the flows once; a bad value is one sentence, exit 64, nothing made.
        let check = try await self.run(
            ["run", "Fixtures/Flows/hello.yaml", "Fixtures/Flows/countries.yaml", "--check"] + axes, in: workspace, name: "check")
        #expect(check.terminationStatus == 0 && check.stdout == "2 flows are valid.\n", "\(check.stdout)\(check.stderr)")
        let bad = try await self.run(
            ["run", "Fixtures/Flows/hello.yaml", "--output", workspace.file("bad").path, "--language", "en,deutsch"],
            in: workspace, name: "bad")
        #expect(bad.terminationStatus == 64)
        #expect(
            bad.stderr == "error: 'deutsch' is not a language code: use the form xx or xx-YY (en, de, ja, ar, pt-BR), comma-separated.\n")
        #expect(!FileManager.default.fileExists(atPath: workspace.file("bad").path))
    }

    @Test("--app-store-previews writes a preview per flow and cell that meets the rules; showreel preview makes and checks them")
    func appStorePreviews() async throws {
        let workspace = try Workspace()
        let output = workspace.file("Recordings")
        let base = [
            "run", "Fixtures/Flows/hello.yaml", "--output", output.path, "--device", "phone-6.9", "--app-store-previews", "iphone-6.9",
        ]
        // A flow of a few seconds is too short: said, with what to do, and exit 1.
        let short = try await self.run(base, in: workspace, name: "short")
        #expect(short.terminationStatus == 1)
        #expect(
            short.stderr.contains("hello.mov lasts ") && short.stderr.contains(" s; an app preview lasts 15 to 30 s: add --hold-last"),
            "\(short.stderr)")

        let run = try await run(base + ["--hold-last"], in: workspace, name: "run")
        #expect(run.terminationStatus == 0, "stderr: \(run.stderr)")
        let preview = "app-store-previews/hello-en-phone-6.9-light-iphone-6.9.mp4"
        let entry = try #require(try manifestEntries(output).first)
        #expect(entry["attachments"] as? [String] == [preview])
        // Recorded at the device's pixels (880x1912) for a sharp preview, not at half size.
        let video = try MediaProbe.probe(output.appendingPathComponent("en-phone-6.9-light/hello.mov"))
        #expect((video.width, video.height) == (880, 1912))
        #expect(try await offPool { try AppStorePreviewCheck.problems(of: output.appendingPathComponent(preview)) } == [])

        let check = try await self.run(
            [
                "preview", "--check", output.appendingPathComponent(preview).path,
                output.appendingPathComponent("en-phone-6.9-light/hello.mov").path,
            ], in: workspace, name: "check")
        #expect(check.terminationStatus == 1)
        let lines = check.stdout.split(separator: "\n")
        #expect(lines.first?.hasSuffix("-iphone-6.9.mp4: meets the App Store app preview rules") == true, "\(check.stdout)")
        #expect(lines.dropFirst().allSatisfy { $0.contains("hello.mov: ") } && lines.count >= 6, "\(check.stdout)")

        // The run's folder given to `showreel preview`: the same preview, named the same.
        let again = try await self.run(
            ["preview", output.path, "--class", "iphone-6.9", "--hold-last", "--output", workspace.file("again").path],
            in: workspace, name: "again")
        #expect(again.terminationStatus == 0, "\(again.stderr)")
        #expect(FileManager.default.fileExists(atPath: workspace.file("again/hello-en-phone-6.9-light-iphone-6.9.mp4").path))

        // A device of no asked class's shape stops the run before anything runs.
        let mismatch = try await self.run(
            [
                "run", "Fixtures/Flows/hello.yaml", "--output", workspace.file("m").path, "--device", "phone",
                "--app-store-previews", "ipad-13",
            ], in: workspace, name: "mismatch")
        #expect(mismatch.terminationStatus == 64)
        #expect(
            mismatch.stderr.contains("The phone device (780x1688) has the shape of none of the preview classes asked for (ipad-13)"),
            "\(mismatch.stderr)")
        let badClass = try await self.run(["preview", "x.mov", "--class", "iphone-7"], in: workspace, name: "badclass")
        #expect(badClass.terminationStatus == 64)
    }

    /// Clicks the language filter's "de", then the device filter's "phone-small", and reports
    /// which cells show after each.
    static let filterProbe = """
        window.__errors = [];
        window.addEventListener("error", function (e) { __errors.push(String(e.message)); }, true);
        window.addEventListener("load", function () {
          function shown() {
            return Array.from(document.querySelectorAll("div.cell")).filter(function (c) { return getComputedStyle(c).display !== "none"; })
              .map(function (c) { return c.dataset.cell; });
          }
          function click(axis, value) { document.querySelector('nav.cell-filter button[data-axis="' + axis + '"][data-value="' + value + '"]').click(); }
          var results = { errors: __errors, axes: Array.from(document.querySelectorAll("nav.cell-filter")).map(function (n) { return n.dataset.axis; }), all: shown() };
          click("language", "de");
          results.german = shown();
          click("device", "phone-small");
          results.germanSmall = shown();
          var pre = document.createElement("pre");
          pre.id = "test-results";
          pre.textContent = JSON.stringify(results);
          document.body.appendChild(pre);
        });
        """
}
