import ShowreelGraphics

/// A render that redraws only part of a picture which already holds the previous frame: each of
/// `areas` is drawn anew in a pass of its own (`current`, a canvas made `within` it), where a
/// subtree that changed nothing and lies outside the area is skipped (its pixels are already
/// there). Who draws asks `mayReuse` before drawing a subtree, and tells `entering`/`leaving`
/// around one that changed, whose every descendant must draw again.
package final class DrawingLimit {
    /// Where the picture is drawn anew, in device pixels: no two overlap.
    package let areas: [PixelArea]
    /// The area the pass under way draws.
    package var current: PixelArea
    /// Identities of what changed and of everything that contains it: never skipped.
    private let changedPaths: Set<ObjectIdentifier>
    /// Identities of what changed itself: what it contains draws again too.
    private let changed: Set<ObjectIdentifier>
    private var insideChanged = 0

    /// `areas` overlapping one another are merged into the area covering both.
    package init(areas: [PixelArea], changed: Set<ObjectIdentifier>, changedPaths: Set<ObjectIdentifier>) {
        var merged: [PixelArea] = []
        for area in areas where !area.isEmpty {
            var area = area
            while let index = merged.firstIndex(where: { $0.intersects(area) }) { area = area.union(merged.remove(at: index)) }
            merged.append(area)
        }
        self.areas = merged
        current = merged.first ?? PixelArea(rows: 0..<0, columns: 0..<0)
        self.changed = changed
        self.changedPaths = changedPaths.union(changed)
    }

    /// Whether the subtree `id`, which drew on `area` last time, can keep those pixels: it did
    /// not change, nothing around it that changed contains it, and it lies outside `current`.
    package func mayReuse(_ id: ObjectIdentifier, drawnOn area: PixelArea) -> Bool {
        insideChanged == 0 && !changedPaths.contains(id) && !current.intersects(area)
    }

    /// Call before drawing subtree `id`; returns whether it changed (then call `leaving()` after).
    package func entering(_ id: ObjectIdentifier) -> Bool {
        guard changed.contains(id) else { return false }
        insideChanged += 1
        return true
    }

    package func leaving() { insideChanged -= 1 }

    /// Whether the union of `areas` covers all of `area`.
    package func covers(_ area: PixelArea) -> Bool {
        if area.isEmpty { return true }
        let crossing = areas.filter { $0.intersects(area) }
        // Cut `area` into bands where the set of crossing areas is constant; each band's columns
        // must be covered by the areas spanning it.
        var cuts = Set([area.rows.lowerBound, area.rows.upperBound])
        for other in crossing {
            for row in [other.rows.lowerBound, other.rows.upperBound] where area.rows.contains(row) { cuts.insert(row) }
        }
        let bounds = cuts.sorted()
        for (top, bottom) in zip(bounds, bounds.dropFirst()) where top < bottom {
            var reached = area.columns.lowerBound
            for other in crossing.filter({ $0.rows.lowerBound <= top && $0.rows.upperBound >= bottom })
                .sorted(by: { $0.columns.lowerBound < $1.columns.lowerBound })
            where other.columns.lowerBound <= reached {
                reached = max(reached, other.columns.upperBound)
            }
            if reached < area.columns.upperBound { return false }
        }
        return true
    }
}

extension PixelArea {
    package func intersects(_ other: PixelArea) -> Bool {
        rows.overlaps(other.rows) && columns.overlaps(other.columns)
    }

    /// This area grown by `margin` pixels each way, within a `width` x `height` picture.
    package func expanded(by margin: Int, width: Int, height: Int) -> PixelArea {
        PixelArea(
            rows: max(0, rows.lowerBound - margin)..<min(height, rows.upperBound + margin),
            columns: max(0, columns.lowerBound - margin)..<min(width, columns.upperBound + margin))
    }
}
