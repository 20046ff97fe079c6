import Foundation
import ShowreelKit
import Testing

/// The same scenarios over both transports of an in-process device: straight to the device
/// (the default) and through its automation API on loopback HTTP, as an external device is
/// driven. Both must act, answer and fail alike.
@Suite("In process and over HTTP: one behaviour")
struct TransportParityTests {
    static let transports: [DeviceConfiguration.Transport] = [.inProcess, .http]

    func withDevice(_ transport: DeviceConfiguration.Transport, _ body: (TestDevice) async throws -> Void) async throws {
        let testDevice = try await TestDevice.boot(DeviceConfiguration(transport: transport))
        do { try await body(testDevice) } catch {
            await testDevice.shutdown()
            throw error
        }
        await testDevice.shutdown()
    }

    @Test("Countries: tap a cell, read the details, swipe back", arguments: transports)
    func countries(transport: DeviceConfiguration.Transport) async throws {
        try await withDevice(transport) { testDevice in
            #expect((testDevice.client.baseURL != nil) == (transport == .http))
            let app = Application(
                "dev.showreel.countries", launchArguments: ["--countries-datasource", "local-mock"],
                device: testDevice.client)
            try await app.launch()
            try await app.cells["Canada"].tap()
            #expect(try await app.staticTexts["countryName"].label == "Canada")
            _ = try await app.device.perform(.swipe(DeviceAction.Swipe(.edge(.left))))
            #expect(try await app.cells["Canada"].waitForHittable(timeout: .seconds(2)))
            #expect(try await app.staticTexts["countryName"].exists == false)
        }
    }

    @Test("Sign-up: typing on the keyboard with a key delay, then a key", arguments: transports)
    func typing(transport: DeviceConfiguration.Transport) async throws {
        try await withDevice(transport) { testDevice in
            let app = Application("dev.showreel.signup", device: testDevice.client)
            try await app.launch()
            let before = try await testDevice.client.info().time
            try await app.textFields["email"].typeText("a@b.io", keyDelay: .milliseconds(50))
            #expect(try await app.textFields["email"].value == "a@b.io")
            #expect(try await testDevice.client.info().time - before >= 0.25, "the key delay passed on the device clock")
            _ = try await app.device.perform(.pressKey("delete"))
            #expect(try await app.textFields["email"].value == "a@b.i")
        }
    }

    @Test("failures: the same status and sentence either way", arguments: transports)
    func failures(transport: DeviceConfiguration.Transport) async throws {
        try await withDevice(transport) { testDevice in
            let app = Application("dev.showreel.hello", device: testDevice.client)
            try await app.launch()
            let missing = await #expect(throws: DeviceClient.Failure.self) { try await app.buttons["nope"].tap() }
            #expect(missing?.statusCode == 404)
            #expect(missing?.message.contains("The screen shows: ") == true, "names what the screen has: \(missing?.message ?? "")")
            #expect(missing?.callSite?.fileID == "ShowreelKitTests/TransportParityTests.swift")

            let offScreen = await #expect(throws: DeviceClient.Failure.self) {
                _ = try await app.device.perform(.tap(DeviceAction.Tap(.point(Point(x: -5, y: 10)))))
            }
            #expect(offScreen?.statusCode == 400)
            #expect(offScreen?.message.contains("'point' must be on the screen") == true, "\(offScreen?.message ?? "")")

            let unknown = await #expect(throws: DeviceClient.Failure.self) {
                try await Application("dev.nope", device: app.device).launch()
            }
            #expect(unknown?.statusCode == 404)
            #expect(unknown?.message.contains("No app with bundle identifier 'dev.nope'") == true)
        }
    }

    @Test("status bar and waits answer with the same values", arguments: transports)
    func answers(transport: DeviceConfiguration.Transport) async throws {
        try await withDevice(transport) { testDevice in
            let client = testDevice.client
            let shown = try await client.perform(.overrideStatusBar(StatusBarOverride(time: "10:10"))).statusBar
            #expect(shown?.time == "10:10")
            let waited = try await client.perform(.waitFor(DeviceAction.WaitFor(.button("nope"), timeout: .seconds(2)))).waited
            #expect(waited?.matched == false)
            #expect(waited.map { abs($0.waited - 2) < 0.05 } == true, "waited \(waited?.waited ?? -1) device seconds")
            let status = try await client.launch("dev.showreel.hello")
            #expect(status.state == .runningForeground)
        }
    }
}
