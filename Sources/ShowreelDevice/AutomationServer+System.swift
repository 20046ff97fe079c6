import Hummingbird
import ShowreelGraphics
import ShowreelHTTP
import ShowreelWire

/// The automation API's routes for what simctl does to a device (`SystemAction`).
extension AutomationServer {
    func registerSystem(on router: Router<AutomationRequestContext>) {
        typealias Routes = AutomationAPI.Routes
        let device = self.device
        act(router, Routes.setPasteboard, AutomationAPI.PasteboardText.self) { body, _ in .setPasteboard(body.text) }
        router.on(Routes.pasteboard) { _, _ in await respond { AutomationAPI.PasteboardText(text: await device.pasteboard()) } }
        act(router, Routes.openURL, AutomationAPI.OpenURL.self) { body, _ in .openURL(body.url) }
        act(router, Routes.privacy, AutomationAPI.Privacy.self) { body, _ in .setPermission(try body.change()) }
        act(router, Routes.setLocation, Coordinate.self) { body, _ in .setLocation(body) }
        act(router, Routes.clearLocation) { _ in .setLocation(nil) }
        act(router, Routes.travel, LocationRoute.self) { body, _ in .travel(body) }
        router.on(Routes.location) { _, _ in await respond { AutomationAPI.Location(await device.location()) } }
        act(router, Routes.push, PushPayload.self) { body, context in .push(body, to: try Self.bundle(context)) }
        router.on(Routes.notifications) { _, _ in await respond { AutomationAPI.Notifications(await device.notifications()) } }
        act(router, Routes.setNetwork, AutomationAPI.Network.self) { body, _ in .setAirplaneMode(body.airplaneMode) }
        router.on(Routes.network) { _, _ in await respond { AutomationAPI.Network(airplaneMode: await device.airplaneMode()) } }
        act(router, Routes.setOrientation, AutomationAPI.SetOrientation.self) { body, _ in .setOrientation(try body.parsed()) }
        router.on(Routes.orientation) { _, _ in await respond { await device.orientation() } }
        act(router, Routes.addMedia, MediaFile.self, limit: AutomationLimits.maxMediaBodyBytes) { body, _ in .addMedia(body) }
        router.on(Routes.permissions) { _, context in
            await respond { AutomationAPI.Permissions(await device.permissions(of: try Self.bundle(context))) }
        }
    }
}
