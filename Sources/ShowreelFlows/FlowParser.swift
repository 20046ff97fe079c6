import Foundation
import ShowreelRender
import ShowreelScript
import ShowreelUI
import ShowreelWire
import Yams

/// Reads flow files: YAML through Yams, then every field checked against the step vocabulary,
/// with each problem reported at its `file:line:column` and the nearest valid spelling.
/// Collects all the problems of a file instead of stopping at the first.
package struct FlowParser: Sendable {
    /// The bundle identifiers a flow may launch.
    package var knownApps: [String]

    package init(knownApps: [String]) {
        self.knownApps = knownApps
    }

    /// Parses and validates the flow at `url`; `id` is the path as the user named it, used in
    /// messages and as the flow's stable id. Throws `FlowValidationError` with every problem.
    package func parse(fileAt url: URL, id: String) throws(FlowValidationError) -> Flow {
        var problems: [FlowDiagnostic] = []
        let flow = parse(url, id: id, chain: [], problems: &problems, requiresApp: true, budget: YAMLBudget(), nesting: 0)
        guard problems.isEmpty, let flow else { throw FlowValidationError(problems) }
        if let step = Self.stepBeyondLimit(flow.onFlowStart + flow.steps + flow.onFlowComplete) {
            throw FlowValidationError([
                FlowDiagnostic(
                    step.location,
                    "the flow runs more than \(FlowLimits.maximumSteps) steps "
                        + "once repeat and runFlow are expanded, from this step on (the limit is \(FlowLimits.maximumSteps)): repeat fewer times"
                )
            ])
        }
        return flow
    }

    /// The step at which the steps run so far pass `FlowLimits.maximumSteps`, if they do.
    static func stepBeyondLimit(_ steps: [FlowStep]) -> FlowStep? {
        var total = 0
        for step in steps {
            total += step.expandedCount(limit: FlowLimits.maximumSteps - total)
            if total > FlowLimits.maximumSteps { return step }
        }
        return nil
    }

    /// One file; `chain` holds the files that `runFlow` came through, to catch cycles; `budget`
    /// bounds the YAML the whole flow may expand to, `nesting` counts the `repeat`s and
    /// `runFlow`s this file is inside.
    func parse(
        _ url: URL, id: String, chain: [URL], problems: inout [FlowDiagnostic], requiresApp: Bool,
        budget: YAMLBudget, nesting: Int
    ) -> Flow? {
        let start = FlowLocation(file: id, line: 1, column: 1)
        let text: String
        do { text = try String(contentsOf: url, encoding: .utf8) } catch {
            problems.append(FlowDiagnostic(start, "cannot read the flow file (\(ErrorSentence.describe(error)))"))
            return nil
        }
        return parse(
            text: text, url: url, id: id, chain: chain, problems: &problems, requiresApp: requiresApp, budget: budget, nesting: nesting)
    }

    /// Parses and validates flow text that is not (yet) a file, as if it were the file at `url`
    /// (sub-flows resolve beside it): the studio checks each step and each version of the file
    /// it is about to write with the parser `showreel run` uses.
    package func parse(text: String, url: URL, id: String) throws(FlowValidationError) -> Flow {
        var problems: [FlowDiagnostic] = []
        let flow = parse(
            text: text, url: url, id: id, chain: [], problems: &problems, requiresApp: true, budget: YAMLBudget(), nesting: 0)
        guard problems.isEmpty, let flow else { throw FlowValidationError(problems) }
        if let step = Self.stepBeyondLimit(flow.steps) {
            throw FlowValidationError([FlowDiagnostic(step.location, "the flow runs more than \(FlowLimits.maximumSteps) steps")])
        }
        return flow
    }

    private func parse(
        text: String, url: URL, id: String, chain: [URL], problems: inout [FlowDiagnostic], requiresApp: Bool,
        budget: YAMLBudget, nesting: Int
    ) -> Flow? {
        let documents: [Node]
        do {
            // The sequence is lazy: a syntax error in a later document ends it and is kept in `error`.
            var sequence = try Yams.compose_all(yaml: text)
            var nodes: [Node] = []
            while let node = sequence.next() { nodes.append(node) }
            if let error = sequence.error { throw error }
            documents = nodes
        } catch {
            problems.append(Self.diagnostic(for: error, file: id))
            return nil
        }
        // Aliases and size first: the typed parse below walks every use of an alias.
        for document in documents {
            if let (node, problem) = budget.charge(document) {
                if let problem {
                    problems.append(
                        FlowDiagnostic(FlowLocation(file: id, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1), problem))
                }
                return nil
            }
        }
        let file = FileParser(id: id, url: url, parser: self, chain: chain + [url.standardizedFileURL], budget: budget, nesting: nesting)
        let flow = file.flow(documents, requiresApp: requiresApp)
        problems += file.problems
        return flow
    }

    /// A YAML syntax error at its place in the file.
    static func diagnostic(for error: any Error, file: String) -> FlowDiagnostic {
        if let yaml = error as? YamlError {
            switch yaml {
            case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
                let .composer(context, problem, mark, _):
                let detail = context.map { "\(problem) \($0.text) (which starts at \(file):\($0.mark.line):\($0.mark.column))" } ?? problem
                return FlowDiagnostic(FlowLocation(file: file, line: mark.line, column: mark.column), "invalid YAML: \(detail)")
            default: break
            }
        }
        return FlowDiagnostic(FlowLocation(file: file, line: 1, column: 1), "invalid YAML: \(error)")
    }
}

