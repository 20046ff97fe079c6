import Foundation
import ShowreelRecorder
import ShowreelTestSupport
import Testing

/// `showreel run` as CI runs it: the built binary on the repository's Fixtures/Flows.
@Suite("showreel run")
struct FlowRunTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// Every flow in Fixtures/Flows (others may be added beside the three the demo had).
    static var flows: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("Fixtures/Flows").path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    }

    func run(_ arguments: [String], in workspace: Workspace, name: String, timeout: Duration = .seconds(120)) async throws -> ChildProcess {
        var environment = workspace.environment
        environment["CI"] = "true"
        let process = try ChildProcess(
            try BuildProducts.showreel, arguments, environment: environment, in: workspace, name: name,
            directory: Self.repository)
        _ = try await process.waitForExit(timeout: timeout)
        return process
    }

    func json(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    @Test("run records every flow, writes manifest, JUnit, a report that plays in Chromium, and a reel with chapters")
    func runReportAndReel() async throws {
        let workspace = try Workspace()
        let output = workspace.file("Recordings")
        let run = try await run(
            ["run", "Fixtures/Flows", "--output", output.path, "--workers", "2", "--scale", "0.5", "--reel"],
            in: workspace, name: "run")
        #expect(run.terminationStatus == 0, "stderr: \(run.stderr)")
        let count = Self.flows.count
        #expect(Set(["countries", "hello", "signup"]).isSubset(of: Self.flows))
        #expect(run.stdout.contains("\(count) flows: \(count) passed, 0 failed"))
        #expect(run.stderr.contains("[\(count)/\(count)] passed"))

        let manifest = try json(output.appendingPathComponent("manifest.json"))
        let entries = try #require(manifest["entries"] as? [[String: Any]])
        #expect(entries.compactMap { $0["id"] as? String } == Self.flows.map { "Fixtures/Flows/\($0).yaml" })
        var durations: [String: Double] = [:]
        for entry in entries {
            let video = try #require(entry["video"] as? String)
            let info = try MediaProbe.probe(output.appendingPathComponent(video))
            #expect(info.codecName == "h264" && info.width == 390 && info.height == 844)
            let duration = try #require(entry["duration"] as? Double)
            #expect(abs(info.duration - duration) < 0.02, "\(video): \(info.duration) vs \(duration)")
            let times = (entry["steps"] as? [[String: Any]] ?? []).compactMap { $0["time"] as? Double }
            #expect(times.count >= 2 && times == times.sorted() && times.last! <= duration)
            durations[video] = duration
        }

        let junit = try String(contentsOf: output.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.contains("<testsuites name=\"Showreel flows\" tests=\"\(count)\" failures=\"0\""))
        #expect(junit.contains("file=\"Fixtures/Flows/hello.yaml\""))
        #expect(junit.contains("[[ATTACHMENT|\(output.path)/signup.mov]]"))

        // The report in a real browser: no console errors, every video decodable with the
        // manifest's duration, a click on a step seeks its video there.
        let results = try await HeadlessChromium.probe(
            output.appendingPathComponent("report.html"), script: Self.reportProbe, in: workspace)
        #expect((results["errors"] as? [String]) == [], "\(results)")
        let videos = try #require(results["videos"] as? [[String: Any]])
        #expect(videos.count == count)
        for video in videos {
            let src = try #require((video["src"] as? String)?.split(separator: "#").first.map(String.init))
            #expect((video["readyState"] as? Int ?? 0) >= 2, "\(video)")
            #expect(abs((video["duration"] as? Double ?? 0) - (durations[src] ?? -1)) < 0.05, "\(video)")
        }
        let clicks = try #require(results["clicks"] as? [[String: Any]])
        #expect(clicks.count == count)
        for click in clicks {
            let expected = try #require(click["expected"] as? Double)
            #expect(expected > 0)
            #expect(abs((click["currentTime"] as? Double ?? -1) - expected) < 0.01, "\(click)")
            #expect(click["current"] as? Bool == true)
        }
        #expect(results["filteredHidden"] as? Int == 0, "filtering to failed hides the passing flows: \(results)")

        // The reel: the videos copied behind title cards, one chapter per flow, in order.
        #expect(run.stdout.contains("\(count) chapters"), "\(run.stdout)")
        #expect(run.stdout.contains("frames copied"))
        let probe = try await ffprobeJSON(output.appendingPathComponent("reel.mp4"), ["-show_chapters"])
        let chapters = try #require(probe["chapters"] as? [[String: Any]])
        #expect(chapters.compactMap { ($0["tags"] as? [String: String])?["title"] } == entries.compactMap { $0["name"] as? String })
        #expect(
            chapters.first.flatMap { ($0["tags"] as? [String: String])?["title"] }
                == "Countries: Canada's details from the mock data source")
        let reel = try MediaProbe.probe(output.appendingPathComponent("reel.mp4"))
        let expectedLength = durations.values.reduce(0, +) + Double(count) * 1.5
        #expect(abs(reel.duration - expectedLength) < 0.1, "\(reel.duration) vs \(expectedLength)")
        #expect(reel.width == 390 && reel.height == 844)
    }

    @Test("shards split the flows between runs; report merge joins them into one report and JUnit")
    func shardsAndMerge() async throws {
        let workspace = try Workspace()
        var ids: [String] = []
        for shard in 1...2 {
            let run = try await run(
                [
                    "run", "Fixtures/Flows", "--shard", "\(shard)/2", "--output", workspace.file("shard-\(shard)").path,
                    "--scale", "0.25", "--workers", "1",
                ], in: workspace, name: "shard\(shard)")
            #expect(run.terminationStatus == 0, "stderr: \(run.stderr)")
            let entries = try json(workspace.file("shard-\(shard)/manifest.json"))["entries"] as? [[String: Any]] ?? []
            ids += entries.compactMap { $0["id"] as? String }
        }
        #expect(ids.sorted() == Self.flows.map { "Fixtures/Flows/\($0).yaml" })

        let merged = workspace.file("merged")
        let merge = try await run(
            ["report", "merge", workspace.file("shard-1").path, workspace.file("shard-2").path, "--output", merged.path],
            in: workspace, name: "merge")
        #expect(merge.terminationStatus == 0, "stderr: \(merge.stderr)")
        let count = Self.flows.count
        #expect(merge.stdout.contains("\(count) entries from 2 runs: \(count) passed, 0 failed"))
        let entries = try json(merged.appendingPathComponent("manifest.json"))["entries"] as? [[String: Any]] ?? []
        #expect(entries.count == count)
        for entry in entries {
            let video = try #require(entry["video"] as? String)
            #expect(video.hasPrefix("../shard-"))
            #expect(FileManager.default.fileExists(atPath: merged.appendingPathComponent(video).path), "\(video)")
        }
        let report = try String(contentsOf: merged.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(report.contains("\(count) flows: \(count) passed, 0 failed"))
        let junit = try String(contentsOf: merged.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.components(separatedBy: "<testcase ").count == count + 1)
    }

    @Test("an invalid flow stops the run before anything runs (64); a failing flow exits 1 with its step, time and screenshot")
    func invalidAndFailing() async throws {
        let workspace = try Workspace()
        try FileManager.default.createDirectory(at: workspace.file("bad"), withIntermediateDirectories: true)
        try Data("appId: dev.showreel.hello\n---\n- launchApp\n- tapOm: \"Tap me\"\n".utf8).write(to: workspace.file("bad/bad.yaml"))
        let invalid = try await run(
            ["run", workspace.file("bad").path, "--output", workspace.file("out-bad").path], in: workspace, name: "bad")
        #expect(invalid.terminationStatus == 64)
        #expect(
            invalid.stderr.contains("\(workspace.file("bad").path)/bad.yaml:4:3: error: unknown step 'tapOm'; did you mean 'tapOn'?"),
            "\(invalid.stderr)")
        #expect(invalid.stderr.contains("1 problem in 1 file; nothing ran."))
        #expect(!FileManager.default.fileExists(atPath: workspace.file("out-bad").path))

        let check = try await run(["run", "--check", "Fixtures/Flows"], in: workspace, name: "check")
        #expect(check.terminationStatus == 0 && check.stdout.contains("\(Self.flows.count) flows are valid."), "\(check.stderr)")

        try FileManager.default.createDirectory(at: workspace.file("failing"), withIntermediateDirectories: true)
        try Data(
            """
            appId: dev.showreel.hello
            ---
            - launchApp
            - tapOn: {id: tapButton}
            - assertVisible: "Tapped 5 times"
            - tapOn: {id: tapButton}
            """.utf8
        ).write(to: workspace.file("failing/fail.yaml"))
        let output = workspace.file("out-fail")
        let failing = try await run(
            ["run", workspace.file("failing/fail.yaml").path, "--output", output.path, "--scale", "0.25"],
            in: workspace, name: "fail")
        #expect(failing.terminationStatus == 1)
        #expect(failing.stdout.contains("1 flow: 0 passed, 1 failed"))
        #expect(
            failing.stderr.contains(
                "fail.yaml:5:3: error: assertVisible: \"Tapped 5 times\": No element matches elements[\"Tapped 5 times\"]. The screen shows:"
            ), "\(failing.stderr)")
        let entry = try #require((try json(output.appendingPathComponent("manifest.json"))["entries"] as? [[String: Any]])?.first)
        #expect(entry["status"] as? String == "failed")
        let failure = try #require((entry["failures"] as? [[String: Any]])?.first)
        #expect((failure["location"] as? String)?.hasSuffix("fail.yaml:5:3") == true)
        let time = try #require(failure["deviceTime"] as? Double)
        #expect(time >= 2 && time <= (entry["duration"] as? Double ?? 0) + 0.001, "the failure waited 2 s for the text")
        let steps = entry["steps"] as? [[String: Any]] ?? []
        #expect(steps.map { $0["status"] as? String } == ["passed", "passed", "failed"], "the step after the failure never ran")
        let screenshot = try #require(entry["screenshot"] as? String)
        let png = try Data(contentsOf: output.appendingPathComponent(screenshot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(try MediaProbe.probe(output.appendingPathComponent("fail.mov")).duration > 2, "the video is kept")
        let junit = try String(contentsOf: output.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.contains("failures=\"1\"") && junit.contains("<failure message=\""))
        let report = try String(contentsOf: output.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(report.contains("<button type=\"button\" class=\"step failed\""), "the failing step is highlighted")
        #expect(report.contains("<img src=\"\(screenshot)\""))
        #expect(report.contains("1 flow: 0 passed, 1 failed"))
    }

    @Test(
        "SIGINT stops the run between steps: videos so far are kept and playable, flows not started are skipped, the report is written (130)"
    )
    func interrupt() async throws {
        let workspace = try Workspace()
        let folder = workspace.file("many")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let signup = try Data(contentsOf: Self.repository.appendingPathComponent("Fixtures/Flows/signup.yaml"))
        // Enough flows that the run is still going when the signal comes, however fast a flow
        // runs and however late a busy machine lets this test see the first one finish.
        let flowCount = 40
        for index in 1...flowCount { try signup.write(to: folder.appendingPathComponent(String(format: "signup-%02d.yaml", index))) }
        let output = workspace.file("out")
        var environment = workspace.environment
        environment["CI"] = "true"
        let run = try ChildProcess(
            try BuildProducts.showreel, ["run", folder.path, "--workers", "1", "--output", output.path],
            environment: environment, in: workspace, name: "interrupted")
        try await run.send(SIGINT, when: "the first flow finished") { run.stderr.contains("[1/\(flowCount)]") }
        #expect(try await run.waitForExit(timeout: .seconds(60)) == 130, "stderr: \(run.stderr)")
        #expect(run.stderr.contains("Interrupted:"))
        let entries = try #require(try json(output.appendingPathComponent("manifest.json"))["entries"] as? [[String: Any]])
        #expect(entries.count == flowCount)
        #expect(entries.first?["status"] as? String == "passed")
        #expect(entries.last?["status"] as? String == "skipped")
        for entry in entries {
            guard let video = entry["video"] as? String else { continue }
            #expect(try MediaProbe.probe(output.appendingPathComponent(video)).duration > 0, "\(video)")
        }
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("report.html").path))
    }

    /// Runs in the report page: collects errors from the first line on, waits for every video,
    /// clicks each entry's third step and waits for the seek, then tries the "failed" filter.
    static let reportProbe = """
        window.__errors = [];
        window.addEventListener("error", function (e) { __errors.push(String(e.message)); }, true);
        (function () { var original = console.error; console.error = function () { __errors.push(Array.prototype.join.call(arguments, " ")); original.apply(console, arguments); }; })();
        window.addEventListener("load", async function () {
          var videos = Array.from(document.querySelectorAll("video"));
          await Promise.all(videos.map(function (v) {
            return v.readyState >= 2 ? 0 : new Promise(function (r) { v.addEventListener("loadeddata", r); v.addEventListener("error", r); });
          }));
          var clicks = [];
          for (const s of document.querySelectorAll("section.entry")) {
            var b = s.querySelectorAll("button.step")[2], v = s.querySelector("video");
            if (!b || !v) continue;
            var seeked = new Promise(function (r) { v.addEventListener("seeked", r, { once: true }); });
            b.click();
            await seeked;
            clicks.push({ expected: parseFloat(b.dataset.time), currentTime: v.currentTime, current: b.classList.contains("current") });
          }
          document.querySelector("#filters button[data-filter=failed]").click();
          var shown = Array.from(document.querySelectorAll("section.entry")).filter(function (s) { return s.offsetParent !== null; }).length;
          var result = { errors: __errors, clicks: clicks, filteredHidden: shown,
            videos: videos.map(function (v) { return { src: v.getAttribute("src"), readyState: v.readyState, duration: v.duration, error: v.error && v.error.code }; }) };
          var pre = document.createElement("pre");
          pre.id = "test-results";
          pre.textContent = JSON.stringify(result);
          document.body.appendChild(pre);
        });
        """
}
