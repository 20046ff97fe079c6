import Foundation
import ShowcaseApps
import ShowreelDevice
import ShowreelTestSupport
import ShowreelTesting
import ShowreelWire
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What simctl does to a device from outside (the pasteboard, URLs), over real HTTP.
@Suite("Device system actions over HTTP")
struct SystemActionTests {
    typealias Harness = AutomationAPITests.Harness

    /// One request with any method and a JSON body; the status and the body as text.
    static func send(_ base: URL, _ method: String, _ path: String, _ json: String?) async throws -> (Int, String) {
        try await AutomationRequestTests.post(base, path, json, method: method)
    }

    @Test("PUT /v1/pasteboard sets the pasteboard apps paste from, GET reads it; empty text empties it; a too long text is a 400")
    func pasteboard() async throws {
        try await Harness.with { h in
            #expect(try await h.client.pasteboard() == "")
            try await h.client.setPasteboard("ada@example.com")
            #expect(try await h.client.pasteboard() == "ada@example.com")
            #expect(await h.device.pasteboard() == "ada@example.com")
            let (status, body) = try await Self.send(h.client.baseURL!, "GET", "/v1/pasteboard", nil)
            #expect(status == 200 && body.contains(#""text":"ada@example.com""#), "\(body)")

            // An app pastes it: Sign Up's email field, focused, gets it with Cmd+V.
            let app = Application(SignUpApp.bundleIdentifier, device: h.client)
            try await app.launch()
            try await app.textFields["email"].tap()
            try await app.keyCommand("v")
            #expect(try await app.textFields["email"].value == "ada@example.com")

            let long = String(repeating: "x", count: AutomationLimits.maxPasteboardLength + 1)
            let (tooLong, message) = try await Self.send(h.client.baseURL!, "PUT", "/v1/pasteboard", #"{"text":"\#(long)"}"#)
            #expect(tooLong == 400 && message.contains("'text'") && message.contains("at most 100000"), "\(message.prefix(300))")
            let (noText, missing) = try await Self.send(h.client.baseURL!, "PUT", "/v1/pasteboard", #"{"string":"x"}"#)
            #expect(noText == 400 && missing.contains("missing field 'text'"), "\(missing)")

            try await h.client.setPasteboard("")
            #expect(try await h.client.pasteboard() == "")
        }
    }

    @Test("POST /v1/open-url launches the app owning the scheme with the URL: Countries shows Canada's details, Back returns to the list")
    func openURL() async throws {
        try await Harness.with { h in
            let status = try await h.client.openURL("countries://country/CA")
            #expect(status.bundleIdentifier == CountriesApp.bundleIdentifier && status.state == .runningForeground)
            let app = Application(CountriesApp.bundleIdentifier, device: h.client)
            #expect(try await app.staticTexts["countryName"].label == "Canada")
            // Already running: the app is handed the next link where it is.
            try await h.client.openURL("COUNTRIES://country/de")
            #expect(try await app.staticTexts["countryName"].label == "Germany")
            try await app.buttons["BackButton"].tap()
            #expect(try await app.cells["Canada"].exists)
            // A code no country has: the app says so in an alert.
            try await h.client.openURL("countries://country/ZZ")
            #expect(try await app.alerts["Link not found"].exists)
        }
    }

    @Test("a scheme no app opens, and a text that is no URL, are 400s that say what is wrong")
    func openURLErrors() async throws {
        try await Harness.with { h in
            let (status, body) = try await Self.send(h.client.baseURL!, "POST", "/v1/open-url", #"{"url":"maps://here"}"#)
            #expect(status == 400 && body.contains("No app on this device opens 'maps:' URLs") && body.contains("countries:"), "\(body)")
            let (bad, message) = try await Self.send(h.client.baseURL!, "POST", "/v1/open-url", #"{"url":"no scheme here"}"#)
            #expect(bad == 400 && message.contains("'url'") && message.contains("scheme"), "\(message)")
            await #expect(throws: DeviceClient.Failure.self) { try await h.client.openURL("maps://here") }
            #expect(await h.device.foregroundApp == nil)
        }
    }
}