/// The parse of one file: its diagnostics and the helpers that read typed fields.
final class FileParser {
    let id: String
    let url: URL
    let parser: FlowParser
    let chain: [URL]
    let budget: YAMLBudget
    /// The `repeat`s and `runFlow`s the step being read is inside (at most `FlowLimits.maximumNesting`).
    var nesting: Int
    var problems: [FlowDiagnostic] = []
    /// The step being parsed is `optional: true`: what only a run can settle (an app that is
    /// not installed) fails that step then, skipped with a warning, instead of the whole file now.
    var parsingOptionalStep = false
    /// Checks the syntax of the file's `${...}` (made when the first is met).
    lazy var syntaxChecker = ScriptEngine(seed: 0, now: { Date(timeIntervalSince1970: 0) })

    static let headerKeys = ["appId", "name", "arguments", "env", "device", "tags", "selectors", "onFlowStart", "onFlowComplete"]
    static let deviceKeys = ["name", "profile", "statusBar", "showTouches", "appearance", "languages", "orientation"]

    init(id: String, url: URL, parser: FlowParser, chain: [URL], budget: YAMLBudget, nesting: Int) {
        self.id = id
        self.url = url
        self.parser = parser
        self.chain = chain
        self.budget = budget
        self.nesting = nesting
    }

    func flow(_ documents: [Node], requiresApp: Bool) -> Flow? {
        let top = FlowLocation(file: id, line: 1, column: 1)
        guard let first = documents.first else {
            fail(top, "the file is empty: write a header (appId: ...), a '---' line, then the steps")
            return nil
        }
        if documents.count == 1 {
            // A sub-flow may be steps alone; it runs with its caller's app.
            if first.sequence != nil, !requiresApp {
                return Flow(
                    id: id, url: url, name: url.deletingPathExtension().lastPathComponent, appId: nil, arguments: [],
                    environment: [:], device: Flow.DeviceSettings(), tags: [], steps: steps(first, field: "steps"))
            }
            if first.sequence != nil {
                fail(top, "a flow starts with a header (appId: ...) and a '---' line before its steps")
            } else {
                fail(location(first), "no steps: add a '---' line after the header, then the steps as a list")
            }
            return nil
        }
        if documents.count > 2 {
            fail(location(documents[2]), "a flow has one header and one list of steps: remove the extra '---' document")
        }
        var flow = Flow(
            id: id, url: url, name: url.deletingPathExtension().lastPathComponent, appId: nil, arguments: [],
            environment: [:], device: Flow.DeviceSettings(), tags: [], steps: [])
        header(first, into: &flow, requiresApp: requiresApp)
        flow.steps = steps(documents[1], field: "steps")
        return flow
    }

