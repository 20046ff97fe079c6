import Foundation
import ShowreelTestSupport
import Testing

/// Appium's ways to reach what simctl does to a device, through `showreel webdriver` as a real
/// process over real HTTP: the pasteboard and deep links.
@Suite("WebDriver: pasteboard and deep links")
struct WebDriverSystemTests {
    typealias Server = WebDriverSuiteTests.Server

    func script(_ server: Server, _ session: String, _ name: String, _ args: [String: Any]) async throws -> (Int, [String: Any]) {
        try await server.call("POST", "/session/\(session)/execute/sync", ["script": name, "args": [args]])
    }

    @Test(
        "mobile: setPasteboard / getPasteboard and Appium's set_clipboard / get_clipboard (base64) share the device's pasteboard; other encodings and content types are invalid arguments"
    )
    func pasteboard() async throws {
        let workspace = try Workspace()
        let server = try await Server.start(workspace)
        let session = try await WebDriverLimitsTests.newSession(server)

        var answer = try await script(server, session, "mobile: setPasteboard", ["content": "Grüße"])
        #expect(answer.0 == 200, "\(answer.1)")
        answer = try await script(server, session, "mobile: getPasteboard", [:])
        #expect(answer.1["value"] as? String == "Grüße")
        answer = try await server.call("POST", "/session/\(session)/appium/device/get_clipboard", ["contentType": "plaintext"])
        #expect(answer.1["value"] as? String == Data("Grüße".utf8).base64EncodedString())

        let encoded = Data("hello@example.com".utf8).base64EncodedString()
        answer = try await server.call(
            "POST", "/session/\(session)/appium/device/set_clipboard", ["content": encoded, "contentType": "plaintext"])
        #expect(answer.0 == 200, "\(answer.1)")
        answer = try await script(server, session, "mobile: getPasteboard", ["encoding": "utf8"])
        #expect(answer.1["value"] as? String == "hello@example.com")

        var (status, code, message) = WebDriverLimitsTests.error(
            try await server.call("POST", "/session/\(session)/appium/device/set_clipboard", ["content": encoded, "contentType": "image"]))
        #expect(status == 400 && code == "invalid argument" && message.contains("plaintext"), "\(message)")
        (status, code, message) = WebDriverLimitsTests.error(
            try await server.call("POST", "/session/\(session)/appium/device/set_clipboard", ["content": "not base64!"]))
        #expect(status == 400 && code == "invalid argument" && message.contains("base64"), "\(message)")
        (status, code, message) = WebDriverLimitsTests.error(try await script(server, session, "mobile: setPasteboard", ["content": 3]))
        #expect(status == 400 && code == "invalid argument" && message.contains("'content'"), "\(message)")
        (status, code, message) = WebDriverLimitsTests.error(
            try await script(server, session, "mobile: getPasteboard", ["encoding": "latin1"]))
        #expect(status == 400 && code == "invalid argument" && message.contains("utf8"), "\(message)")
        try await server.stop()
    }

