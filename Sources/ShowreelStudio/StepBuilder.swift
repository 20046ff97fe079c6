import ShowreelAccessibility
import ShowreelFlows
import ShowreelGraphics

/// Turns a gesture on the live screen into a flow step (a YAML list item), naming the element
/// under the finger with the ranker's best selector.
package struct StepBuilder: Sendable {
    package var ranker: SelectorRanker
    /// The screen in points, to tell an edge swipe from a drag.
    package var screen: Size

    /// How near an edge (in points) a drag must start to be the edge swipe (the back gesture).
    static let edgeBand = 20.0

    package enum Problem: Error, CustomStringConvertible {
        case outsideScreen
        case nothingThere
        case incomplete(String)

        package var description: String {
            switch self {
            case .outsideScreen: "the point is outside the device screen"
            case .nothingThere: "there is no element there to assert on"
            case let .incomplete(what): "the gesture lacks \(what)"
            }
        }
    }

    package func step(for gesture: StudioGesture, in index: ElementIndex) throws(Problem) -> String {
        switch gesture.kind {
        case .tap, .longPress, .assert:
            guard let point = gesture.point else { throw .incomplete("x and y") }
            guard point.x >= 0, point.y >= 0, point.x <= screen.width, point.y <= screen.height else { throw .outsideScreen }
            let name = gesture.kind == .tap ? "tapOn" : gesture.kind == .longPress ? "longPressOn" : "assertVisible"
            guard let entry = index.element(at: point) else {
                if gesture.kind == .assert { throw .nothingThere }
                return "- \(name): {point: \"\(YAMLText.number(point.x)),\(YAMLText.number(point.y))\"}"
            }
            var ranker = ranker
            // A point cannot be asserted visible: an element is named however it must be.
            if gesture.kind == .assert {
                ranker.priority = ranker.priority.filter { $0 != .point }
                if ranker.priority.isEmpty { ranker.priority = [.id, .text, .type] }
            }
            guard let selector = ranker.best(for: entry.path, in: index) else {
                if gesture.kind == .assert { throw .nothingThere }
                return "- \(name): {point: \"\(YAMLText.number(point.x)),\(YAMLText.number(point.y))\"}"
            }
            return "- \(name): \(selector.yaml)"
        case .swipe:
            guard let from = gesture.point, let to = gesture.end else { throw .incomplete("its start and end") }
            let duration = Int(min(max(gesture.milliseconds ?? 300, 100), 2000))
            if let edge = edge(from: from, to: to) { return "- swipe: {edge: \(edge)}" }
            return
                "- swipe: {from: {point: \"\(YAMLText.number(from.x)),\(YAMLText.number(from.y))\"}, to: {point: \"\(YAMLText.number(to.x)),\(YAMLText.number(to.y))\"}, duration: \(duration)ms}"
        case .type:
            guard let text = gesture.text, !text.isEmpty else { throw .incomplete("text") }
            return "- inputText: \(YAMLText.quoted(text))"
        case .key:
            switch gesture.text {
            case "Return", "Enter": return "- pressKey: Return"
            case "Backspace", "delete": return "- pressKey: delete"
            default: throw .incomplete("a key (Return or Backspace)")
            }
        }
    }

    /// The edge a drag starts at and moves away from (by more than its own band), if any.
    func edge(from: Point, to: Point) -> String? {
        let dx = to.x - from.x, dy = to.y - from.y
        if from.x <= Self.edgeBand, dx > 40, abs(dx) > abs(dy) { return "left" }
        if from.x >= screen.width - Self.edgeBand, dx < -40, abs(dx) > abs(dy) { return "right" }
        return nil
    }
}