    // MARK: Header

    private func header(_ node: Node, into flow: inout Flow, requiresApp: Bool) {
        guard let fields = mapping(node, field: "the header", allowed: Self.headerKeys) else { return }
        if let value = fields["appId"] {
            if let app = string(value, field: "appId"), checkApp(app, at: value) { flow.appId = app }
        } else if requiresApp {
            fail(
                location(node),
                "missing field 'appId': the bundle identifier of the app to launch, one of \(parser.knownApps.joined(separator: ", "))")
        }
        if let value = fields["name"] { flow.name = string(value, field: "name") ?? flow.name }
        if let value = fields["arguments"] { flow.arguments = strings(value, field: "arguments") ?? [] }
        if let value = fields["env"] { flow.environment = environment(value, field: "env") ?? [:] }
        if let value = fields["tags"] { flow.tags = strings(value, field: "tags") ?? [] }
        if let value = fields["device"] { device(value, into: &flow.device) }
        if let value = fields["selectors"] { flow.selectorPriority = selectorPriority(value) }
        if let value = fields["onFlowStart"] { flow.onFlowStart = steps(value, field: "onFlowStart") }
        if let value = fields["onFlowComplete"] { flow.onFlowComplete = steps(value, field: "onFlowComplete") }
    }

    /// `selectors: [id, text, type, point]`: the order the studio tries kinds of selector in
    /// when it records a step (`showreel run` only checks it).
    private func selectorPriority(_ node: Node) -> [SelectorKind]? {
        guard let names = strings(node, field: "selectors") else { return nil }
        var kinds: [SelectorKind] = []
        for name in names {
            guard let kind = SelectorKind(rawValue: name) else {
                let all = SelectorKind.allCases.map(\.rawValue)
                fail(
                    location(node),
                    "unknown selector kind '\(name)'\(Spelling.hint(for: name, in: all)) (kinds: \(all.joined(separator: ", ")))")
                return nil
            }
            guard !kinds.contains(kind) else {
                fail(location(node), "selector kind '\(name)' is listed twice in selectors")
                return nil
            }
            kinds.append(kind)
        }
        return kinds
    }

    private func device(_ node: Node, into settings: inout Flow.DeviceSettings) {
        guard let fields = mapping(node, field: "device", allowed: Self.deviceKeys) else { return }
        if let value = fields["name"], let name = string(value, field: "device name") { settings.name = name }
        if let value = fields["profile"], let name = string(value, field: "profile") {
            if let profile = DeviceProfile.named(name) {
                settings.profile = profile
            } else {
                let names = DeviceProfile.all.map(\.name)
                fail(
                    location(value),
                    "unknown device profile '\(name)'\(Spelling.hint(for: name, in: names)) (profiles: \(names.joined(separator: ", ")))")
            }
        }
        if let value = fields["showTouches"], let shows = bool(value, field: "showTouches") { settings.showsTouches = shows }
        if let value = fields["statusBar"], let values = statusBar(value, base: settings.statusBar) { settings.statusBar = values }
        if let value = fields["appearance"], let style = appearance(value) { settings.appearance = style }
        if let value = fields["languages"], let languages = strings(value, field: "languages") { settings.languages = languages }
        if let value = fields["orientation"], let orientation = orientation(value, field: "orientation") {
            settings.orientation = orientation
        }
    }

