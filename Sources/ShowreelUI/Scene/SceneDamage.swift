import ShowreelGraphics

/// What changed on a scene since it last rendered, to tell which rows of the next frame may
/// differ: for each changed view, the rows it drew on then (taken when it changes, before
/// the render moves them) and on now (read after the render).
struct SceneDamage {
    /// Set when something other than a view changed: any row may.
    var everything = false
    private var rowsBefore = RowSet()
    private var views: [View] = []
    private var seen: Set<ObjectIdentifier> = []

    mutating func add(rows: Range<Int>) {
        rowsBefore.insert(rows)
    }

    mutating func add(_ view: View) {
        guard !everything, seen.insert(ObjectIdentifier(view)).inserted else { return }
        views.append(view)
        if let rows = view.renderedRows { rowsBefore.insert(rows) }
    }

    /// The rows the render that just finished may have changed, with what the scene drew over
    /// the windows before and after; nil when any may have.
    func rows(addingBefore overlayBefore: [Range<Int>], after overlayAfter: [Range<Int>]) -> RowSet? {
        guard !everything else { return nil }
        var rows = rowsBefore
        for view in views {
            if let after = view.renderedRows { rows.insert(after) }
        }
        for overlay in overlayBefore + overlayAfter { rows.insert(overlay) }
        return rows
    }
}
