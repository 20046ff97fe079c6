import Foundation
import ShowreelAccessibility
import ShowreelGraphics

extension FlowStep.ElementQuerySpec {
    /// Characters that make `text` or `id` a regular expression rather than a name. `.` alone
    /// does not: "ada@example.com" stays the literal it almost always is.
    static let regexOperators = Set("\\^$*+?()[]{}|")

    /// Whether the device's query (label or identifier equal, type, index) cannot say this
    /// selector: a regular expression, a state or a relative selector is matched by the runner.
    var needsMatcher: Bool {
        let isPattern = { (value: String?) in value.map { $0.contains(where: Self.regexOperators.contains) } ?? false }
        return isPattern(text) || isPattern(id) || enabled != nil || checked != nil || focused != nil || selected != nil
            || !relations.isEmpty
    }
}

/// Maestro's selectors over an element tree: `text` and `id` as regular expressions matched
/// whole (or equal as written), states, and relative selectors; `index` picks among the matches
/// in screen order (or nearest first, for `below`/`above`/`leftOf`/`rightOf`).
struct SelectorMatcher {
    let roots: [ElementSnapshot]

    func matches(_ spec: FlowStep.ElementQuerySpec) -> [ElementSnapshot] {
        var found = roots.flatMap(\.flattened).filter { own(spec, $0) }
        for relation in spec.relations {
            let anchors = matches(relation.anchor)
            found = related(found, relation.kind, anchors)
        }
        if let index = spec.index { return found.indices.contains(index) ? [found[index]] : [] }
        return found
    }

    /// The selector's own fields (not its relations).
    private func own(_ spec: FlowStep.ElementQuerySpec, _ element: ElementSnapshot) -> Bool {
        if let type = spec.type, element.type != type { return false }
        if let text = spec.text {
            let candidates = [element.label, element.value ?? "", element.placeholder ?? "", element.identifier]
            guard candidates.contains(where: { Self.matches(text, $0) }) else { return false }
        }
        if let id = spec.id, !Self.matches(id, element.identifier) { return false }
        if let enabled = spec.enabled, element.isEnabled != enabled { return false }
        if let checked = spec.checked, Self.isChecked(element) != checked { return false }
        if let selected = spec.selected, Self.isChecked(element) != selected { return false }
        if let focused = spec.focused, isFocused(element) != focused { return false }
        return true
    }

    /// `value` is `pattern` as written, or matches it whole as a regular expression.
    static func matches(_ pattern: String, _ value: String) -> Bool {
        if pattern == value { return true }
        guard !value.isEmpty, let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else {
            return false
        }
        let range = NSRange(value.startIndex..., in: value)
        guard let match = regex.firstMatch(in: value, options: [.anchored], range: range) else { return false }
        return match.range == range
    }

    /// A switch's or a checkbox's value says whether it is on ("1", "on", "true").
    static func isChecked(_ element: ElementSnapshot) -> Bool {
        ["1", "on", "true", "selected"].contains(element.value?.lowercased() ?? "")
    }

    /// The tree does not say which field has the keyboard's focus: a text field counts as
    /// focused while the keyboard is up.
    private func isFocused(_ element: ElementSnapshot) -> Bool {
        (element.type == .textField || element.type == .secureTextField) && keyboardShown
    }

    private var keyboardShown: Bool { roots.flatMap(\.flattened).contains { $0.type == .keyboard } }

    private func related(_ candidates: [ElementSnapshot], _ kind: FlowStep.ElementQuerySpec.RelationKind, _ anchors: [ElementSnapshot])
        -> [ElementSnapshot]
    {
        guard let anchor = anchors.first else { return [] }
        let box = anchor.frame
        func distance(_ element: ElementSnapshot) -> Double {
            let dx = element.frame.center.x - box.center.x, dy = element.frame.center.y - box.center.y
            return dx * dx + dy * dy
        }
        let slack = 0.5
        switch kind {
        case .below: return candidates.filter { $0.frame.minY >= box.maxY - slack }.sorted { distance($0) < distance($1) }
        case .above: return candidates.filter { $0.frame.maxY <= box.minY + slack }.sorted { distance($0) < distance($1) }
        case .leftOf: return candidates.filter { $0.frame.maxX <= box.minX + slack }.sorted { distance($0) < distance($1) }
        case .rightOf: return candidates.filter { $0.frame.minX >= box.maxX - slack }.sorted { distance($0) < distance($1) }
        case .childOf:
            let inside = anchors.flatMap { $0.children.flatMap(\.flattened) }
            return candidates.filter { element in inside.contains { $0 == element } }
        case .containsChild:
            return candidates.filter { element in element.children.contains { child in anchors.contains { $0 == child } } }
        case .containsDescendants:
            return candidates.filter { element in
                let below = element.children.flatMap(\.flattened)
                return below.contains { descendant in anchors.contains { $0 == descendant } }
            }
        }
    }
}