    /// How the device is held, as Maestro (`LANDSCAPE_LEFT`) or simctl (`landscape-left`) spells it.
    func orientation(_ node: Node, field: String) -> DeviceOrientation? {
        guard let word = string(node, field: field) else { return nil }
        guard let orientation = DeviceOrientation(spelling: word) else {
            let names = SystemStep.orientationNames
            let upsideDown = word.lowercased().contains("upside")
            fail(
                location(node),
                "\(field) takes \(names.joined(separator: ", ")), got '\(word)'"
                    + (upsideDown
                        ? ": UPSIDE_DOWN is not supported (phones do not show apps upside down)"
                        : Spelling.hint(for: word, in: names)))
            return nil
        }
        return orientation
    }

    /// `light` or `dark`.
    func appearance(_ node: Node) -> InterfaceStyle? {
        guard let name = string(node, field: "appearance") else { return nil }
        guard let style = InterfaceStyle(rawValue: name) else {
            let names = InterfaceStyle.allCases.map(\.rawValue)
            fail(location(node), "unknown appearance '\(name)'\(Spelling.hint(for: name, in: names)) (use light or dark)")
            return nil
        }
        return style
    }

    /// Status bar fields as `simctl status_bar override` takes them, applied over `base`.
    func statusBar(_ node: Node, base: StatusBarValues) -> StatusBarValues? {
        let keys = ["time", "dataNetwork", "wifiBars", "cellularBars", "operatorName", "batteryState", "batteryLevel"]
        guard let fields = mapping(node, field: "statusBar", allowed: keys) else { return nil }
        var values = base
        if let value = fields["time"], let time = string(value, field: "time") { values.time = time }
        if let value = fields["operatorName"], let name = string(value, field: "operatorName") { values.operatorName = name }
        if let value = fields["dataNetwork"], let network: StatusBarValues.DataNetwork = choice(value, field: "dataNetwork") {
            values.dataNetwork = network
        }
        if let value = fields["batteryState"], let state: StatusBarValues.BatteryState = choice(value, field: "batteryState") {
            values.batteryState = state
        }
        if let value = fields["wifiBars"], let bars = int(value, field: "wifiBars", in: 0...3) { values.wifiBars = bars }
        if let value = fields["cellularBars"], let bars = int(value, field: "cellularBars", in: 0...4) { values.cellularBars = bars }
        if let value = fields["batteryLevel"], let level = int(value, field: "batteryLevel", in: 0...100) { values.batteryLevel = level }
        return values
    }

    func checkApp(_ app: String, at node: Node) -> Bool {
        guard parser.knownApps.contains(app) || parsingOptionalStep else {
            fail(
                location(node),
                "unknown app '\(app)'\(Spelling.hint(for: app, in: parser.knownApps)) (installed: \(parser.knownApps.joined(separator: ", ")))"
            )
            return false
        }
        return true
    }

    // MARK: Typed fields

