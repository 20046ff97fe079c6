import Foundation
import Logging
import ShowreelAccessibility
import ShowreelDevice
import ShowreelGraphics
import ShowreelRender
import ShowreelScript
import ShowreelUI
import ShowreelWire
import Yams

/// `inputText`: types key by key on the software keyboard, into a target when given, with a
/// seeded jitter between keys.
struct InputTextCommand: FlowCommand {
    var text: String
    var into: FlowStep.Target?
    var keyDelay: Duration = .milliseconds(60)
    var jitter: Duration = .milliseconds(90)
    var seed: UInt64 = 1

    static let grammar = CommandGrammar(names: ["inputText"], example: "inputText: \"hello@example.com\"") { parser, input in
        let node = input.value
        if case .scalar = node { return parser.string(node, field: "inputText").map { InputTextCommand(text: $0) } }
        guard let fields = parser.mapping(node, field: "inputText", allowed: ["text", "into", "keyDelay", "jitter", "seed"]) else {
            return nil
        }
        guard let textNode = fields["text"] else {
            parser.fail(parser.location(node), "missing field 'text' in inputText")
            return nil
        }
        let text = parser.string(textNode, field: "text")
        let into = fields["into"].map { parser.target($0, step: "into")?.0 }
        let keyDelay = fields["keyDelay"].map { parser.duration($0, field: "keyDelay") } ?? .milliseconds(60)
        let jitter = fields["jitter"].map { parser.duration($0, field: "jitter") } ?? .milliseconds(90)
        let seed = fields["seed"].map { parser.int($0, field: "seed", in: 0...Int.max).map(UInt64.init) } ?? 1
        guard let text, let keyDelay, let jitter, let seed, into != .some(nil) else { return nil }
        return InputTextCommand(text: text, into: into ?? nil, keyDelay: keyDelay, jitter: jitter, seed: seed)
    }

    var summary: String { "Type “\(text)”" }

    func run(in execution: FlowExecution) async throws {
        try await execution.type(
            try execution.resolve(text), into: try into.map(execution.resolve), keyDelay: keyDelay, jitter: jitter, seed: seed)
    }
}

extension FlowExecution {
    func type(_ text: String, into: FlowStep.Target?, keyDelay: Duration, jitter: Duration, seed: UInt64) async throws {
        var query: ElementQuery?
        if let into {
            if case let .element(spec) = into, !spec.needsMatcher {
                query = Self.query(spec)
            } else {
                try await act(.tap(DeviceAction.Tap(try await touchTarget(into))))
            }
        }
        try await act(.typeText(DeviceAction.TypeText(text, into: query, keyDelay: keyDelay, jitter: jitter, seed: seed)))
    }
}

/// `inputRandomEmail`, `inputRandomNumber`, `inputRandomPersonName`, `inputRandomText`
/// (`length`, default 8): made from the flow's seeded numbers, so a run types the same text
/// every time.
struct InputRandomCommand: FlowCommand {
    enum Kind: String, CaseIterable, Sendable {
        case email = "inputRandomEmail"
        case number = "inputRandomNumber"
        case personName = "inputRandomPersonName"
        case text = "inputRandomText"
    }

    var kind: Kind
    var length = 8

    static let grammar = CommandGrammar(names: Kind.allCases.map(\.rawValue), bare: true, example: "inputRandomText: {length: 4}") {
        parser, input in
        var command = InputRandomCommand(kind: Kind(rawValue: input.name)!)
        guard let node = input.argument else { return command }
        guard let fields = parser.mapping(node, field: input.name, allowed: ["length"]) else { return nil }
        if let value = fields["length"] {
            guard let length = parser.int(value, field: "length", in: 1...1000) else { return nil }
            command.length = length
        }
        return command
    }

    var summary: String {
        "Type a random \(kind == .personName ? "name" : kind == .email ? "email address" : kind == .number ? "number" : "text")"
    }

    static let names = ["Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Frances", "John", "Margaret", "Tim"]
    static let surnames = ["Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov", "Knuth", "Allen", "Backus", "Hamilton", "Berners"]

    func text(using random: inout SeededRandom) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        func characters(_ count: Int, from set: [Character]) -> String {
            String((0..<count).map { _ in set.randomElement(using: &random)! })
        }
        switch kind {
        case .number:
            return String((1...length).map { index in Character(String(Int.random(in: (index == 1 ? 1 : 0)...9, using: &random))) })
        case .text: return characters(length, from: letters)
        case .email: return characters(8, from: letters) + "@example.com"
        case .personName: return "\(Self.names.randomElement(using: &random)!) \(Self.surnames.randomElement(using: &random)!)"
        }
    }

    func run(in execution: FlowExecution) async throws {
        let text = text(using: &execution.random)
        try await execution.type(text, into: nil, keyDelay: .milliseconds(60), jitter: .milliseconds(90), seed: 1)
    }
}

/// `eraseText` (`eraseText: 3`, Maestro's default 50): that many Delete key presses in the
/// focused field.
struct EraseTextCommand: FlowCommand {
    var characters = 50

    static let grammar = CommandGrammar(names: ["eraseText"], bare: true, example: "eraseText: 3") { parser, input in
        guard let argument = input.argument else { return EraseTextCommand() }
        guard let node = parser.shorthand(argument, step: input.name, field: "charactersToErase") else { return nil }
        return parser.int(node, field: "eraseText", in: 0...10_000).map(EraseTextCommand.init)
    }

    var summary: String { "Erase \(characters) characters" }

    func run(in execution: FlowExecution) async throws {
        guard await execution.device.hasFocusedTextField else {
            throw StepFailure(message: "no text field has focus to erase from: tap one first")
        }
        for _ in 0..<characters { try await execution.act(.pressKey("delete")) }
    }
}

/// `pressKey`: a key of the software keyboard by name (Maestro's Enter, Backspace, Back too),
/// one character, or Home.
struct PressKeyCommand: FlowCommand {
    var key: String

    static let keyNames = ["Return", "Enter", "delete", "Backspace", "space", "shift", "more", "Home", "Back"]

    static let grammar = CommandGrammar(names: ["pressKey"], example: "pressKey: Return") { parser, input in
        let node = input.value
        guard let key = parser.string(node, field: "pressKey") else { return nil }
        if key.count == 1 { return PressKeyCommand(key: key) }
        if let name = keyNames.first(where: { $0.lowercased() == key.lowercased() }) {
            return PressKeyCommand(key: ["Enter": "Return", "Backspace": "delete"][name] ?? name)
        }
        parser.fail(
            parser.location(node),
            "unknown key '\(key)'\(Spelling.hint(for: key, in: keyNames)) (keys: \(keyNames.joined(separator: ", ")), or one character)"
        )
        return nil
    }

    var summary: String { "Press \(key)" }

    func run(in execution: FlowExecution) async throws {
        switch key {
        case "Home": try await execution.act(.pressHome)
        case "Back": try await BackCommand().run(in: execution)
        default: try await execution.act(.pressKey(key))
        }
    }
}

/// `hideKeyboard`: the keyboard's Return key ends editing, as on a phone.
struct HideKeyboardCommand: FlowCommand {
    static let grammar = CommandGrammar(names: ["hideKeyboard"], bare: true, example: "hideKeyboard") { _, _ in HideKeyboardCommand() }

    var summary: String { "Hide the keyboard" }

    func run(in execution: FlowExecution) async throws {
        guard await !execution.device.elements(.descendants(type: .keyboard)).isEmpty else { return }
        try await execution.act(.pressKey("Return"))
    }
}
