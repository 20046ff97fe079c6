import Foundation

extension HTMLReport {
    /// Which trace step each manifest step is: the trace lists the steps that ran on the device
    /// in order, the manifest every step (with `runFlow` and `repeat`, which the trace leaves
    /// out), so they are matched by title in order.
    static func traceIndex(of steps: [ManifestEntry.Step], in trace: RunTrace?) -> [Int?] {
        guard let trace else { return steps.map { _ in nil } }
        var next = 0
        return steps.map { step in
            guard next < trace.steps.count, trace.steps[next].title == step.title else { return nil }
            defer { next += 1 }
            return next
        }
    }

    /// A trace as JSON that can sit inside a `<script>` element: every `<` is written `\u003c`,
    /// which JSON reads as the same character and HTML never takes for a tag, so neither
    /// `</script>` nor `<!--` (which switches the parser into a mode a later `<script` can trap it
    /// in) can end or change the element. (`<\!` would not do: JSON has no such escape.)
    static func scriptJSON(_ trace: RunTrace) -> String {
        guard let json = try? trace.encoded() else { return "{}" }
        // Byte by byte: a trace runs to hundreds of kilobytes, and every report written holds
        // every entry's (Foundation's string search was a third of a recorded session's report).
        let less = UInt8(ascii: "<")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(json.count + 64)
        for byte in json {
            if byte == less { bytes.append(contentsOf: "\\u003c".utf8) } else { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static let traceStyle = """
        .player { position: relative; }
        .target { position: absolute; border: 3px solid #ff2d55; border-radius: 6px; box-shadow: 0 0 0 2px rgba(255,255,255,.8); pointer-events: none; box-sizing: border-box; }
        .trace { background: #f7f7fa; border-radius: 10px; padding: .6rem .8rem; margin-top: .75rem; }
        .trace h3 { margin: 0 0 .4rem; font-size: .95rem; }
        .trace .shots { display: flex; gap: .75rem; }
        .trace figure { margin: 0; }
        .trace figure img { width: 130px; border-radius: 10px; border: 1px solid #d1d1d6; }
        .trace .looked { font-size: .85rem; margin: .3rem 0; }
        .trace .error { color: #c1121f; white-space: pre-wrap; font-size: .85rem; }
        .trace input { font: inherit; width: 100%; box-sizing: border-box; margin: .4rem 0; padding: .2rem .4rem; border: 1px solid #c7c7cc; border-radius: 6px; }
        .trace ul { list-style: none; margin: 0; padding-left: 1rem; font-size: .8rem; }
        .trace details > summary { cursor: pointer; }
        .trace .node.match > summary, .trace .node.match > span { background: #fff3b0; }
        .trace .node.acted > summary, .trace .node.acted > span { outline: 2px solid #ff2d55; border-radius: 3px; }
        """

    /// The trace view: a step's pictures, what it looked for, its tree (searchable), and the
    /// target drawn over the video while the step runs.
    static let traceScript = """
        function traceOf(section) {
          if (!section.traceData) {
            var data = section.querySelector("script.trace-data");
            section.traceData = data ? JSON.parse(data.textContent) : null;
          }
          return section.traceData;
        }
        function nodeLabel(e) {
          var text = e.type;
          if (e.identifier) text += " #" + e.identifier;
          if (e.label) text += " \\u201c" + e.label + "\\u201d";
          if (e.value) text += " = " + e.value;
          return text + " (" + [e.frame.x, e.frame.y, e.frame.width, e.frame.height].map(Math.round).join(", ") + ")";
        }
        function sameRect(a, b) {
          return a && b && Math.abs(a.x - b.x) < 0.5 && Math.abs(a.y - b.y) < 0.5 && Math.abs(a.width - b.width) < 0.5 && Math.abs(a.height - b.height) < 0.5;
        }
        function treeNode(e, target) {
          var li = document.createElement("li");
          li.className = "node" + (sameRect(e.frame, target) ? " acted" : "");
          li.dataset.text = nodeLabel(e).toLowerCase();
          if (e.children && e.children.length) {
            var details = document.createElement("details");
            details.open = true;
            var summary = document.createElement("summary");
            summary.textContent = nodeLabel(e);
            details.appendChild(summary);
            var ul = document.createElement("ul");
            e.children.forEach(function (c) { ul.appendChild(treeNode(c, target)); });
            details.appendChild(ul);
            li.appendChild(details);
          } else {
            var span = document.createElement("span");
            span.textContent = nodeLabel(e);
            li.appendChild(span);
          }
          return li;
        }
        function showTrace(section, index) {
          var trace = traceOf(section), panel = section.querySelector("div.trace");
          if (!trace || !panel) return;
          var step = trace.steps[index];
          panel.hidden = false;
          panel.textContent = "";
          var title = document.createElement("h3");
          title.textContent = step.title + " \\u00b7 " + step.start.toFixed(3) + "\\u2013" + step.end.toFixed(3) + " s";
          panel.appendChild(title);
          if (step.query) {
            var looked = document.createElement("p");
            looked.className = "looked";
            looked.textContent = "Looked for " + step.query + (step.target ? "" : ": not on the screen");
            panel.appendChild(looked);
          }
          if (step.error) {
            var error = document.createElement("p");
            error.className = "error";
            error.textContent = step.error;
            panel.appendChild(error);
          }
          var shots = document.createElement("div");
          shots.className = "shots";
          [["before", "Before"], ["after", "After"]].forEach(function (pair) {
            if (step[pair[0]] === undefined || step[pair[0]] === null) return;
            var figure = document.createElement("figure"), img = document.createElement("img"), caption = document.createElement("figcaption");
            img.src = trace.pictures[step[pair[0]]];
            img.alt = pair[1] + " " + step.title;
            img.className = pair[0];
            caption.textContent = pair[1];
            figure.appendChild(img);
            figure.appendChild(caption);
            shots.appendChild(figure);
          });
          panel.appendChild(shots);
          var search = document.createElement("input");
          search.type = "search";
          search.placeholder = "Search the element tree";
          panel.appendChild(search);
          var tree = document.createElement("ul");
          tree.className = "tree";
          step.tree.forEach(function (e) { tree.appendChild(treeNode(e, step.target)); });
          panel.appendChild(tree);
          search.addEventListener("input", function () {
            var q = search.value.trim().toLowerCase();
            tree.querySelectorAll(".node").forEach(function (n) { n.classList.toggle("match", q !== "" && n.dataset.text.indexOf(q) >= 0); });
          });
          section.selectedTrace = index;
          placeTarget(section);
        }
        function placeTarget(section) {
          var trace = traceOf(section), video = section.querySelector("video"), box = section.querySelector("div.target");
          if (!trace || !video || !box) return;
          var t = video.currentTime, step = null;
          trace.steps.forEach(function (s, i) {
            var running = t >= s.start - 0.0005 && (t < s.end || (s.end === s.start && Math.abs(t - s.start) < 0.001));
            if (s.target && (running || (video.paused && section.selectedTrace === i && Math.abs(t - s.start) < 0.06))) step = s;
          });
          if (!step) { box.hidden = true; return; }
          var scale = video.clientWidth / trace.screen.width;
          var top = (video.clientHeight - trace.screen.height * scale) / 2;
          box.style.left = (video.offsetLeft + step.target.x * scale) + "px";
          box.style.top = (video.offsetTop + top + step.target.y * scale) + "px";
          box.style.width = (step.target.width * scale) + "px";
          box.style.height = (step.target.height * scale) + "px";
          box.hidden = false;
        }
        document.querySelectorAll("section.entry video").forEach(function (video) {
          var section = video.closest("section");
          ["timeupdate", "seeked", "loadedmetadata"].forEach(function (name) {
            video.addEventListener(name, function () { placeTarget(section); });
          });
        });
        """
}
