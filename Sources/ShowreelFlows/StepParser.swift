import Foundation
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelUI
import ShowreelWire
import Yams

/// The step vocabulary (Maestro's names) and how each step's argument is read.
extension FileParser {
    static let stepNames =
        [
            "launchApp", "tapOn", "doubleTapOn", "longPressOn", "inputText", "pressKey", "swipe", "scroll",
            "scrollUntilVisible", "back", "shake", "keyCommand", "assertVisible", "assertNotVisible", "waitFor", "wait",
            "screenshot", "statusBar", "setAppearance", "runFlow", "repeat", "caption",
        ] + SystemStep.names
    /// Steps that take no argument: `- back`.
    static let bareSteps: Set = Set(["launchApp", "back", "shake", "scroll"]).union(SystemStep.bareNames)
    static let targetKeys = ["text", "id", "type", "index", "point"]

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
        guard Self.stepNames.contains(name) else {
            fail(at, "unknown step '\(name)'\(Spelling.hint(for: name, in: Self.stepNames))")
            return nil
        }
        if argument == nil, !Self.bareSteps.contains(name) {
            fail(at, "'\(name)' needs a value, e.g. \(Self.example(name))")
            return nil
        }
        guard let action = action(name, argument, at: at) else { return nil }
        return FlowStep(location: at, action: action, title: Self.title(name, argument))
    }

    private func action(_ name: String, _ argument: Node?, at: FlowLocation) -> FlowStep.Action? {
        switch name {
        case "launchApp": return launchApp(argument)
        case "tapOn": return tap(argument!, step: name, count: 1, hold: nil)
        case "doubleTapOn": return tap(argument!, step: name, count: 2, hold: nil)
        case "longPressOn": return tap(argument!, step: name, count: 1, hold: .seconds(1))
        case "inputText": return inputText(argument!)
        case "pressKey": return pressKey(argument!)
        case "swipe": return swipe(argument!).map(FlowStep.Action.swipe)
        case "scroll":
            guard let argument else { return .scroll(direction: .down) }
            guard let fields = mapping(argument, field: name, allowed: ["direction"]) else { return nil }
            guard let node = fields["direction"] else { return .scroll(direction: .down) }
            return (choice(node, field: "direction") as FlowStep.Direction?).map { .scroll(direction: $0) }
        case "scrollUntilVisible":
            guard let (target, fields) = target(argument!, step: name, extra: ["direction", "timeout"]) else { return nil }
            let direction: FlowStep.Direction? = fields["direction"].map { choice($0, field: "direction") } ?? .down
            let timeout = fields["timeout"].map { duration($0, field: "timeout") } ?? .seconds(20)
            guard let direction, let timeout else { return nil }
            return .scrollUntilVisible(target, direction: direction, timeout: timeout)
        case "back": return .back
        case "shake": return .shake
        case "keyCommand": return keyCommand(argument!)
        case "assertVisible", "assertNotVisible", "waitFor":
            guard let (target, fields) = target(argument!, step: name, extra: ["timeout"]) else { return nil }
            let fallback: Duration = name == "waitFor" ? .seconds(10) : .seconds(2)
            guard let timeout = fields["timeout"].map({ duration($0, field: "timeout") }) ?? fallback else { return nil }
            switch name {
            case "assertVisible": return .assertVisible(target, timeout: timeout)
            case "assertNotVisible": return .assertNotVisible(target, timeout: timeout)
            default: return .waitFor(target, timeout: timeout)
            }
        case "wait": return duration(argument!, field: name).map(FlowStep.Action.wait)
        case "screenshot": return screenshotName(argument!).map { .screenshot(name: $0) }
        case "statusBar": return statusBar(argument!, base: StatusBarValues()).map(FlowStep.Action.statusBar)
        case "setAppearance": return appearance(argument!).map(FlowStep.Action.setAppearance)
        case "runFlow": return runFlow(argument!)
        case "repeat": return repeatSteps(argument!)
        case "caption":
            if case .mapping = argument! {
                guard let fields = mapping(argument!, field: name, allowed: ["text"]), let node = fields["text"] else {
                    fail(at, "missing field 'text' in caption")
                    return nil
                }
                return string(node, field: "text").map(FlowStep.Action.caption)
            }
            return string(argument!, field: name).map(FlowStep.Action.caption)
        default: return systemStep(name, argument).map(FlowStep.Action.system)
        }
    }

    // MARK: Arguments

    private func launchApp(_ node: Node?) -> FlowStep.Action? {
        guard let node else { return .launchApp(appId: nil, arguments: nil, environment: nil, clearState: false) }
        if case .scalar = node {
            guard let app = string(node, field: "appId"), checkApp(app, at: node) else { return nil }
            return .launchApp(appId: app, arguments: nil, environment: nil, clearState: false)
        }
        guard let fields = mapping(node, field: "launchApp", allowed: ["appId", "arguments", "env", "clearState", "permissions"]) else {
            return nil
        }
        var app: String?
        if let value = fields["appId"] {
            guard let name = string(value, field: "appId"), checkApp(name, at: value) else { return nil }
            app = name
        }
        let arguments = fields["arguments"].flatMap { strings($0, field: "arguments") }
        let variables = fields["env"].flatMap { self.environment($0, field: "env") }
        let clearState = fields["clearState"].flatMap { bool($0, field: "clearState") } ?? false
        var permissions: [FlowPermission] = []
        if let value = fields["permissions"] {
            guard let parsed = self.permissions(value) else { return nil }
            permissions = parsed
        }
        return .launchApp(appId: app, arguments: arguments, environment: variables, clearState: clearState, permissions: permissions)
    }

    private func tap(_ node: Node, step: String, count: Int, hold: Duration?) -> FlowStep.Action? {
        let extra = step == "longPressOn" ? ["duration"] : step == "tapOn" ? ["repeat"] : []
        guard let (target, fields) = target(node, step: step, extra: extra) else { return nil }
        var count = count, hold = hold
        if let value = fields["repeat"] { guard let times = int(value, field: "repeat", in: 1...100) else { return nil }; count = times }
        if let value = fields["duration"] { guard let time = duration(value, field: "duration") else { return nil }; hold = time }
        return .tap(target, count: count, hold: hold)
    }

    /// An element or point: text alone (`"Canada"`), or a map of text, id, type, index, point
    /// (plus the step's own `extra` fields, returned beside the target).
    func target(_ node: Node, step: String, extra: [String] = []) -> (FlowStep.Target, [String: Node])? {
        if case .scalar = node {
            guard let text = string(node, field: step) else { return nil }
            return (.element(FlowStep.ElementQuerySpec(text: text)), [:])
        }
        guard let fields = mapping(node, field: step, allowed: Self.targetKeys + extra) else { return nil }
        if let value = fields["point"] {
            guard Set(fields.keys).isDisjoint(with: ["text", "id", "type", "index"]) else {
                fail(location(value), "'point' names a place on screen: leave out text, id, type and index with it")
                return nil
            }
            return point(value, field: "point").map { (.point(x: $0.0, y: $0.1), fields) }
        }
        var spec = FlowStep.ElementQuerySpec()
        if let value = fields["text"] { spec.text = string(value, field: "text") }
        if let value = fields["id"] { spec.id = string(value, field: "id") }
        if let value = fields["index"] { spec.index = int(value, field: "index", in: 0...10_000) }
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
        guard spec != FlowStep.ElementQuerySpec() else {
            fail(location(node), "missing field: \(step) needs text, id, type or point")
            return nil
        }
        return (.element(spec), fields)
    }

    /// "120,300" in points or "50%,80%" of the screen.
    private func point(_ node: Node, field: String) -> (FlowStep.Coordinate, FlowStep.Coordinate)? {
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

    private func inputText(_ node: Node) -> FlowStep.Action? {
        if case .scalar = node {
            return string(node, field: "inputText").map {
                .inputText($0, into: nil, keyDelay: .milliseconds(60), jitter: .milliseconds(90), seed: 1)
            }
        }
        guard let fields = mapping(node, field: "inputText", allowed: ["text", "into", "keyDelay", "jitter", "seed"]) else { return nil }
        guard let textNode = fields["text"] else {
            fail(location(node), "missing field 'text' in inputText")
            return nil
        }
        let text = string(textNode, field: "text")
        let into = fields["into"].map { target($0, step: "into")?.0 }
        let keyDelay = fields["keyDelay"].map { duration($0, field: "keyDelay") } ?? .milliseconds(60)
        let jitter = fields["jitter"].map { duration($0, field: "jitter") } ?? .milliseconds(90)
        let seed = fields["seed"].map { int($0, field: "seed", in: 0...Int.max).map(UInt64.init) } ?? 1
        guard let text, let keyDelay, let jitter, let seed, into != .some(nil) else { return nil }
        return .inputText(text, into: into ?? nil, keyDelay: keyDelay, jitter: jitter, seed: seed)
    }

    private func swipe(_ node: Node) -> FlowStep.Swipe? {
        if case .scalar = node {
            let direction: FlowStep.Direction? = choice(node, field: "swipe")
            return direction.map { FlowStep.Swipe(direction: $0, duration: DeviceAction.Defaults.swipeDuration) }
        }
        guard let fields = mapping(node, field: "swipe", allowed: ["direction", "from", "to", "edge", "duration"]) else { return nil }
        var swipe = FlowStep.Swipe(duration: DeviceAction.Defaults.swipeDuration)
        if let value = fields["direction"] { swipe.direction = choice(value, field: "direction") ?? swipe.direction }
        if let value = fields["edge"] { swipe.edge = choice(value, field: "edge") }
        if let value = fields["from"] { swipe.from = target(value, step: "from")?.0 }
        if let value = fields["to"] { swipe.to = target(value, step: "to")?.0 }
        if let value = fields["duration"], let time = duration(value, field: "duration") { swipe.duration = time }
        let shapes = [
            swipe.edge != nil && swipe.from == nil && swipe.to == nil && swipe.direction == nil,
            swipe.direction != nil && swipe.edge == nil && swipe.to == nil,
            swipe.from != nil && swipe.to != nil && swipe.edge == nil && swipe.direction == nil,
        ]
        guard shapes.contains(true) else {
            fail(location(node), "a swipe takes 'direction' (with an optional 'from' element or point), 'edge', or 'from' and 'to'")
            return nil
        }
        return swipe
    }

    /// Keys of the software keyboard by name (Maestro's Enter and Backspace too), a single
    /// character, or Home.
    static let keyNames = ["Return", "Enter", "delete", "Backspace", "space", "shift", "more", "Home"]

    private func pressKey(_ node: Node) -> FlowStep.Action? {
        guard let key = string(node, field: "pressKey") else { return nil }
        if key.count == 1 { return .pressKey(key) }
        if let name = Self.keyNames.first(where: { $0.lowercased() == key.lowercased() }) {
            return .pressKey(["Enter": "Return", "Backspace": "delete"][name] ?? name)
        }
        fail(
            location(node),
            "unknown key '\(key)'\(Spelling.hint(for: key, in: Self.keyNames)) (keys: \(Self.keyNames.joined(separator: ", ")), or one character)"
        )
        return nil
    }

    private func keyCommand(_ node: Node) -> FlowStep.Action? {
        guard let text = string(node, field: "keyCommand") else { return nil }
        guard let input = KeyInput(parsing: text) else {
            fail(
                location(node),
                "'\(text)' is not a key command: write modifiers and a key joined by '+', e.g. cmd+d (modifiers: cmd, shift, alt, ctrl)")
            return nil
        }
        let names = input.description.split(separator: "+").dropLast().map(String.init)
        return .keyCommand(DeviceAction.KeyCommand(input.key, modifiers: KeyModifiers(names: names) ?? []))
    }

    private func screenshotName(_ node: Node) -> String? {
        guard let name = string(node, field: "screenshot") else { return nil }
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
            fail(location(node), "a screenshot name is a plain file name (no '/', not starting with '.'), got '\(name)'")
            return nil
        }
        return name.hasSuffix(".png") ? String(name.dropLast(4)) : name
    }

    /// Another flow file, relative to this one, parsed in turn; a file already on the way
    /// here is a cycle.
    private func runFlow(_ node: Node) -> FlowStep.Action? {
        var fileNode = node
        if case .mapping = node {
            guard let fields = mapping(node, field: "runFlow", allowed: ["file"]), let value = fields["file"] else {
                fail(location(node), "missing field 'file' in runFlow")
                return nil
            }
            fileNode = value
        }
        guard let path = string(fileNode, field: "runFlow") else { return nil }
        let target = URL(fileURLWithPath: path, relativeTo: url.deletingLastPathComponent()).standardizedFileURL
        let targetID = Self.relativeID(path, from: id)
        guard FileManager.default.fileExists(atPath: target.path) else {
            let siblings = (try? FileManager.default.contentsOfDirectory(atPath: target.deletingLastPathComponent().path)) ?? []
            fail(
                location(fileNode),
                "runFlow: no file '\(targetID)'\(Spelling.hint(for: target.lastPathComponent, in: siblings.filter(FlowDiscovery.isFlowFile)))"
            )
            return nil
        }
        if let first = chain.firstIndex(of: target) {
            let names = (chain[first...] + [target]).map(\.lastPathComponent).joined(separator: " -> ")
            fail(location(fileNode), "runFlow cycle: \(names)")
            return nil
        }
        guard withinNesting(fileNode, step: "runFlow") else { return nil }
        var nested: [FlowDiagnostic] = []
        let flow = parser.parse(
            target, id: targetID, chain: chain, problems: &nested, requiresApp: false, budget: budget,
            nesting: nesting + 1)
        problems += nested
        return flow.map(FlowStep.Action.runFlow)
    }

    private func repeatSteps(_ node: Node) -> FlowStep.Action? {
        guard let fields = mapping(node, field: "repeat", allowed: ["times", "commands"]) else { return nil }
        guard let timesNode = fields["times"], let commands = fields["commands"] else {
            fail(location(node), "repeat needs 'times' (a number) and 'commands' (a list of steps)")
            return nil
        }
        let times = int(timesNode, field: "times", in: FlowLimits.repeatTimes)
        guard withinNesting(node, step: "repeat") else { return nil }
        nesting += 1
        defer { nesting -= 1 }
        let steps = steps(commands, field: "commands")
        return times.map { .repeatSteps(times: $0, steps: steps) }
    }

    /// Whether one more `repeat` or `runFlow` fits inside the ones this step is in: nesting is
    /// bounded, so neither the parser nor the runner recurses without end.
    private func withinNesting(_ node: Node, step: String) -> Bool {
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
        let folder = (id as NSString).deletingLastPathComponent
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

    static func example(_ name: String) -> String {
        switch name {
        case "tapOn", "doubleTapOn", "longPressOn", "assertVisible", "assertNotVisible", "waitFor", "scrollUntilVisible":
            "\(name): \"Canada\" or \(name): {id: countryName}"
        case "inputText": "inputText: \"hello@example.com\""
        case "pressKey": "pressKey: Return"
        case "swipe": "swipe: left or swipe: {edge: right}"
        case "keyCommand": "keyCommand: cmd+d"
        case "wait": "wait: 1.5"
        case "screenshot": "screenshot: details"
        case "statusBar": "statusBar: {time: \"9:41\"}"
        case "setAppearance": "setAppearance: dark"
        case "runFlow": "runFlow: login.yaml"
        case "repeat": "repeat: {times: 3, commands: [back]}"
        default: SystemStep.example(name) ?? "caption: \"Sign up in seconds\""
        }
    }
}
