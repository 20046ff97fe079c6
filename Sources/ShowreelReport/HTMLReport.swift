import Foundation
import ShowreelWire

/// The run as one self-contained HTML page beside the videos (no network, no external
/// scripts): a summary, filters for failed and passed, and per entry its status, duration,
/// video, and steps; clicking a step seeks the video to it; a failure shows its step, error
/// and screenshot.
package struct HTMLReport: Sendable {
    package var manifest: RunManifest
    /// What `showreel diff` found against a baseline run, shown above the entries.
    package var diff: RunDiff?
    /// Step traces by entry id (read from beside the videos by `write(to:)`), embedded whole.
    package var traces: [String: RunTrace] = [:]
    /// Sections rendered by earlier writes of this run's report, reused where nothing changed.
    package var sections: ReportSections?
    /// The trace files `write(to:)` found, by entry id, as `sections` tells them apart.
    var traceStamps: [String: ReportSections.TraceStamp] = [:]

    package static let fileName = "report.html"

    package init(manifest: RunManifest, diff: RunDiff? = nil) {
        self.manifest = manifest
        self.diff = diff
    }

    package func render() -> String {
        let e = Markup.escape
        let summary =
            "\(manifest.entries.count) \(manifest.entries.count == 1 ? "flow" : "flows"): "
            + manifest.outcome
            + " · \(Markup.seconds(manifest.duration)) s of video"
        let created = ISO8601DateFormatter().string(from: manifest.createdAt)
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(e(manifest.title))</title>
            <style>\(Self.style)\(Self.traceStyle)\(Self.cellStyle)</style>
            </head>
            <body>
            <header>
            <h1>\(e(manifest.title))</h1>
            <p id="summary">\(e(summary))</p>
            <p class="muted">Recorded \(e(created))</p>
            <nav id="filters">
            <button type="button" data-filter="all" class="selected">All (\(manifest.entries.count))</button>
            <button type="button" data-filter="failed">Failed (\(manifest.count(.failed)))</button>
            <button type="button" data-filter="passed">Passed (\(manifest.count(.passed)))</button>
            </nav>
            \(cellFilters())
            </header>
            <main>
            \(diff.map(diffSection) ?? "")
            \(entrySections())
            </main>
            <script>\(Self.traceScript)\(Self.script)\(Self.cellScript)</script>
            </body>
            </html>

            """
    }

    func section(for entry: ManifestEntry, index: Int) -> String {
        guard let sections else { return renderedSection(for: entry, index: index) }
        return sections.section(for: entry, index: index, trace: traceStamps[entry.id]) { renderedSection(for: entry, index: index) }
    }

    private func renderedSection(for entry: ManifestEntry, index: Int) -> String {
        let e = Markup.escape
        // Starting a hair after 0 shows the launched app rather than the boot frame before it.
        let trace = traces[entry.id]
        // The poster is the first screen the app drew (the boot frame before it is black).
        // (A trace read from disk may point past its pictures: then there is no poster.)
        let poster =
            trace.flatMap { trace in
                trace.steps.lazy.compactMap(\.after).first.flatMap { trace.pictures.indices.contains($0) ? trace.pictures[$0] : nil }
            }.map { " poster=\"\(e($0))\"" } ?? ""
        let video =
            entry.video.map {
                "<video id=\"video-\(index)\" controls muted playsinline preload=\"auto\"\(poster) src=\"\(e(Self.href($0)))#t=0.05\"></video>"
                    + (trace == nil ? "" : "<div class=\"target\" hidden></div>")
            } ?? "<p class=\"muted\">No video.</p>"
        let traceIndex = Self.traceIndex(of: entry.steps, in: trace)
        let steps = entry.steps.enumerated().map { position, step in
            let location = step.location.map { " <span class=\"loc\">\(e($0))</span>" } ?? ""
            let traced = traceIndex[position].map { " data-trace=\"\($0)\"" } ?? ""
            return "<li><button type=\"button\" class=\"step \(step.status.rawValue)\" data-time=\"\(step.time)\"\(traced)>"
                + "<span class=\"time\">\(Self.clock(step.time))</span> \(e(step.title))\(location)</button></li>"
        }.joined(separator: "\n")
        let traceData =
            trace.map {
                "<script type=\"application/json\" class=\"trace-data\">\(Self.scriptJSON($0))</script>"
                    + "<div class=\"trace\" hidden></div>"
            } ?? ""
        let failures = entry.failures.map { failure in
            let location = failure.location.map { "<div class=\"loc\">\(e($0))</div>" } ?? ""
            let time =
                failure.deviceTime.map { " <button type=\"button\" class=\"step seek\" data-time=\"\($0)\">at \(Self.clock($0))</button>" }
                ?? ""
            return "<div class=\"failure\">\(location)<pre>\(e(failure.message))</pre>\(time)</div>"
        }.joined(separator: "\n")
        let screenshot =
            entry.screenshot.map {
                "<figure><img src=\"\(e(Self.href($0)))\" alt=\"Screen when \(e(entry.name)) failed\"><figcaption>The screen when it failed</figcaption></figure>"
            } ?? ""
        let attachments =
            entry.attachments.isEmpty
            ? ""
            : "<p class=\"attachments\">"
                + entry.attachments.map { "<a href=\"\(e(Self.href($0)))\">\(e($0))</a>" }.joined(separator: " · ") + "</p>"
        return """
            <section class="entry \(entry.status.rawValue)" data-status="\(entry.status.rawValue)" id="entry-\(index)">
            <h2>\(e(entry.nameInCell)) <span class="badge">\(entry.status.rawValue)</span></h2>
            <p class="muted">\(e(entry.id)) · \(Markup.seconds(entry.duration)) s</p>
            <div class="body">
            <div class="player">\(video)</div>
            <div class="details">
            \(failures)
            <ol class="steps">
            \(steps)
            </ol>
            \(traceData)
            \(screenshot)
            \(attachments)
            </div>
            </div>
            </section>
            """
    }

    /// A relative file path as a URL reference (spaces and the like percent-encoded).
    static func href(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    }

    /// 75.25 -> "1:15.2"
    static func clock(_ seconds: Double) -> String {
        let minutes = Int(seconds) / 60
        return String(format: "%d:%04.1f", minutes, seconds - Double(minutes * 60))
    }

    /// Writes the page, with the step traces found beside the entries' videos (only those of
    /// sections to render: not of those `sections` keeps).
    package func write(to url: URL) throws {
        var report = self
        let folder = url.deletingLastPathComponent()
        for (index, entry) in manifest.entries.enumerated() where report.traces[entry.id] == nil {
            guard let video = entry.video else { continue }
            let path = RunTrace.path(forVideo: video)
            let file = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
            if let sections {
                let stamp = ReportSections.TraceStamp(of: file)
                report.traceStamps[entry.id] = stamp
                if sections.has(entry, index: index, trace: stamp) { continue }
            }
            if let trace = try? RunTrace.load(from: file) { report.traces[entry.id] = trace }
        }
        let page = report.render()
        sections?.keepOnlyUsed()
        try Data(page.utf8).writeReplacing(url)
    }

    static let style = """
        body { font: 15px/1.45 system-ui, -apple-system, "DejaVu Sans", sans-serif; margin: 0; color: #1c1c1e; background: #f2f2f7; }
        header { padding: 1.5rem 2rem .5rem; }
        h1 { margin: 0 0 .25rem; }
        .muted { color: #6e6e73; margin: .2rem 0; font-size: .9rem; }
        nav button { font: inherit; border: 1px solid #c7c7cc; background: white; border-radius: 16px; padding: .2rem .9rem; margin-right: .3rem; cursor: pointer; }
        nav button.selected { background: #1c1c1e; color: white; border-color: #1c1c1e; }
        main { padding: 0 2rem 2rem; }
        section.entry { background: white; border-radius: 12px; padding: 1rem 1.25rem; margin: 1rem 0; border-left: 6px solid #34c759; }
        section.entry.failed { border-left-color: #ff3b30; }
        section.entry.skipped { border-left-color: #8e8e93; }
        section.entry.interrupted { border-left-color: #ff9500; }
        section.hidden { display: none; }
        section.diff { background: white; border-radius: 12px; padding: 1rem 1.25rem; margin: 1rem 0; border-left: 6px solid #0a84ff; }
        section.diff table { border-collapse: collapse; width: 100%; font-size: .9rem; }
        section.diff td, section.diff th { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid #e5e5ea; vertical-align: top; }
        section.diff tr.changed td:first-child, section.diff tr.only-in-baseline td:first-child, section.diff tr.only-in-current td:first-child { color: #c1121f; font-weight: 600; }
        section.diff img { max-width: 100%; width: 640px; border: 1px solid #d1d1d6; border-radius: 6px; display: block; margin-top: .4rem; }
        h2 { margin: 0; font-size: 1.15rem; }
        .badge { font-size: .75rem; padding: .1rem .45rem; border-radius: 4px; color: white; background: #34c759; vertical-align: middle; }
        .failed .badge { background: #ff3b30; }
        .skipped .badge { background: #8e8e93; }
        .interrupted .badge { background: #ff9500; }
        .body { display: flex; gap: 1.5rem; align-items: flex-start; flex-wrap: wrap; margin-top: .75rem; }
        video { width: 260px; background: black; border-radius: 18px; display: block; }
        .details { flex: 1; min-width: 280px; }
        ol.steps { list-style: none; padding: 0; margin: 0; }
        button.step { font: inherit; text-align: left; width: 100%; border: 0; background: none; padding: .2rem .4rem; border-radius: 6px; cursor: pointer; }
        button.step:hover { background: #e5e5ea; }
        button.step.current { background: #d1e7ff; }
        button.step.failed { background: #ffe5e3; color: #c1121f; font-weight: 600; }
        button.step.interrupted { background: #fff1dc; color: #a05a00; font-weight: 600; }
        button.seek { width: auto; color: #0a84ff; }
        .time { font-variant-numeric: tabular-nums; color: #6e6e73; display: inline-block; width: 3.5rem; }
        .loc { color: #8e8e93; font-size: .8rem; }
        .failure { background: #fff2f1; border: 1px solid #ffc9c4; border-radius: 8px; padding: .5rem .75rem; margin-bottom: .75rem; }
        .failure pre { white-space: pre-wrap; margin: .25rem 0; font-size: .85rem; }
        figure { margin: .75rem 0 0; }
        figure img { width: 200px; border-radius: 14px; border: 1px solid #d1d1d6; }
        figcaption { font-size: .8rem; color: #6e6e73; }
        """

    static let script = """
        "use strict";
        document.addEventListener("click", function (event) {
          var step = event.target.closest("button.step");
          if (step) {
            // A diff row's time seeks the entry it names, elsewhere on the page.
            var section = step.dataset.entry !== undefined ? document.getElementById("entry-" + step.dataset.entry) : step.closest("section");
            var video = section && section.querySelector("video");
            if (!video) return;
            video.currentTime = parseFloat(step.dataset.time);
            if (step.dataset.entry !== undefined) section.scrollIntoView();
            if (step.dataset.trace !== undefined) showTrace(section, parseInt(step.dataset.trace, 10));
            section.querySelectorAll("button.step.current").forEach(function (b) { b.classList.remove("current"); });
            step.classList.add("current");
            return;
          }
          var filter = event.target.closest("#filters button");
          if (filter) {
            document.querySelectorAll("#filters button").forEach(function (b) { b.classList.toggle("selected", b === filter); });
            document.querySelectorAll("section.entry").forEach(function (s) {
              s.classList.toggle("hidden", filter.dataset.filter !== "all" && s.dataset.status !== filter.dataset.filter);
            });
          }
        });
        """
}
