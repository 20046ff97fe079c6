import ShowcaseApps
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelTestSupport
import ShowreelUI
import Testing

/// The notification banner: it slides down over any app, stays for its time, then slides away;
/// a tap on it asks the device to open its app; every notification stays in the list.
@Suite("Notification banner")
struct NotificationBannerTests {
    static let lunch = SystemNotification(
        bundleIdentifier: MailApp.bundleIdentifier, appName: "Mail", title: "Kate Bell", subtitle: "Lunch", body: "Noon at the usual place?"
    )

    @Test("it slides in over Hello, reads as one element, stays its time and slides away")
    func lifecycle() throws {
        let h = try SceneHarness(app: HelloApp.definition)
        h.settle()
        h.scene.deliver(Self.lunch)
        #expect(h.scene.hasRunningAnimations)
        h.settle()
        let banner = try #require(h.element("NotificationBanner"))
        #expect(banner.label == "Mail, Kate Bell, Lunch, Noon at the usual place?")
        #expect(banner.isHittable && banner.frame.minY > 0)
        h.advance(by: .seconds(4))
        #expect(h.element("NotificationBanner") != nil)
        h.advance(by: .seconds(1))
        h.settle()
        #expect(h.element("NotificationBanner") == nil)
        #expect(h.scene.notifications.delivered.map(\.id) == [1])
    }

    @Test("a tap hides it and asks once for its app to open; a second delivery replaces the banner")
    func tap() throws {
        let h = try SceneHarness(app: HelloApp.definition)
        h.scene.deliver(Self.lunch)
        var second = Self.lunch
        second.title = "Kate Bell again"
        h.scene.deliver(second)
        h.settle()
        #expect(h.elements.filter { $0.identifier == "NotificationBanner" }.count == 1)
        try h.tap("NotificationBanner")
        #expect(h.element("NotificationBanner") == nil)
        #expect(h.scene.notifications.takeOpenRequest() == MailApp.bundleIdentifier)
        #expect(h.scene.notifications.takeOpenRequest() == nil)
        #expect(h.scene.notifications.delivered.map(\.id) == [1, 2])
    }
}
