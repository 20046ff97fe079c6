import Foundation
import ShowreelGraphics
import ShowreelRecorder
import ShowreelReport
import ShowreelTestSupport
import Testing

/// The step trace as a reader of the report uses it, in real headless Chromium: a click on a
/// step seeks the video, shows that step's pictures and element tree, and draws the element it
/// acted on over the video.
@Suite("Report step traces")
struct ReportTraceTests {
    static let countries = FlowRunTests.repository.appendingPathComponent("Fixtures/Flows/countries.yaml").path

    @Test("a flow's trace: each step's times, target, pictures and tree; in the report the tapped row is outlined over the video")
    func traceInTheReport() async throws {
        let workspace = try Workspace()
        let output = workspace.file("out")
        let run = try await FlowRunTests().run(["run", Self.countries, "--output", output.path], in: workspace, name: "run")
        #expect(run.terminationStatus == 0, "\(run.stderr)")
        let trace = try RunTrace.load(from: output.appendingPathComponent("countries.trace.json"))
        let manifest = try RunManifest.load(from: output.appendingPathComponent("manifest.json"))
        let steps = try #require(manifest.entries.first?.steps)
        #expect(trace.steps.map(\.title) == steps.map(\.title), "one trace step per flow step")
        #expect(zip(trace.steps, steps).allSatisfy { abs($0.start - $1.time) < 0.002 })
        let tap = try #require(trace.steps.first { $0.title == "tapOn: \"Canada\"" })
        let target = try #require(tap.target)
        #expect(tap.end > tap.start && target.width > 300 && target.height > 30 && target.height < 60, "\(tap)")
        let before = try #require(tap.before), after = try #require(tap.after)
        #expect(before != after && [before, after].allSatisfy { trace.pictures[$0].hasPrefix("data:image/jpeg;base64,") })
        // A screen is kept once: each step starts on the screen the one before it ended on.
        #expect(trace.pictures.count < 2 * trace.steps.count)
        let labels = tap.tree.flatMap(Self.labels)
        #expect(labels.contains("Canada") && labels.contains("Japan"), "the tree when the tap started lists the rows")

        let report = output.appendingPathComponent("report.html")
        let results = try await HeadlessChromium.probe(report, script: Self.probe, in: workspace)
        #expect((results["errors"] as? [String]) == [], "\(results)")
        #expect(abs((results["currentTime"] as? Double ?? -1) - tap.start) < 0.01, "\(results)")
        #expect(results["panelShown"] as? Bool == true && results["pictures"] as? Int == 2, "\(results)")
        #expect((results["treeNodes"] as? Int ?? 0) > 10 && results["acted"] as? String == "Canada", "\(results)")
        #expect((results["search"] as? Int ?? 0) >= 1, "searching the tree for 'japan' marks its row: \(results)")
        #expect(results["poster"] as? Bool == true, "the poster is the first drawn screen")
        let box = try #require(results["box"] as? [String: Double])
        let expected = try #require(results["expected"] as? [String: Double])
        for key in ["x", "y", "width", "height"] {
            #expect(abs((box[key] ?? -99) - (expected[key] ?? 99)) < 1.5, "the outline's \(key): \(box) against \(expected)")
        }

        // What a person sees: the outline's colour around the tapped row, over the video.
        let picture = workspace.file("report.png")
        try await HeadlessChromium.screenshot(report, script: Self.clickScript, width: 1100, height: 900, to: picture, in: workspace)
        let pixels = try #require(try await decodedFrames(picture).first?.pixels)
        let left = Int(box["x"]!) + 1, top = Int(box["y"]!) + 1, middle = Int(box["y"]! + box["height"]! / 2)
        for (x, y) in [(left, middle), (Int(box["x"]! + box["width"]! / 2), top)] {
            let pixel = pixels.pixel(x: x, y: y)
            #expect(pixel.red > 200 && pixel.green < 100 && pixel.blue > 40 && pixel.blue < 140, "outline pixel at (\(x), \(y)): \(pixel)")
        }
    }

    /// Text that HTML, JSON and scripts each read specially, in names, steps and captions.
    static let hostile = "<!-- a </script><script>window.__injected = 1</script> & \"q\" 'a' \\ \u{2028} -->"

    /// `text` inside a YAML double-quoted scalar.
    static func yaml(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\u{2028}", with: "\\u2028")
    }

    @Test("hostile names, steps and captions (<!--, </script>, quotes): no page of ours logs an error in Chromium, every trace parses")
    func hostileTextInTheReport() async throws {
        let workspace = try Workspace()
        let flows = workspace.file("flows")
        try FileManager.default.createDirectory(at: flows, withIntermediateDirectories: true)
        let flow = flows.appendingPathComponent("evil <!-- x --> & 'q' #1?.yaml")
        try Data(
            """
            appId: dev.showreel.hello
            name: "\(Self.yaml(Self.hostile))"
            ---
            - launchApp
            - caption: "<!-- note"
            - tapOn: {id: tapButton}
            - caption: "\(Self.yaml(Self.hostile))"
            - assertNotVisible: "\(Self.yaml(Self.hostile))"
            - tapOn: {id: tapButton}
            """.utf8
        ).write(to: flow)
        let output = workspace.file("out")
        let run = try await FlowRunTests().run(["run", flow.path, "--output", output.path], in: workspace, name: "run")
        #expect(run.terminationStatus == 0, "\(run.stderr)")
        let merged = workspace.file("merged")
        let merge = try await FlowRunTests().run(["report", "merge", output.path, "--output", merged.path], in: workspace, name: "merge")
        #expect(merge.terminationStatus == 0, "\(merge.stderr)")
        for report in [output, merged].map({ $0.appendingPathComponent("report.html") }) {
            let html = try String(contentsOf: report, encoding: .utf8)
            #expect(!html.contains("<\\!--"), "no JSON escape that JSON does not have")
            let results = try await HeadlessChromium.probe(report, script: Self.hostileProbe, in: workspace)
            #expect((results["errors"] as? [String]) == [], "\(report.path): \(results)")
            #expect(results["traces"] as? Int == 1 && results["parsed"] as? Int == 1, "\(results)")
            #expect((results["clicks"] as? Int ?? 0) >= 5 && results["panel"] as? Bool == true, "\(results)")
            #expect(results["injected"] as? Bool == false, "a name ran as a script: \(results)")
            #expect(results["heading"] as? String == Self.hostile, "the name reads as written: \(results)")
            #expect((results["titles"] as? [String] ?? []).contains("caption: \"<!-- note\""), "\(results)")
        }
    }

