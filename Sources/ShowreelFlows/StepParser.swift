import Foundation
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelScript
import ShowreelUI
import ShowreelWire
import Yams

/// Reading steps: a name and its value, looked up in `CommandCatalog`, with the fields every
/// command takes (`label`, `optional`) and the targets and selectors commands share.
extension FileParser {
    static var stepNames: [String] { CommandCatalog.names }
    /// Fields any command's map may carry (Maestro's): taken off before the command reads its own.
    static let commonKeys = ["label", "optional"]
    static let targetKeys =
        ["text", "id", "type", "index", "point", "enabled", "checked", "focused", "selected"]
        + FlowStep.ElementQuerySpec.RelationKind.allCases.map(\.rawValue)

    func steps(_ node: Node, field: String) -> [FlowStep] {
        guard case let .sequence(list) = node else {
            fail(location(node), "\(field) must be a list (each step on a line starting with '- '), got \(Self.kind(of: node))")
            return []
        }
        return list.compactMap { step($0) }
    }

    private func step(_ node: Node) -> FlowStep? {
        let name: String, nameNode: Node, argument: Node?
        switch node {
        case let .scalar(scalar):
            (name, nameNode, argument) = (scalar.string, node, nil)
        case let .mapping(map) where map.count == 1:
            let (key, value) = map[map.startIndex]
            guard let text = key.scalar?.string else {
                fail(location(key), "a step's name must be text")
                return nil
            }
            (name, nameNode, argument) = (text, key, Self.isNull(value) ? nil : value)
        default:
            fail(location(node), "a step is a name (- back) or one name with its value (- tapOn: \"Canada\"), got \(Self.kind(of: node))")
            return nil
        }
        let at = location(nameNode)
        guard let grammar = CommandCatalog.grammar(named: name) else {
            fail(at, "unknown step '\(name)'\(Spelling.hint(for: name, in: Self.stepNames))")
            return nil
        }
        var (value, label, optional) = (argument, String?.none, false)
        if let argument, case let .mapping(map) = argument, map.contains(where: { Self.commonKeys.contains($0.key.string ?? "") }) {
            let kept = map.filter { !Self.commonKeys.contains($0.key.string ?? "") }
            if let node = map["label"] { label = string(node, field: "label") }
            if let node = map["optional"] { optional = bool(node, field: "optional") ?? false }
            value = kept.isEmpty ? nil : .mapping(Node.Mapping(kept.map { ($0.key, $0.value) }, map.tag, map.style, map.mark))
        }
        // Maestro's selectors carry `optional` too (`element: {id: x, optional: true}`): it makes
        // the step optional, as there.
        if let current = value, case let .mapping(map) = current, let element = map["element"], case let .mapping(selector) = element,
            let node = selector["optional"]
        {
            optional = optional || (bool(node, field: "optional") ?? false)
            let kept = selector.filter { $0.key.string != "optional" }
            var outer = map
            outer["element"] = .mapping(Node.Mapping(kept.map { ($0.key, $0.value) }, selector.tag, selector.style, selector.mark))
            value = .mapping(outer)
        }
        if value == nil, !grammar.bare {
            fail(at, "'\(name)' needs a value, e.g. \(grammar.example)")
            return nil
        }
        if let value { checkExpressions(value) }
        parsingOptionalStep = optional
        defer { parsingOptionalStep = false }
        guard let command = grammar.parse(self, CommandInput(name: name, argument: value, at: at)) else { return nil }
        return FlowStep(location: at, command: command, title: label ?? Self.title(name, argument), isOptional: optional)
    }

    /// A command's value written alone (`assertTrue: ${x}`) or as its map's one field
    /// (`assertTrue: {condition: ${x}}`); nil after saying the field is missing.
    func shorthand(_ node: Node, step: String, field: String, at: FlowLocation? = nil) -> Node? {
        guard case .mapping = node else { return node }
        guard let fields = mapping(node, field: step, allowed: [field]), let value = fields[field] else {
            fail(at ?? location(node), "missing field '\(field)' in \(step)")
            return nil
        }
        return value
    }

    /// An app named by a command (`stopApp: id` or `{appId: id}`), which must be installed.
    func app(_ node: Node, step: String) -> String? {
        guard let value = shorthand(node, step: step, field: "appId"), let app = string(value, field: "appId"), checkApp(app, at: value)
        else { return nil }
        return app
    }

    /// Every `${...}` in `node` must be JavaScript that parses: a syntax error is found before
    /// anything runs, at its line.
    func checkExpressions(_ node: Node) {
        switch node {
        case let .scalar(scalar):
            guard scalar.string.contains("${") else { return }
            for case let .expression(script) in ScriptTemplate.parts(of: scalar.string) {
                do { try syntaxChecker.checkSyntax(script, file: id, line: location(node).line) } catch {
                    fail(location(node), "JavaScript: \(error.message)")
                }
            }
        case let .mapping(map): for (_, value) in map { checkExpressions(value) }
        case let .sequence(list): for item in list where item.sequence == nil && item.mapping == nil { checkExpressions(item) }
        case .alias: break
        }
    }

    /// An element or point: text alone (`"Canada"`), or a map of a selector's fields or a point
    /// (plus the step's own `extra` fields, returned beside the target).
    func target(_ node: Node, step: String, extra: [String] = []) -> (FlowStep.Target, [String: Node])? {
        if case .scalar = node {
            guard let text = string(node, field: step) else { return nil }
            return (.element(FlowStep.ElementQuerySpec(text: text)), [:])
        }
        guard let fields = mapping(node, field: step, allowed: Self.targetKeys + extra) else { return nil }
        if let value = fields["point"] {
            guard Set(fields.keys).isDisjoint(with: Self.targetKeys.filter { $0 != "point" }) else {
                fail(location(value), "'point' names a place on screen: leave out text, id, type and index with it")
                return nil
            }
            return point(value, field: "point").map { (.point(x: $0.0, y: $0.1), fields) }
        }
        guard let spec = selector(fields, at: node, step: step) else { return nil }
        return (.element(spec), fields)
    }

