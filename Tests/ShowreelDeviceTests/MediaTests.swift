import Foundation
import ShowcaseApps
import ShowreelDevice
import ShowreelTestSupport
import ShowreelTesting
import ShowreelWire
import Testing

/// `simctl addmedia` over real HTTP: pictures and videos land in the device's library (kept in
/// its folder), apps pick them; a file that does not decode is refused naming it.
@Suite("Device photo library over HTTP")
struct MediaTests {
    typealias Harness = AutomationAPITests.Harness

    @Test("POST /v1/media adds a PNG, a JPEG and an MP4; Places picks the JPEG through the permission alert and the picker")
    func addAndPick() async throws {
        try await Harness.with { h in
            let folder = h.home.url
            try await h.client.addMedia([
                try SampleMedia.png(in: folder), try SampleMedia.jpeg(in: folder), try SampleMedia.mp4(in: folder),
            ])
            #expect(await h.device.mediaNames() == ["waves.mp4", "sunset.jpg", "harbour.png"])
            let kept = try FileManager.default.contentsOfDirectory(atPath: h.device.mediaFolder.path).sorted()
            #expect(kept == ["harbour.png", "sunset.jpg", "waves.mp4"])
            let places = Application(PlacesApp.bundleIdentifier, device: h.client)
            try await places.launch()
            try await places.buttons["addPhoto"].tap()
            try await places.alerts.buttons["Allow"].tap()
            #expect(try await places.images["waves.mp4"].label == "Video, waves.mp4")
            try await places.images["sunset.jpg"].tap()
            #expect(try await places.staticTexts["photoName"].label == "sunset.jpg")
            // The same name again is kept beside the first.
            try await h.client.addMedia([try SampleMedia.png(in: folder)])
            #expect(await h.device.mediaNames().first == "harbour 2.png")
        }
    }

    @Test("a text file named .png is refused naming it and is not kept; a .gif and an empty file are 400s naming what is taken")
    func refused() async throws {
        try await Harness.with { h in
            let text = Data("not a picture".utf8).base64EncodedString()
            var (status, body) = try await SystemActionTests.send(
                h.client.baseURL!, "POST", "/v1/media", #"{"name":"fake.png","data":"\#(text)"}"#)
            #expect(status == 400 && body.contains("fake.png could not be read as a picture"), "\(body)")
            #expect(await h.device.mediaNames().isEmpty)
            #expect((try? FileManager.default.contentsOfDirectory(atPath: h.device.mediaFolder.path)) ?? [] == [])
            (status, body) = try await SystemActionTests.send(
                h.client.baseURL!, "POST", "/v1/media", #"{"name":"cat.gif","data":"\#(text)"}"#)
            #expect(status == 400 && body.contains("a picture (.png, .jpg, .jpeg) or a video"), "\(body)")
            (status, body) = try await SystemActionTests.send(h.client.baseURL!, "POST", "/v1/media", #"{"name":"empty.png","data":""}"#)
            #expect(status == 400 && body.contains("data"), "\(body)")
        }
    }

    @Test("a device booted again in its folder keeps its library")
    func keptWithTheDevice() async throws {
        let workspace = try Workspace()
        let udid = UUID().uuidString
        let first = try Device(apps: ShowcaseCatalog.apps, registry: workspace.registry, udid: udid)
        try await first.addMedia(MediaFile(name: "harbour.png", data: try Data(contentsOf: try SampleMedia.png(in: workspace.url))))
        await first.shutdown()
        let again = try Device(apps: ShowcaseCatalog.apps, registry: workspace.registry, udid: udid)
        #expect(await again.mediaNames() == ["harbour.png"])
        await again.shutdown()
    }
}
