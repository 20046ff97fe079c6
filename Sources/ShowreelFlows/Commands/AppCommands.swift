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

/// `launchApp`: launches (or relaunches) the app, with the header's arguments and env unless
/// given; `clearState` wipes its data first, `permissions` are set before, `stopApp: false`
/// brings a running app forward instead of restarting it.
struct LaunchAppCommand: FlowCommand {
    var appId: String?
    var arguments: [String]?
    var environment: [String: String]?
    var clearState = false
    var permissions: [FlowPermission] = []

    static let grammar = CommandGrammar(
        names: ["launchApp"], bare: true, example: "launchApp: {appId: dev.showreel.hello, clearState: true}"
    ) { parser, input in
        guard let node = input.argument else { return LaunchAppCommand() }
        if case .scalar = node {
            guard let app = parser.string(node, field: "appId"), parser.checkApp(app, at: node) else { return nil }
            return LaunchAppCommand(appId: app)
        }
        let keys = ["appId", "arguments", "env", "clearState", "permissions", "clearKeychain", "stopApp"]
        guard let fields = parser.mapping(node, field: "launchApp", allowed: keys) else { return nil }
        var command = LaunchAppCommand()
        if let value = fields["appId"] {
            guard let name = parser.string(value, field: "appId"), parser.checkApp(name, at: value) else { return nil }
            command.appId = name
        }
        command.arguments = fields["arguments"].flatMap { parser.launchArguments($0) }
        command.environment = fields["env"].flatMap { parser.environment($0, field: "env") }
        command.clearState = fields["clearState"].flatMap { parser.bool($0, field: "clearState") } ?? false
        // A Showreel device keeps no keychain, and always starts the app anew: both are checked only.
        _ = fields["clearKeychain"].flatMap { parser.bool($0, field: "clearKeychain") }
        _ = fields["stopApp"].flatMap { parser.bool($0, field: "stopApp") }
        if let value = fields["permissions"] {
            guard let parsed = parser.permissions(value) else { return nil }
            command.permissions = parsed
        }
        return command
    }

    var summary: String { appId.map { "Launch \($0)" } ?? "Launch the app" }

    func run(in execution: FlowExecution) async throws {
        let flow = execution.flow
        guard let app = appId ?? flow.appId else { throw StepFailure(message: "no app to launch: name one with appId") }
        try await execution.apply(permissions, to: app)
        if clearState { try? FileManager.default.removeItem(at: execution.device.dataContainer(for: app)) }
        let variables = try flow.environment.merging(environment ?? [:]) { $1 }.mapValues(execution.resolve)
        try await execution.act(
            .launch(
                bundle: app, arguments: flow.device.launchArguments + (try (arguments ?? flow.arguments).map(execution.resolve)),
                environment: variables))
    }
}

/// `stopApp` and `killApp` (Maestro's two names for one thing on iOS): the app stops;
/// `clearState`: it stops and its data container is wiped (the next launch starts fresh).
struct StopAppCommand: FlowCommand {
    var appId: String?
    var clearsData = false

    static let grammar = CommandGrammar(
        names: ["stopApp", "killApp", "clearState"], bare: true, example: "stopApp: dev.showreel.hello"
    ) { parser, input in
        let clears = input.name == "clearState"
        guard let node = input.argument else { return StopAppCommand(clearsData: clears) }
        return parser.app(node, step: input.name).map { StopAppCommand(appId: $0, clearsData: clears) }
    }

    var summary: String { clearsData ? "Clear the data of \(appId ?? "the app")" : "Stop \(appId ?? "the app")" }

    func run(in execution: FlowExecution) async throws {
        guard let app = appId ?? execution.flow.appId else { throw StepFailure(message: "no app named: give one with appId") }
        try await execution.act(.terminate(bundle: app))
        if clearsData { try? FileManager.default.removeItem(at: execution.device.dataContainer(for: app)) }
    }
}

/// `clearKeychain`: a Showreel device keeps no keychain, so there is nothing to clear.
struct ClearKeychainCommand: FlowCommand {
    static let grammar = CommandGrammar(names: ["clearKeychain"], bare: true, example: "clearKeychain") { _, _ in
        ClearKeychainCommand()
    }

    var summary: String { "Clear the keychain" }

    func run(in execution: FlowExecution) async throws {}
}

extension FlowExecution {
    /// Sets an app's permissions, in order (`all` first), before a launch or as a step.
    func apply(_ permissions: [FlowPermission], to app: String) async throws {
        for permission in permissions { _ = try await device.perform(.setPermission(permission.change(for: app))) }
    }
}

extension FileParser {
    /// Launch arguments: a list, or Maestro's map (`{initialCounter: 3}`), passed as Maestro's
    /// iOS driver passes it: `-initialCounter 3`, a key already starting with '-' as it is, and a
    /// true/false value after its key without a '-' (`isCartScreen true`).
    func launchArguments(_ node: Node) -> [String]? {
        guard case let .mapping(map) = node else { return strings(node, field: "arguments") }
        var arguments: [String] = []
        for (key, value) in map {
            guard let name = string(key, field: "arguments name"), let text = string(value, field: "arguments.\(name)") else { return nil }
            let isBool = value.scalar?.style == .plain && value.bool != nil
            arguments += [isBool || name.hasPrefix("-") ? name : "-\(name)", isBool ? String(value.bool!) : text]
        }
        return arguments
    }
}