    func location(_ node: Node) -> FlowLocation {
        let mark = node.mark
        return FlowLocation(file: id, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    func fail(_ location: FlowLocation, _ message: String) {
        problems.append(FlowDiagnostic(location, message))
    }

    static func kind(of node: Node) -> String {
        switch node {
        case .scalar: isNull(node) ? "nothing" : "'\(node.string ?? "")'"
        case .mapping: "a map"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    static func isNull(_ node: Node) -> Bool {
        guard case let .scalar(scalar) = node, scalar.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// A map's fields by name, after checking every key is one of `allowed` (with a spelling
    /// hint) and none is repeated.
    func mapping(_ node: Node, field: String, allowed: [String]) -> [String: Node]? {
        guard case let .mapping(map) = node else {
            fail(location(node), "\(field) must be a map of \(allowed.joined(separator: ", ")), got \(Self.kind(of: node))")
            return nil
        }
        var fields: [String: Node] = [:]
        for (keyNode, value) in map {
            guard let key = keyNode.scalar?.string else {
                fail(location(keyNode), "\(field) has a key that is not a name")
                continue
            }
            if !allowed.contains(key) {
                fail(
                    location(keyNode),
                    "unknown field '\(key)' in \(field)\(Spelling.hint(for: key, in: allowed)) (fields: \(allowed.joined(separator: ", ")))"
                )
            } else if fields[key] != nil {
                fail(location(keyNode), "'\(key)' is given twice in \(field)")
            } else {
                fields[key] = value
            }
        }
        return fields
    }

    func string(_ node: Node, field: String) -> String? {
        guard case let .scalar(scalar) = node, !Self.isNull(node) else {
            fail(location(node), "'\(field)' must be text, got \(Self.kind(of: node))")
            return nil
        }
        return scalar.string
    }

    func strings(_ node: Node, field: String) -> [String]? {
        guard case let .sequence(list) = node else {
            fail(location(node), "'\(field)' must be a list of text, got \(Self.kind(of: node))")
            return nil
        }
        let items = list.map { string($0, field: "\(field) item") }
        return items.contains(nil) ? nil : items.compactMap { $0 }
    }

    func environment(_ node: Node, field: String) -> [String: String]? {
        guard case let .mapping(map) = node else {
            fail(location(node), "'\(field)' must be a map of names to values, got \(Self.kind(of: node))")
            return nil
        }
        var values: [String: String] = [:]
        for (key, value) in map {
            guard let name = string(key, field: "\(field) name"), let text = string(value, field: "\(field).\(key.string ?? "")") else {
                continue
            }
            values[name] = text
        }
        return values
    }

    func bool(_ node: Node, field: String) -> Bool? {
        guard case .scalar = node, let value = node.bool else {
            fail(location(node), "'\(field)' must be true or false, got \(Self.kind(of: node))")
            return nil
        }
        return value
    }

    func int(_ node: Node, field: String, in range: ClosedRange<Int>) -> Int? {
        guard case .scalar = node, let value = node.int else {
            fail(location(node), "'\(field)' must be a whole number, got \(Self.kind(of: node))")
            return nil
        }
        guard range.contains(value) else {
            fail(location(node), "'\(field)' must be from \(range.lowerBound) to \(range.upperBound), got \(value)")
            return nil
        }
        return value
    }

    /// One of an enumeration's names, any case, with a spelling hint.
    func choice<T: RawRepresentable & CaseIterable>(_ node: Node, field: String) -> T? where T.RawValue == String {
        guard let text = string(node, field: field) else { return nil }
        if let value = T.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) { return value }
        let names = T.allCases.map(\.rawValue)
        fail(
            location(node),
            "'\(field)' must be one of \(names.joined(separator: ", ")), got '\(text)'\(Spelling.hint(for: text, in: names))")
        return nil
    }

    /// Seconds as a number (`1.5`), or text with a unit (`500ms`, `2s`); at most
    /// `FlowLimits.maximumSeconds`.
    func duration(_ node: Node, field: String) -> Duration? {
        var seconds: Double?
        if case .scalar = node, let number = node.float { seconds = number }
        if seconds == nil, case let .scalar(scalar) = node {
            let text = scalar.string.trimmingCharacters(in: .whitespaces).lowercased()
            if text.hasSuffix("ms"), let value = Double(text.dropLast(2).trimmingCharacters(in: .whitespaces)) {
                seconds = value / 1000
            } else if text.hasSuffix("s"), let value = Double(text.dropLast().trimmingCharacters(in: .whitespaces)) {
                seconds = value
            }
        }
        guard let seconds, seconds.isFinite, seconds >= 0, seconds <= FlowLimits.maximumSeconds else {
            // Maestro writes milliseconds as plain numbers (timeout: 10000).
            let maestro = seconds.map { $0 > FlowLimits.maximumSeconds && $0 <= FlowLimits.maximumSeconds * 1000 } == true
            let hint = maestro ? "; milliseconds, as Maestro writes them? say so: \(Int(seconds!))ms" : ""
            fail(
                location(node),
                "'\(field)' must be a time from 0 to \(Int(FlowLimits.maximumSeconds)) seconds (1.5, 500ms or 2s), got \(Self.kind(of: node))\(hint)"
            )
            return nil
        }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}
