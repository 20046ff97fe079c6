import Hummingbird
import ShowreelWire

extension AutomationServer {
    /// Swipes, shakes and key commands: the events that go through the toolkit's touch input.
    func registerGestures(on router: Router<AutomationRequestContext>) {
        let device = self.device
        let limits = self.limits
        router.post("v1/swipe") { request, _ in
            await respond(request, limits: limits, as: AutomationAPI.Swipe.self) { body in
                try await device.swipe(body)
                return AutomationAPI.OK()
            }
        }
        router.post("v1/shake") { _, _ in await respond { try await device.shake(); return AutomationAPI.OK() } }
        router.post("v1/key-command") { request, _ in
            await respond(request, limits: limits, as: AutomationAPI.KeyCommand.self) { body in
                try await device.keyCommand(body.key, modifiers: body.modifiers)
                return AutomationAPI.OK()
            }
        }
    }
}
