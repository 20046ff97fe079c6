import Foundation
import ShowreelAccessibility
import ShowreelGraphics

/// How an action travels over the automation API: its route, the bundle in its path, its JSON
/// body, and how its answer reads back. `DeviceClient` sends actions this way and
/// `AutomationServer` turns each body back into the same action (`action(bundle:)` below), so
/// the HTTP transport adds nothing of its own to what an action means.
package struct ActionRequest: Sendable {
    public var route: Route
    public var bundle: String?
    public var body: (any Encodable & Sendable)?
    let answer: Answer

    enum Answer { case ok, app, waited, statusBar }

    /// The action's result, from the response body.
    public func result(from data: Data) throws -> ActionResult {
        let decoder = JSONDecoder()
        switch answer {
        case .ok: return .done
        case .app: return .app(try decoder.decode(AppStatus.self, from: data))
        case .waited: return .waited(try decoder.decode(AutomationAPI.WaitResult.self, from: data))
        case .statusBar: return .statusBar(try decoder.decode(StatusBarOverride.self, from: data))
        }
    }
}

extension DeviceAction {
    package var request: ActionRequest {
        typealias Routes = AutomationAPI.Routes
        switch self {
        case let .launch(bundle, arguments, environment):
            return ActionRequest(
                route: Routes.launch, bundle: bundle, body: AutomationAPI.Launch(arguments: arguments, environment: environment),
                answer: .app)
        case let .terminate(bundle): return ActionRequest(route: Routes.terminate, bundle: bundle, body: nil, answer: .app)
        case let .activate(bundle): return ActionRequest(route: Routes.activate, bundle: bundle, body: nil, answer: .app)
        case .pressHome: return ActionRequest(route: Routes.home, body: AutomationAPI.OK(), answer: .ok)
        case let .tap(tap):
            var body = AutomationAPI.Tap(
                count: tap.count == 1 ? nil : tap.count, duration: tap.hold == Defaults.tapHold ? nil : tap.hold.seconds)
            switch tap.target {
            case let .element(query): body.query = query
            case let .point(point): body.point = point
            }
            return ActionRequest(route: Routes.tap, body: body, answer: .ok)
        case let .typeText(typing):
            let body = AutomationAPI.TypeText(
                text: typing.text, query: typing.into, keyDelay: typing.keyDelay.seconds,
                jitter: typing.jitter.seconds, seed: typing.seed)
            return ActionRequest(route: Routes.type, body: body, answer: .ok)
        case let .pressKey(key): return ActionRequest(route: Routes.key, body: AutomationAPI.Key(key: key), answer: .ok)
        case let .keyCommand(command):
            return ActionRequest(
                route: Routes.keyCommand, body: AutomationAPI.KeyCommand(key: command.key, modifiers: command.modifiers.names), answer: .ok)
        case let .swipe(swipe):
            var body = AutomationAPI.Swipe(duration: swipe.duration.seconds)
            switch swipe.path {
            case let .element(query, direction): body.query = query; body.direction = direction
            case let .edge(edge): body.edge = edge
            case let .from(point, direction): body.from = point; body.direction = direction
            case let .points(from, to): body.from = from; body.to = to
            }
            return ActionRequest(route: Routes.swipe, body: body, answer: .ok)
        case let .scroll(direction):
            return ActionRequest(route: Routes.scroll, body: AutomationAPI.Scroll(direction: direction), answer: .ok)
        case .shake: return ActionRequest(route: Routes.shake, body: AutomationAPI.OK(), answer: .ok)
        case let .wait(duration): return ActionRequest(route: Routes.wait, body: AutomationAPI.Wait(seconds: duration.seconds), answer: .ok)
        case let .waitFor(wait):
            let body = AutomationAPI.WaitFor(query: wait.query, exists: wait.exists, hittable: wait.hittable, timeout: wait.timeout.seconds)
            return ActionRequest(route: Routes.waitFor, body: body, answer: .waited)
        case let .waitForState(bundle, state, timeout):
            return ActionRequest(
                route: Routes.waitForState, bundle: bundle, body: AutomationAPI.WaitForState(state: state, timeout: timeout.seconds),
                answer: .waited)
        case let .overrideStatusBar(values): return ActionRequest(route: Routes.overrideStatusBar, body: values, answer: .statusBar)
        case .clearStatusBar: return ActionRequest(route: Routes.clearStatusBar, body: nil, answer: .statusBar)
        case let .setInterfaceStyle(style):
            return ActionRequest(route: Routes.appearance, body: AutomationAPI.SetAppearance(appearance: style), answer: .ok)
        case let .system(action): return action.request
        }
    }
}