    /// A selector's fields: text, id, type, index, states and relative selectors (each a
    /// selector in turn, nested at most `FlowLimits.maximumNesting` deep).
    func selector(_ fields: [String: Node], at node: Node, step: String) -> FlowStep.ElementQuerySpec? {
        var spec = FlowStep.ElementQuerySpec()
        if let value = fields["text"] { spec.text = string(value, field: "text") }
        if let value = fields["id"] { spec.id = string(value, field: "id") }
        if let value = fields["index"] { spec.index = int(value, field: "index", in: 0...10_000) }
        if let value = fields["enabled"] { spec.enabled = bool(value, field: "enabled") }
        if let value = fields["checked"] { spec.checked = bool(value, field: "checked") }
        if let value = fields["focused"] { spec.focused = bool(value, field: "focused") }
        if let value = fields["selected"] { spec.selected = bool(value, field: "selected") }
        if let value = fields["type"], let type = string(value, field: "type") {
            let types = ElementType.allCases.map(\.rawValue)
            if let known = ElementType(rawValue: type) {
                spec.type = known
            } else {
                fail(
                    location(value),
                    "unknown element type '\(type)'\(Spelling.hint(for: type, in: types)) (types: \(types.joined(separator: ", ")))")
                return nil
            }
        }
        for kind in FlowStep.ElementQuerySpec.RelationKind.allCases {
            guard let value = fields[kind.rawValue] else { continue }
            guard withinNesting(value, step: kind.rawValue) else { return nil }
            nesting += 1
            defer { nesting -= 1 }
            let anchors: [Node] = kind == .containsDescendants ? (value.sequence.map(Array.init) ?? [value]) : [value]
            for anchor in anchors {
                guard let (target, _) = target(anchor, step: kind.rawValue) else { return nil }
                guard case let .element(anchorSpec) = target else {
                    fail(location(anchor), "'\(kind.rawValue)' names an element, not a point")
                    return nil
                }
                spec.relations.append(FlowStep.ElementQuerySpec.Relation(kind: kind, anchor: anchorSpec))
            }
        }
        guard spec != FlowStep.ElementQuerySpec() else {
            fail(location(node), "missing field: \(step) needs text, id, type or point")
            return nil
        }
        return spec
    }

    /// "120,300" in points or "50%,80%" of the screen.
    func point(_ node: Node, field: String) -> (FlowStep.Coordinate, FlowStep.Coordinate)? {
        guard let text = string(node, field: field) else { return nil }
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        func coordinate(_ part: String) -> FlowStep.Coordinate? {
            if part.hasSuffix("%"), let value = Double(part.dropLast()), (0...100).contains(value) { return .fraction(value / 100) }
            if let value = Double(part), value >= 0 { return .points(value) }
            return nil
        }
        guard parts.count == 2, let x = coordinate(parts[0]), let y = coordinate(parts[1]) else {
            fail(location(node), "'\(field)' must be \"x,y\" in points or \"x%,y%\" of the screen, got '\(text)'")
            return nil
        }
        return (x, y)
    }

    /// Whether one more `repeat` or `runFlow` fits inside the ones this step is in: nesting is
    /// bounded, so neither the parser nor the runner recurses without end.
    func withinNesting(_ node: Node, step: String) -> Bool {
        guard nesting < FlowLimits.maximumNesting else {
            fail(
                location(node),
                "\(step) is nested more than \(FlowLimits.maximumNesting) deep in repeat and runFlow steps "
                    + "(the limit is \(FlowLimits.maximumNesting)): flatten the flow")
            return false
        }
        return true
    }

    // MARK: Titles and examples

    /// A path named in a flow, as seen from where the flow was named ("Fixtures/Flows/x.yaml").
    static func relativeID(_ path: String, from id: String) -> String {
        if path.hasPrefix("/") { return path }
        let folder = id.parentPath
        let joined = folder.isEmpty ? path : (folder as NSString).appendingPathComponent(path)
        return (joined as NSString).standardizingPath
    }

    /// The step as written, on one line: `tapOn: {id: countryName}`.
    static func title(_ name: String, _ argument: Node?) -> String {
        guard let argument else { return name }
        return "\(name): \(inline(argument))"
    }

    /// Titles are for reading: a long argument (a `repeat`'s whole body) is cut here.
    static let titleLength = 160

    static func inline(_ node: Node) -> String {
        var text = ""
        inline(node, into: &text)
        return text.count > titleLength ? String(text.prefix(titleLength - 1)) + "…" : text
    }

    /// Appends `node` to `text`, stopping once the title is long enough (the YAML has been
    /// checked against `FlowLimits`, so the recursion is bounded).
    private static func inline(_ node: Node, into text: inout String) {
        guard text.count <= titleLength else { return }
        switch node {
        case let .scalar(scalar): text += scalar.style == .plain ? scalar.string : "\"\(scalar.string)\""
        case let .mapping(map):
            text += "{"
            for (offset, pair) in map.enumerated() where text.count <= titleLength {
                text += (offset > 0 ? ", " : "") + "\(pair.key.string ?? ""): "
                inline(pair.value, into: &text)
            }
            text += "}"
        case let .sequence(list):
            text += "["
            for (offset, item) in list.enumerated() where text.count <= titleLength {
                if offset > 0 { text += ", " }
                inline(item, into: &text)
            }
            text += "]"
        case .alias: text += "*alias"
        }
    }

}
