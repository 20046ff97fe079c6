import ShowcaseApps
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelTestSupport
import ShowreelUI
import Testing

/// Notification Center: a swipe down from the top edge shows every delivered notification,
/// newest first; a tap on one opens its app; a swipe up from the bottom edge puts it away.
@Suite("Notification Center")
struct NotificationCenterTests {
    static func harness(deliveries: Int) throws -> SceneHarness {
        let h = try SceneHarness(app: HelloApp.definition)
        h.settle()
        for index in 0..<deliveries {
            var notification = NotificationBannerTests.lunch
            notification.title = "Kate Bell \(index + 1)"
            h.scene.deliver(notification)
        }
        h.advance(by: .seconds(6))
        h.settle()
        return h
    }

    @Test("pulled down from the top edge: both notifications, newest first, each one element")
    func pullDown() throws {
        let h = try Self.harness(deliveries: 2)
        #expect(h.element("NotificationBanner") == nil, "the banner has gone by itself")
        let middle = h.scene.bounds.midX
        h.drag(from: Point(x: middle, y: 2), to: Point(x: middle, y: 400))
        h.settle()
        #expect(h.scene.isShowingNotificationCenter)
        let cards = h.elements.filter { $0.identifier == "Notification" }
        let labels = cards.map(\.label)
        let expected = ["Mail, Kate Bell 2, Lunch, Noon at the usual place?", "Mail, Kate Bell 1, Lunch, Noon at the usual place?"]
        #expect(labels == expected)
        #expect(cards.allSatisfy { $0.isHittable })
        // A drag that starts lower is the app's, not the system's.
        h.drag(from: Point(x: middle, y: h.scene.bounds.maxY - 2), to: Point(x: middle, y: 300))
        h.settle()
        #expect(!h.scene.isShowingNotificationCenter)
        #expect(h.element("Notification") == nil)
    }

    @Test("a tap on a notification closes Notification Center and asks once for its app")
    func tapOpensTheApp() throws {
        let h = try Self.harness(deliveries: 1)
        h.scene.showNotificationCenter()
        h.settle()
        try h.tap("Notification")
        #expect(!h.scene.isShowingNotificationCenter)
        #expect(h.scene.notifications.takeOpenRequest() == MailApp.bundleIdentifier)
        #expect(h.scene.notifications.takeOpenRequest() == nil)
    }

    @Test("with nothing delivered it says so, in the device's language")
    func emptyInGerman() throws {
        let h = try SceneHarness(app: HelloApp.definition)
        h.scene.systemStrings = SystemStrings(deviceLanguages: ["de"])
        h.scene.showNotificationCenter()
        h.settle()
        #expect(h.elements.contains { $0.label == "Keine älteren Mitteilungen" })
        #expect(h.elements.contains { $0.label == "Mitteilungszentrale" })
    }

    @Test("a drag down from lower on the screen does not open it")
    func onlyFromTheEdge() throws {
        let h = try Self.harness(deliveries: 1)
        h.drag(from: Point(x: 200, y: 120), to: Point(x: 200, y: 500))
        h.settle()
        #expect(!h.scene.isShowingNotificationCenter)
    }
}