// MARK: Bodies back into actions (the server's side)

extension AutomationAPI.Launch {
    public func action(bundle: String) -> DeviceAction {
        .launch(bundle: bundle, arguments: arguments ?? [], environment: environment ?? [:])
    }
}

extension AutomationAPI.Tap {
    public func action() throws(AutomationInputError) -> DeviceAction {
        let hold = try duration.map { seconds throws(AutomationInputError) in
            try AutomationLimits.duration(seconds, "duration", AutomationLimits.gesture)
        }
        let target: DeviceAction.Target
        switch (query, point) {
        case let (query?, nil): target = .element(query)
        case let (nil, point?): target = .point(point)
        default: throw .invalidShape("POST /v1/tap needs either 'query' or 'point', not both or neither")
        }
        return .tap(DeviceAction.Tap(target, count: count ?? 1, hold: hold ?? DeviceAction.Defaults.tapHold))
    }
}

extension AutomationAPI.TypeText {
    public func action() throws(AutomationInputError) -> DeviceAction {
        .typeText(
            DeviceAction.TypeText(
                text, into: query,
                keyDelay: try AutomationLimits.duration(keyDelay ?? 0, "keyDelay", AutomationLimits.gesture),
                jitter: try AutomationLimits.duration(jitter ?? 0, "jitter", AutomationLimits.gesture),
                seed: seed ?? 1))
    }
}

extension AutomationAPI.KeyCommand {
    public func action() throws(AutomationInputError) -> DeviceAction {
        guard let parsed = KeyModifiers(names: modifiers) else {
            throw .outOfRange(field: "modifiers", message: "must name command, shift, option or control, got \(modifiers)")
        }
        return .keyCommand(DeviceAction.KeyCommand(key, modifiers: parsed))
    }
}

extension AutomationAPI.Swipe {
    public func action() throws(AutomationInputError) -> DeviceAction {
        let time = try AutomationLimits.duration(
            duration ?? DeviceAction.Defaults.swipeDuration.seconds, "duration", AutomationLimits.swipe)
        let path: DeviceAction.Swipe.Path
        switch (query, direction, edge, from, to) {
        case let (query?, direction?, nil, nil, nil): path = .element(query, direction)
        case let (nil, nil, edge?, nil, nil): path = .edge(edge)
        case let (nil, direction?, nil, from?, nil): path = .from(from, direction)
        case let (nil, nil, nil, from?, to?): path = .points(from: from, to: to)
        default:
            throw .invalidShape(
                "POST /v1/swipe needs one of: 'query' with 'direction', 'edge' (left, right, top, bottom), 'from' with 'direction', or 'from' and 'to' points"
            )
        }
        return .swipe(DeviceAction.Swipe(path, duration: time))
    }
}

extension AutomationAPI.Wait {
    public func action() throws(AutomationInputError) -> DeviceAction {
        .wait(try AutomationLimits.duration(seconds, "seconds", AutomationLimits.wait))
    }
}

extension AutomationAPI.WaitFor {
    public func action() throws(AutomationInputError) -> DeviceAction {
        .waitFor(
            DeviceAction.WaitFor(
                query, exists: exists ?? true, hittable: hittable ?? false,
                timeout: try AutomationLimits.duration(timeout, "timeout", AutomationLimits.wait)))
    }
}

extension AutomationAPI.WaitForState {
    public func action(bundle: String) throws(AutomationInputError) -> DeviceAction {
        .waitForState(bundle: bundle, state: state, timeout: try AutomationLimits.duration(timeout, "timeout", AutomationLimits.wait))
    }
}
