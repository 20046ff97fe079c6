import Foundation

/// A matrix run's report: entries grouped by cell (`de-phone-dark`), each cell under its
/// heading, and a filter per axis (language, device, appearance) beside the status filter.
extension HTMLReport {
    /// The entries' sections, in groups of one cell each (in the order cells first appear)
    /// when the run has cells; as they are otherwise. Sections keep their index in the
    /// manifest (`entry-N`), which the diff section links to.
    func entrySections() -> String {
        let indexed = Array(manifest.entries.enumerated())
        guard indexed.contains(where: { $0.element.cell != nil }) else {
            return indexed.map { section(for: $1, index: $0) }.joined(separator: "\n")
        }
        var order: [String] = []
        var groups: [String: [(Int, ManifestEntry)]] = [:]
        for (index, entry) in indexed {
            let key = entry.cell?.name ?? ""
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append((index, entry))
        }
        let e = Markup.escape
        return order.map { key in
            let entries = groups[key]!
            let cell = entries[0].1.cell
            let data =
                cell.map { " data-language=\"\(e($0.language))\" data-device=\"\(e($0.device))\" data-appearance=\"\(e($0.appearance))\"" }
                ?? ""
            let title = cell.map { "\($0.language) · \($0.device) · \($0.appearance)" } ?? "No cell"
            let counts =
                "\(entries.count) \(entries.count == 1 ? "flow" : "flows"), \(entries.filter { $0.1.status == .failed }.count) failed"
            return
                "<div class=\"cell\" data-cell=\"\(e(key))\"\(data)>\n<h2 class=\"cell-heading\">\(e(title)) <span class=\"muted\">\(counts)</span></h2>\n"
                + entries.map { section(for: $1, index: $0) }.joined(separator: "\n") + "\n</div>"
        }.joined(separator: "\n")
    }

    /// A row of buttons per axis that has values: "All" and each value, with its entry count.
    func cellFilters() -> String {
        let cells = manifest.entries.compactMap(\.cell)
        guard !cells.isEmpty else { return "" }
        let e = Markup.escape
        let axes: [(String, String, (RunCell) -> String)] = [
            ("language", "Language", \.language), ("device", "Device", \.device), ("appearance", "Appearance", \.appearance),
        ]
        return axes.map { axis, label, value in
            var values: [String] = []
            for cell in cells where !values.contains(value(cell)) { values.append(value(cell)) }
            let buttons = values.map { v in
                "<button type=\"button\" data-axis=\"\(axis)\" data-value=\"\(e(v))\">\(e(v)) (\(cells.filter { value($0) == v }.count))</button>"
            }.joined()
            return "<nav class=\"cell-filter\" data-axis=\"\(axis)\"><span class=\"muted\">\(label)</span> "
                + "<button type=\"button\" data-axis=\"\(axis)\" data-value=\"all\" class=\"selected\">All</button>\(buttons)</nav>"
        }.joined(separator: "\n")
    }

    static let cellStyle = """
        nav.cell-filter { margin-top: .4rem; }
        nav.cell-filter span { display: inline-block; width: 6.5rem; }
        div.cell.hidden-cell { display: none; }
        h2.cell-heading { margin: 1.5rem 0 .25rem; font-size: 1.3rem; }
        """

    /// Each axis keeps one chosen value (or all); a cell shows when it matches every axis.
    static let cellScript = """
        "use strict";
        document.addEventListener("click", function (event) {
          var button = event.target.closest("nav.cell-filter button");
          if (!button) return;
          button.parentNode.querySelectorAll("button").forEach(function (b) { b.classList.toggle("selected", b === button); });
          var chosen = {};
          document.querySelectorAll("nav.cell-filter button.selected").forEach(function (b) { chosen[b.dataset.axis] = b.dataset.value; });
          document.querySelectorAll("div.cell").forEach(function (cell) {
            var shown = Object.keys(chosen).every(function (axis) { return chosen[axis] === "all" || cell.dataset[axis] === chosen[axis]; });
            cell.classList.toggle("hidden-cell", !shown);
          });
        });
        """
}
