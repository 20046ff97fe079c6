import ShowreelGraphics
import ShowreelRender

/// What changed on a scene since it last rendered, to tell where the next frame may differ:
/// for each changed view, the area it drew on then (taken when it changes, before the render
/// moves it) and on now (read after the render).
struct SceneDamage {
    /// Set when something other than a view changed: anything may.
    var everything = false
    private var areasBefore: [PixelArea] = []
    private var views: [View] = []
    private var seen: Set<ObjectIdentifier> = []

    mutating func add(_ area: PixelArea) {
        if !everything { areasBefore.append(area) }
    }

    mutating func add(_ view: View) {
        guard !everything, seen.insert(ObjectIdentifier(view)).inserted else { return }
        views.append(view)
        if let area = view.renderedArea { areasBefore.append(area) }
    }

    /// The areas the render that just finished may have changed, with what the scene drew over
    /// the windows before and after; nil when anything may have.
    func areas(addingBefore overlayBefore: [PixelArea], after overlayAfter: [PixelArea]) -> [PixelArea]? {
        guard !everything else { return nil }
        return areasBefore + views.compactMap(\.renderedArea) + overlayBefore + overlayAfter
    }

    /// What a render of part of the screen redraws, known before it draws: where the changed
    /// views and areas drew before, and where each changed view's bounds lie now (a view that
    /// draws outside its bounds is caught after the render, which then redraws everything).
    /// Nil when anything may have changed.
    func limit(adding areas: [PixelArea], scale: Double, width: Int, height: Int) -> DrawingLimit? {
        guard !everything else { return nil }
        var planned = areasBefore + areas
        var paths: Set<ObjectIdentifier> = []
        for view in views {
            if let area = PixelArea(covering: view.rectOnScreen(view.bounds), scale: scale, width: width, height: height) {
                planned.append(area)
            }
            var parent = view.superview
            while let ancestor = parent, paths.insert(ObjectIdentifier(ancestor)).inserted { parent = ancestor.superview }
        }
        return DrawingLimit(areas: planned, changed: Set(views.map(ObjectIdentifier.init)), changedPaths: paths)
    }
}
