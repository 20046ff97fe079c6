import ShowreelAccessibility
import ShowreelGraphics
import ShowreelReport

/// The element a step acted on when it was recorded: what a later Run compares its own target
/// with, so a step whose selector now finds another element (same place, another row; or
/// elsewhere) is flagged. Kept through edits of other steps, since those are what move it.
struct RecordedTarget: Sendable, Equatable {
    var frame: Rect
    var type: String
    var identifier: String
    var label: String

    init(_ element: ElementSnapshot) {
        (frame, type, identifier, label) = (element.frame, element.type.description, element.identifier, element.label)
    }

    /// Why the traced step's target is not this element, or nil when it is. A step by point has
    /// no target of its own: what is under the point now must be the element recorded there.
    func difference(from step: RunTrace.Step) -> String? {
        let point: Point
        if let traced = step.target {
            let target = Rect(x: traced.x, y: traced.y, width: traced.width, height: traced.height)
            if abs(frame.midX - target.midX) > 1 || abs(frame.midY - target.midY) > 1 {
                return
                    "the selector found another element than when it was recorded (at \(Int(target.minX)),\(Int(target.minY)), was \(Int(frame.minX)),\(Int(frame.minY)))"
            }
            point = target.center
        } else {
            guard !step.tree.isEmpty else { return nil }
            point = frame.center
        }
        // The elements there now must include the one recorded (a row and its label share a
        // frame, so any of them will do).
        let there = Self.elements(in: step.tree) {
            Rect(x: $0.frame.x, y: $0.frame.y, width: $0.frame.width, height: $0.frame.height).contains(point)
        }
        guard !there.contains(where: { $0.type == type && $0.identifier == identifier && $0.label == label }) else { return nil }
        let now = there.last.map { "\($0.type) \"\($0.label.isEmpty ? $0.identifier : $0.label)\"" } ?? "nothing"
        return "the step found another element than when it was recorded: \(now), was \(type) \"\(label.isEmpty ? identifier : label)\""
    }

    private static func elements(in tree: [RunTrace.Element], where matches: (RunTrace.Element) -> Bool) -> [RunTrace.Element] {
        tree.flatMap { (matches($0) ? [$0] : []) + elements(in: $0.children, where: matches) }
    }
}

extension [Int: RecordedTarget] {
    /// After step `index` left the flow: the later steps move up one.
    mutating func removeStep(_ index: Int) {
        self = Dictionary(uniqueKeysWithValues: compactMap { key, value in key == index ? nil : (key > index ? key - 1 : key, value) })
    }
}
