import ShowreelAccessibility
import ShowreelFlows
import ShowreelGraphics

/// A way to write an element's target in a flow, and what it finds on the screen it was made on.
package struct SelectorCandidate: Sendable, Codable, Equatable {
    package var kind: SelectorKind
    /// The target as a step writes it: `"Canada"`, `{id: countryName}`, `{type: cell, index: 2}`.
    package var yaml: String
    /// How many elements it finds (1 for a point, or for a selector with an index that holds).
    package var matches: Int
    /// It finds exactly the element it was made for, and nothing else.
    package var isUnique: Bool
}

/// Picks the selector a recorded step is written with: every kind that can name the element,
/// tried in the user's priority order; one that finds several elements is narrowed by type or
/// given the element's index, and is never written ambiguous.
package struct SelectorRanker: Sendable {
    package var priority: [SelectorKind]

    package init(priority: [SelectorKind]) { self.priority = priority }

    /// Every selector for the element at `path`: plain ones (marked unique or not) and, for
    /// ambiguous ones, their narrowed forms.
    package func candidates(for path: [Int], in index: ElementIndex) -> [SelectorCandidate] {
        guard let entry = index.entry(at: path) else { return [] }
        let element = entry.element
        var result: [SelectorCandidate] = []
        for kind in priority {
            switch kind {
            case .id:
                guard !element.identifier.isEmpty else { continue }
                result += forms(
                    ElementQuery.Step(identifier: element.identifier), fields: ["id: \(YAMLText.quoted(element.identifier))"],
                    kind: .id, type: element.type, path: path, in: index)
            case .text:
                let text = element.label.isEmpty ? nil : element.label
                guard let text else { continue }
                result += forms(
                    ElementQuery.Step(key: text), fields: ["text: \(YAMLText.quoted(text))"], kind: .text, type: element.type,
                    path: path, in: index, plain: YAMLText.quoted(text))
            case .type:
                result += forms(
                    ElementQuery.Step(type: element.type), fields: ["type: \(element.type.rawValue)"], kind: .type, type: nil,
                    path: path, in: index)
            case .point:
                let centre = element.frame.center
                result.append(
                    SelectorCandidate(
                        kind: .point, yaml: "{point: \"\(YAMLText.number(centre.x)),\(YAMLText.number(centre.y))\"}", matches: 1,
                        isUnique: true))
            }
        }
        return result
    }

    /// The selector to record: the first unique one without an index in priority order (points
    /// aside), else the first unique one at all (narrowed, indexed, or a point).
    package func best(for path: [Int], in index: ElementIndex) -> SelectorCandidate? {
        let all = candidates(for: path, in: index).filter(\.isUnique)
        return all.first { $0.kind != .point && !$0.yaml.contains("index:") } ?? all.first
    }

    /// A selector's plain form, then (when that finds several) with the element's type, then
    /// with its index among the matches.
    private func forms(
        _ step: ElementQuery.Step, fields: [String], kind: SelectorKind, type: ElementType?, path: [Int], in index: ElementIndex,
        plain: String? = nil
    ) -> [SelectorCandidate] {
        let found = index.paths(matching: ElementQuery(steps: [step]))
        guard let position = found.firstIndex(of: path) else { return [] }
        let plainYAML = plain ?? "{\(fields.joined(separator: ", "))}"
        var forms = [SelectorCandidate(kind: kind, yaml: plainYAML, matches: found.count, isUnique: found.count == 1)]
        if found.count == 1 { return forms }
        var narrowed = step
        var narrowedFields = fields
        var narrowedFound = found
        if let type {
            narrowed.type = type
            narrowedFields.append("type: \(type.rawValue)")
            narrowedFound = index.paths(matching: ElementQuery(steps: [narrowed]))
            if narrowedFound == [path] {
                forms.append(SelectorCandidate(kind: kind, yaml: "{\(narrowedFields.joined(separator: ", "))}", matches: 1, isUnique: true))
                return forms
            }
        }
        guard let narrowedPosition = narrowedFound.firstIndex(of: path) else { return forms }
        _ = position
        narrowed.index = narrowedPosition
        let indexed = index.paths(matching: ElementQuery(steps: [narrowed]))
        forms.append(
            SelectorCandidate(
                kind: kind, yaml: "{\((narrowedFields + ["index: \(narrowedPosition)"]).joined(separator: ", "))}", matches: indexed.count,
                isUnique: indexed == [path]))
        return forms
    }
}