    @Test(
        "mobile: deepLink and navigate-to open Countries on a country; an unknown scheme and a wrong bundleId are invalid arguments naming them"
    )
    func deepLink() async throws {
        let workspace = try Workspace()
        let server = try await Server.start(workspace)
        let session = try await WebDriverLimitsTests.newSession(server)

        var answer = try await script(
            server, session, "mobile: deepLink", ["url": "countries://country/CA", "bundleId": "dev.showreel.countries"])
        #expect(answer.0 == 200, "\(answer.1)")
        let found = try await server.value("POST", "/session/\(session)/element", ["using": "accessibility id", "value": "countryName"])
        let element = try #require((found as? [String: Any])?.values.first as? String)
        #expect(try await server.value("GET", "/session/\(session)/element/\(element)/text") as? String == "Canada")

        answer = try await server.call("POST", "/session/\(session)/url", ["url": "countries://country/JP"])
        #expect(answer.0 == 200, "\(answer.1)")
        let japan = try await server.value("POST", "/session/\(session)/element", ["using": "accessibility id", "value": "countryName"])
        let japanID = try #require((japan as? [String: Any])?.values.first as? String)
        #expect(try await server.value("GET", "/session/\(session)/element/\(japanID)/text") as? String == "Japan")

        var (status, code, message) = WebDriverLimitsTests.error(
            try await script(server, session, "mobile: deepLink", ["url": "maps://here"]))
        #expect(status == 400 && code == "invalid argument" && message.contains("'maps:'"), "\(message)")
        (status, code, message) = WebDriverLimitsTests.error(
            try await script(server, session, "mobile: deepLink", ["url": "countries://country/CA", "bundleId": "dev.showreel.hello"]))
        #expect(status == 400 && code == "invalid argument" && message.contains("dev.showreel.countries"), "\(message)")
        (status, code, message) = WebDriverLimitsTests.error(try await script(server, session, "mobile: deepLink", [:]))
        #expect(status == 400 && code == "invalid argument" && message.contains("'url'"), "\(message)")
        try await server.stop()
    }

    @Test("mobile: setPermission / getPermission, and the permission alert answered through W3C's alert endpoints and mobile: alert")
    func permissions() async throws {
        let workspace = try Workspace()
        let server = try await Server.start(workspace)
        let created = try await server.value(
            "POST", "/session", ["capabilities": ["alwaysMatch": ["platformName": "iOS", "appium:bundleId": "dev.showreel.places"]]])
        let session = try #require((created as? [String: Any])?["sessionId"] as? String)

        var answer = try await script(server, session, "mobile: getPermission", ["bundleId": "dev.showreel.places", "service": "location"])
        #expect(answer.1["value"] as? String == "unset")
        var (status, code, message) = WebDriverLimitsTests.error(try await server.call("GET", "/session/\(session)/alert/text"))
        #expect(status == 404 && code == "no such alert", "\(message)")

        let share = try await server.value("POST", "/session/\(session)/element", ["using": "accessibility id", "value": "shareLocation"])
        let shareID = try #require((share as? [String: Any])?.values.first as? String)
        _ = try await server.value("POST", "/session/\(session)/element/\(shareID)/click", [:])
        #expect(try await server.value("GET", "/session/\(session)/alert/text") as? String == "Allow “Places” to use your location?")
        answer = try await script(server, session, "mobile: alert", ["action": "getButtons"])
        #expect(answer.1["value"] as? [String] == ["Don’t Allow", "Allow While Using App"])
        _ = try await server.value("POST", "/session/\(session)/alert/accept", [:])
        answer = try await script(server, session, "mobile: getPermission", ["bundleId": "dev.showreel.places", "service": "location"])
        #expect(answer.1["value"] as? String == "yes")

        answer = try await script(
            server, session, "mobile: setPermission", ["bundleId": "dev.showreel.places", "access": ["all": "no", "photos": "yes"]])
        #expect(answer.0 == 200, "\(answer.1)")
        answer = try await script(server, session, "mobile: getPermission", ["bundleId": "dev.showreel.places", "service": "photos"])
        #expect(answer.1["value"] as? String == "yes")
        answer = try await script(server, session, "mobile: getPermission", ["bundleId": "dev.showreel.places", "service": "location"])
        #expect(answer.1["value"] as? String == "no")

        (status, code, message) = WebDriverLimitsTests.error(
            try await script(server, session, "mobile: setPermission", ["bundleId": "dev.showreel.places", "access": ["locaton": "yes"]]))
        #expect(status == 400 && code == "invalid argument" && message.contains("location"), "\(message)")
        (status, code, message) = WebDriverLimitsTests.error(
            try await script(server, session, "mobile: setPermission", ["bundleId": "dev.showreel.places", "access": ["photos": "maybe"]]))
        #expect(status == 400 && code == "invalid argument" && message.contains("yes, no or unset"), "\(message)")
        try await server.stop()
    }

