import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelDevice
import ShowreelRender
import ShowreelTestSupport
import ShowreelWire
import Testing

@Suite("Display stream")
struct DisplayStreamTests {
    @Test("a subscriber gets the current screen, each change, and the stop time")
    func subscribeTapStop() async throws {
        let home = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: home.registry)
        try await device.launch(HelloApp.bundleIdentifier)
        try await device.wait(.seconds(2))

        let client = try DisplayStreamClient(socketPath: device.display.socketPath)
        #expect(client.info.udid == device.udid)
        #expect(client.info.profile == .phone)
        let first = try #require(try frame(client.next()))
        #expect(first.presentationTime == .seconds(2))
        #expect(first.pixels.width == 780 && first.pixels.height == 1688)

        try await device.tap(.button("tapButton"))
        // The highlight at touch-down, then the changed text when the finger lifts.
        let highlighted = try #require(try frame(client.next()))
        let tapped = try #require(try frame(client.next()))
        // Touch-down happened at the instant of the first frame, which was already sent: 1 ms later.
        #expect(highlighted.presentationTime == .seconds(2) + .milliseconds(1))
        #expect(tapped.presentationTime == .seconds(2) + DeviceAction.Defaults.tapHold)
        #expect(!tapped.pixels.hasSamePixels(as: first.pixels))

        try await device.wait(.seconds(1))
        try client.requestStop()
        guard case let .end(stopTime, reason)? = try client.next() else {
            Issue.record("expected the end of the stream"); return
        }
        #expect(stopTime == .milliseconds(3100))
        #expect(reason == .stopRequested)
        #expect(try client.next() == nil)
        let session = try #require(device.display.sessions.first)
        #expect(session.startTime == .seconds(2))
        #expect(session.stopTime == .milliseconds(3100))
        await device.shutdown()
    }

    @Test("shutting the device down ends every stream with the shutdown reason")
    func shutdownEndsStreams() async throws {
        let home = try Workspace()
        let device = try Device(apps: ShowcaseCatalog.apps, registry: home.registry)
        let a = try DisplayStreamClient(socketPath: device.display.socketPath)
        let b = try DisplayStreamClient(socketPath: device.display.socketPath)
        _ = try a.next()
        _ = try b.next()
        try await device.wait(.seconds(1))
        await device.shutdown()
        for client in [a, b] {
            guard case let .end(stopTime, reason)? = try client.next() else {
                Issue.record("expected an end message"); continue
            }
            #expect(stopTime == .seconds(1))
            #expect(reason == .deviceShutdown)
        }
        #expect(!FileManager.default.fileExists(atPath: device.display.socketPath))
    }

    @Test("the same script on the virtual clock gives the same frames and timestamps")
    func deterministic() async throws {
        func run() async throws -> [(UInt64, Duration)] {
            let home = try Workspace()
            let device = try Device(apps: ShowcaseCatalog.apps, registry: home.registry)
            try await device.launch(HelloApp.bundleIdentifier)
            let client = try DisplayStreamClient(socketPath: device.display.socketPath)
            guard case let .frame(initial)? = try client.next() else { throw WireError.truncated }
            var frames: [(UInt64, Duration)] = [(initial.pixels.contentHash, initial.presentationTime)]
            for _ in 0..<3 {
                try await device.tap(.button("tapButton"))
                try await device.wait(.milliseconds(500))
            }
            try client.requestStop()
            while let event = try client.next() {
                if case let .frame(frame) = event { frames.append((frame.pixels.contentHash, frame.presentationTime)) }
            }
            await device.shutdown()
            return frames
        }
        let first = try await run()
        let second = try await run()
        #expect(first.count == 7)
        #expect(first.map(\.0) == second.map(\.0))
        #expect(first.map(\.1) == second.map(\.1))
    }

    private func frame(_ event: DisplayStreamEvent?) -> Frame? {
        if case let .frame(frame)? = event { return frame }
        return nil
    }
}
