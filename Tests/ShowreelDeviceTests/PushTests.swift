import Foundation
import ShowcaseApps
import ShowreelDevice
import ShowreelGraphics
import ShowreelTestSupport
import ShowreelTesting
import ShowreelWire
import Testing

/// `simctl push` over real HTTP: a payload in simctl's shape, the banner over another app, the
/// list, and a tap that opens the app.
@Suite("Device push notifications over HTTP")
struct PushTests {
    typealias Harness = AutomationAPITests.Harness

    @Test("a simctl payload (with the app's own keys) shows a banner over Hello; tapping it opens Mail; the list keeps it")
    func pushAndOpen() async throws {
        try await Harness.with { h in
            let hello = Application(HelloApp.bundleIdentifier, device: h.client)
            try await hello.launch()
            let payload = #"{"aps":{"alert":{"title":"Kate Bell","body":"Noon?"},"badge":1,"sound":"default"},"thread":"lunch"}"#
            let (status, body) = try await SystemActionTests.send(h.client.baseURL!, "POST", "/v1/apps/dev.showreel.mail/push", payload)
            #expect(status == 200, "\(body)")
            let banner = hello.descendants()["NotificationBanner"]
            #expect(try await banner.label == "Mail, Kate Bell, Noon?")
            try await banner.tap()
            #expect(try await h.client.status(of: MailApp.bundleIdentifier).state == .runningForeground)
            #expect(try await h.client.status(of: HelloApp.bundleIdentifier).state == .runningBackground)

            try await h.client.push(PushPayload(body: "Second"), to: MailApp.bundleIdentifier)
            let list = try await h.client.notifications()
            #expect(list.map(\.title) == ["Kate Bell", nil] && list.map(\.body) == ["Noon?", "Second"] && list.map(\.id) == [1, 2])
            // Left alone, the banner slides away after its time.
            _ = try await h.client.perform(.wait(.seconds(6)))
            #expect(try await !banner.exists)
        }
    }

    @Test("a swipe down from the top edge shows Notification Center with the list; a tap opens the app; home puts it away")
    func notificationCenter() async throws {
        try await Harness.with { h in
            let hello = Application(HelloApp.bundleIdentifier, device: h.client)
            try await hello.launch()
            try await h.client.push(PushPayload(title: "Kate Bell", body: "Noon?"), to: MailApp.bundleIdentifier)
            _ = try await h.client.perform(.wait(.seconds(6)))
            _ = try await h.client.perform(.swipe(.init(.edge(.top))))
            let card = hello.descendants()["Notification"]
            #expect(try await card.label == "Mail, Kate Bell, Noon?")
            _ = try await h.client.perform(.pressHome)
            _ = try await h.client.perform(.wait(.seconds(1)))
            #expect(try await !card.exists, "home puts Notification Center away")
            #expect(try await h.client.status(of: HelloApp.bundleIdentifier).state == .runningForeground, "and only that")
            _ = try await h.client.perform(.swipe(.init(.edge(.top))))
            try await card.tap()
            #expect(try await h.client.status(of: MailApp.bundleIdentifier).state == .runningForeground)
        }
    }

    @Test("a payload without aps or text, an unknown app, revoked notifications: errors that say so")
    func errors() async throws {
        try await Harness.with { h in
            let base = h.client.baseURL!
            var (status, body) = try await SystemActionTests.send(base, "POST", "/v1/apps/dev.showreel.mail/push", #"{"alert":"hi"}"#)
            #expect(status == 400 && body.contains("aps"), "\(body)")
            (status, body) = try await SystemActionTests.send(base, "POST", "/v1/apps/dev.showreel.mail/push", #"{"aps":{"badge":2}}"#)
            #expect(status == 400 && body.contains("title or a body"), "\(body)")
            (status, body) = try await SystemActionTests.send(base, "POST", "/v1/apps/dev.showreel.nope/push", #"{"aps":{"alert":"hi"}}"#)
            #expect(status == 404 && body.contains("dev.showreel.nope"), "\(body)")
            try await h.client.privacy(.revoke, .notifications, bundleIdentifier: MailApp.bundleIdentifier)
            (status, body) = try await SystemActionTests.send(base, "POST", "/v1/apps/dev.showreel.mail/push", #"{"aps":{"alert":"hi"}}"#)
            #expect(status == 400 && body.contains("revoked"), "\(body)")
            #expect(try await h.client.notifications().isEmpty)
        }
    }
}
