import Hummingbird
import ShowreelHTTP
import ShowreelWire

extension AutomationServer {
    /// Swipes, shakes and key commands: the events that go through the toolkit's touch input.
    func registerGestures(on router: Router<AutomationRequestContext>) {
        let device = self.device
        let limits = self.limits
        router.on(AutomationAPI.Routes.swipe) { request, _ in
            await respond(request, limits: limits, as: AutomationAPI.Swipe.self) { body in
                try await device.swipe(try Self.swipe(body), duration: body.duration.map { .seconds($0) } ?? .milliseconds(300))
                return AutomationAPI.OK()
            }
        }
        router.on(AutomationAPI.Routes.shake) { _, _ in await respond { try await device.shake(); return AutomationAPI.OK() } }
        router.on(AutomationAPI.Routes.keyCommand) { request, _ in
            await respond(request, limits: limits, as: AutomationAPI.KeyCommand.self) { body in
                try await device.keyCommand(body.key, modifiers: body.modifiers)
                return AutomationAPI.OK()
            }
        }
    }

    /// The swipe a request body describes: exactly one of its three forms.
    static func swipe(_ body: AutomationAPI.Swipe) throws -> Device.Swipe {
        switch (body.query, body.direction, body.edge, body.from, body.to) {
        case let (query?, direction?, nil, nil, nil): return .element(query, direction)
        case let (nil, nil, edge?, nil, nil): return .edge(edge)
        case let (nil, nil, nil, from?, to?): return .points(from: from, to: to)
        default:
            throw DeviceError.invalidRequest(
                "POST /v1/swipe needs one of: 'query' with 'direction', 'edge' (left, right, top, bottom), or 'from' and 'to' points")
        }
    }
}
