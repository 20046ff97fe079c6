import ShowreelGraphics

/// What the person did on the live screen, in device points, as the page sends it.
package struct StudioGesture: Codable, Sendable {
    package enum Kind: String, Codable, Sendable {
        /// A click (tap), a held click (long press), a modifier-click (assert visible).
        case tap, longPress, assert
        /// A drag: a swipe from one point to another, or from an edge.
        case swipe
        /// Characters typed on the software keyboard.
        case type
        /// Return or Backspace.
        case key
    }

    package var kind: Kind
    package var x: Double?
    package var y: Double?
    package var toX: Double?
    package var toY: Double?
    /// How long the finger was down, in milliseconds.
    package var milliseconds: Double?
    package var text: String?

    package var point: Point? { x.flatMap { x in y.map { Point(x: x, y: $0) } } }
    package var end: Point? { toX.flatMap { x in toY.map { Point(x: x, y: $0) } } }
}