    @Test(
        "POST / GET /location and mobile: setSimulatedLocation / getSimulatedLocation / resetSimulatedLocation; a place off the globe is an invalid argument"
    )
    func location() async throws {
        let workspace = try Workspace()
        let server = try await Server.start(workspace)
        let session = try await WebDriverLimitsTests.newSession(server)
        var answer = try await server.call(
            "POST", "/session/\(session)/location", ["location": ["latitude": 43.6532, "longitude": -79.3832, "altitude": 0]])
        #expect(answer.0 == 200, "\(answer.1)")
        let here = try await server.value("GET", "/session/\(session)/location") as? [String: Any]
        #expect(here?["latitude"] as? Double == 43.6532 && here?["longitude"] as? Double == -79.3832)

        answer = try await script(server, session, "mobile: setSimulatedLocation", ["latitude": 51.5, "longitude": -0.12])
        #expect(answer.0 == 200, "\(answer.1)")
        answer = try await script(server, session, "mobile: getSimulatedLocation", [:])
        #expect((answer.1["value"] as? [String: Any])?["latitude"] as? Double == 51.5)
        _ = try await script(server, session, "mobile: resetSimulatedLocation", [:])
        answer = try await script(server, session, "mobile: getSimulatedLocation", [:])
        #expect((answer.1["value"] as? [String: Any])?["latitude"] is NSNull)

        let (status, code, message) = WebDriverLimitsTests.error(
            try await script(server, session, "mobile: setSimulatedLocation", ["latitude": 95, "longitude": 0]))
        #expect(status == 400 && code == "invalid argument" && message.contains("-90 to 90"), "\(message)")
        try await server.stop()
    }

    @Test("mobile: pushNotification shows the banner; clicking it opens the app; a payload without aps is an invalid argument")
    func push() async throws {
        let workspace = try Workspace()
        let server = try await Server.start(workspace)
        let session = try await WebDriverLimitsTests.newSession(server)
        let answer = try await script(
            server, session, "mobile: pushNotification",
            ["bundleId": "dev.showreel.mail", "payload": ["aps": ["alert": ["title": "Kate Bell", "body": "Noon?"]]]])
        #expect(answer.0 == 200, "\(answer.1)")
        let found = try await server.value(
            "POST", "/session/\(session)/element", ["using": "accessibility id", "value": "NotificationBanner"])
        let banner = try #require((found as? [String: Any])?.values.first as? String)
        _ = try await server.value("POST", "/session/\(session)/element/\(banner)/click", [:])
        let state = try await script(server, session, "mobile: queryAppState", ["bundleId": "dev.showreel.mail"])
        #expect(state.1["value"] as? Double == 4)

        let (status, code, message) = WebDriverLimitsTests.error(
            try await script(server, session, "mobile: pushNotification", ["bundleId": "dev.showreel.mail", "payload": ["alert": "x"]]))
        #expect(status == 400 && code == "invalid argument" && message.contains("aps"), "\(message)")
        try await server.stop()
    }

    @Test("GET / POST network_connection: 1 is airplane mode, 6 Wi-Fi and data; another type is an invalid argument")
    func networkConnection() async throws {
        let workspace = try Workspace()
        let server = try await Server.start(workspace)
        let session = try await WebDriverLimitsTests.newSession(server)
        #expect(try await server.value("GET", "/session/\(session)/network_connection") as? Double == 6)
        #expect(try await server.value("POST", "/session/\(session)/network_connection", ["parameters": ["type": 1]]) as? Double == 1)
        #expect(try await server.value("GET", "/session/\(session)/network_connection") as? Double == 1)
        let (status, code, message) = WebDriverLimitsTests.error(
            try await server.call("POST", "/session/\(session)/network_connection", ["parameters": ["type": 3]]))
        #expect(status == 400 && code == "invalid argument" && message.contains("airplane"), "\(message)")
        try await server.stop()
    }
}
