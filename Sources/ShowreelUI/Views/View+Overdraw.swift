import ShowreelGraphics
import ShowreelRender

/// Overdraw left out: a view's background that its subviews paint over entirely (a window's
/// under its screen, a screen's under its bars and list) is not filled. Those are fills of
/// most of the screen, several a frame; the picture stays the same pixel for pixel (see
/// `Canvas.pixelsHideable(under:)`).
extension View {
    /// Whether the background is left out as hidden (counted on the canvas).
    func leavesOutBackground(in canvas: Canvas) -> Bool {
        guard backgroundIsHidden(in: canvas) else { return false }
        canvas.overdrawLeftOut += 1
        return true
    }

    /// Whether opaque subviews, drawn after this view's background, set every pixel of it.
    func backgroundIsHidden(in canvas: Canvas) -> Bool {
        guard let hidden = canvas.pixelsHideable(under: bounds) else { return false }
        if hidden.isEmpty { return true }
        let origin = boundsOrigin
        // Covers spanning the background's width, by the rows they set; together they must
        // set every row (a cover cannot be left out of a wider one's place otherwise).
        var rows: [Range<Int>] = []
        for subview in subviews where subview.isOpaqueRectangle(for: canvas.interfaceStyle) {
            guard let covered = canvas.pixelsCovered(by: subview.frame.offsetBy(dx: -origin.x, dy: -origin.y)),
                covered.columns.lowerBound <= hidden.columns.lowerBound, covered.columns.upperBound >= hidden.columns.upperBound,
                !covered.rows.isEmpty
            else { continue }
            if covered.rows.lowerBound <= hidden.rows.lowerBound && covered.rows.upperBound >= hidden.rows.upperBound { return true }
            rows.append(covered.rows)
        }
        var reached = hidden.rows.lowerBound
        for span in rows.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            guard span.lowerBound <= reached else { break }
            reached = max(reached, span.upperBound)
        }
        return reached >= hidden.rows.upperBound
    }

    /// Whether this view's drawing begins with its whole frame in one opaque colour: shown,
    /// neither faded nor scaled, square-cornered, on an opaque background.
    func isOpaqueRectangle(for style: InterfaceStyle) -> Bool {
        !isHidden && alpha >= 1 && scale == 1 && cornerRadius <= 0 && backgroundColor.resolved(for: style).alpha >= 1
    }
}
