import Foundation

extension HTMLReport {
    /// The run compared with a baseline: per entry, identical or where it first changed (time,
    /// step, area), with the side-by-side picture; a changed time seeks that entry's video.
    func diffSection(_ diff: RunDiff) -> String {
        let e = Markup.escape
        let index = Dictionary(manifest.entries.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let rows = diff.entries.map { item -> String in
            var what: [String] = []
            if let time = item.time {
                let seek = index[item.id].map { " data-entry=\"\($0)\"" } ?? ""
                what.append(
                    "at <button type=\"button\" class=\"step seek diff-seek\" data-time=\"\(time)\"\(seek)>\(Self.clock(time))</button>")
            }
            if let step = item.step {
                let before = item.baselineStep.flatMap { $0 == step ? nil : " (baseline: \(e($0)))" } ?? ""
                what.append("during step \((item.stepIndex ?? 0) + 1) <code>\(e(step))</code>\(before)")
            }
            if let area = item.area {
                what.append("in \(area.width)x\(area.height) px at (\(area.x), \(area.y)), \(item.differingPixels ?? 0) pixels")
            }
            if let note = item.note { what.append(e(note)) }
            let picture =
                item.image.map { "<img src=\"\(e(Self.href($0)))\" alt=\"\(e(item.name)): baseline, current and their difference\">" } ?? ""
            return
                "<tr class=\"\(item.outcome.rawValue)\"><td>\(item.outcome.rawValue)</td><td>\(e(item.name))</td><td>\(what.joined(separator: "; "))\(picture)</td></tr>"
        }.joined(separator: "\n")
        let summary =
            "\(diff.count(.changed)) changed, \(diff.count(.identical)) identical"
            + (diff.count(.onlyInBaseline) > 0 ? ", \(diff.count(.onlyInBaseline)) only in the baseline" : "")
            + (diff.count(.onlyInCurrent) > 0 ? ", \(diff.count(.onlyInCurrent)) new" : "")
            + (diff.count(.notCompared) > 0 ? ", \(diff.count(.notCompared)) not compared" : "")
        return """
            <section class="diff" id="diff">
            <h2>Compared with \(e(diff.baseline))</h2>
            <p class="muted">\(e(summary)) · threshold \(diff.threshold)</p>
            <table><thead><tr><th>outcome</th><th>flow or test</th><th>first difference</th></tr></thead><tbody>
            \(rows)
            </tbody></table>
            </section>
            """
    }
}