    /// Parses every embedded trace, clicks every step (which shows its trace), and reports errors.
    static let hostileProbe = """
        window.__errors = [];
        window.addEventListener("error", function (e) {
          __errors.push(String(e.message || (e.target && (e.target.currentSrc || e.target.src || e.target.tagName)) || "error"));
        }, true);
        (function () { var original = console.error; console.error = function () { __errors.push(Array.prototype.join.call(arguments, " ")); original.apply(console, arguments); }; })();
        window.addEventListener("load", function () {
          var scripts = document.querySelectorAll("script.trace-data"), parsed = 0;
          scripts.forEach(function (s) { try { JSON.parse(s.textContent); parsed += 1; } catch (e) { __errors.push("trace JSON: " + e.message); } });
          var steps = Array.from(document.querySelectorAll("section.entry button.step"));
          steps.forEach(function (b) { b.click(); });
          var panel = document.querySelector("section.entry div.trace");
          var trace = document.querySelector("section.entry script.trace-data");
          var titles = [];
          try { titles = JSON.parse(trace.textContent).steps.map(function (s) { return s.title; }); } catch (e) {}
          var heading = document.querySelector("section.entry h2");
          var result = { errors: __errors, traces: scripts.length, parsed: parsed, clicks: steps.length,
            panel: !!panel && !panel.hidden, injected: window.__injected === 1,
            heading: heading ? heading.firstChild.textContent.trim() : null, titles: titles };
          var pre = document.createElement("pre");
          pre.id = "test-results";
          pre.textContent = JSON.stringify(result);
          document.body.appendChild(pre);
        });
        """

    static func labels(_ element: RunTrace.Element) -> [String] {
        [element.label] + element.children.flatMap(labels)
    }

    /// Clicks the countries flow's tap step once its video can seek.
    static let clickScript = """
        window.addEventListener("load", function () {
          var section = document.querySelector("section.entry"), video = section.querySelector("video");
          var step = Array.from(section.querySelectorAll("button.step")).find(function (b) { return b.textContent.indexOf("tapOn") >= 0; });
          if (video.readyState >= 1) step.click(); else video.addEventListener("loadedmetadata", function () { step.click(); }, { once: true });
        });
        """

    static let probe = """
        window.__errors = [];
        window.addEventListener("error", function (e) { __errors.push(String(e.message)); }, true);
        (function () { var original = console.error; console.error = function () { __errors.push(Array.prototype.join.call(arguments, " ")); original.apply(console, arguments); }; })();
        window.addEventListener("load", async function () {
          var section = document.querySelector("section.entry"), video = section.querySelector("video");
          if (video.readyState < 1) await new Promise(function (r) { video.addEventListener("loadedmetadata", r, { once: true }); });
          var step = Array.from(section.querySelectorAll("button.step")).find(function (b) { return b.textContent.indexOf("tapOn") >= 0; });
          var seeked = new Promise(function (r) { video.addEventListener("seeked", r, { once: true }); });
          step.click();
          await seeked;
          var panel = section.querySelector("div.trace"), box = section.querySelector("div.target");
          var trace = JSON.parse(section.querySelector("script.trace-data").textContent);
          var traced = trace.steps[parseInt(step.dataset.trace, 10)];
          var v = video.getBoundingClientRect(), b = box.getBoundingClientRect(), scale = v.width / trace.screen.width;
          var acted = panel.querySelector(".node.acted");
          var search = panel.querySelector("input");
          search.value = "japan";
          search.dispatchEvent(new Event("input"));
          var result = { errors: __errors, currentTime: video.currentTime, panelShown: !panel.hidden,
            pictures: Array.from(panel.querySelectorAll("img")).filter(function (i) { return i.complete && i.naturalWidth > 0; }).length,
            treeNodes: panel.querySelectorAll(".node").length,
            acted: acted ? acted.dataset.text.indexOf("canada") >= 0 ? "Canada" : acted.dataset.text : null,
            search: panel.querySelectorAll(".node.match").length,
            poster: (video.getAttribute("poster") || "").indexOf("data:image/jpeg") === 0,
            box: box.hidden ? null : { x: b.left, y: b.top, width: b.width, height: b.height },
            expected: { x: v.left + traced.target.x * scale, y: v.top + (v.height - trace.screen.height * scale) / 2 + traced.target.y * scale,
                        width: traced.target.width * scale, height: traced.target.height * scale } };
          var pre = document.createElement("pre");
          pre.id = "test-results";
          pre.textContent = JSON.stringify(result);
          document.body.appendChild(pre);
        });
        """
}
