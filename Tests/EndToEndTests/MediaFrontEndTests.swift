import Foundation
import ShowcaseApps
import ShowreelTestSupport
import ShowreelTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The photo library through the front ends that run as processes: `showreel device addmedia`
/// and Appium's `push_file`.
@Suite("Photos through the CLI and WebDriver", .timeLimit(.minutes(10)))
struct MediaFrontEndTests {
    @Test(
        "addmedia adds a PNG, a JPEG and an MP4 that Places then picks; a missing file or a .txt exit 64, a text file named .jpg exits 1 naming it"
    )
    func cli() async throws {
        let workspace = try Workspace()
        let verbs = DeviceSystemVerbsTests()
        let (device, udid) = try await verbs.cli.bootDevice(workspace)
        let files = [
            try SampleMedia.png(in: workspace.url), try SampleMedia.jpeg(in: workspace.url), try SampleMedia.mp4(in: workspace.url),
        ]
        let add = try await verbs.showreel(["device", "addmedia", udid] + files.map(\.path), workspace)
        #expect(add.terminationStatus == 0, "\(add.stderr)")
        let client = try DeviceClient.named(udid, registry: workspace.registry)
        let places = Application(PlacesApp.bundleIdentifier, device: client)
        try await places.launch()
        try await places.buttons["addPhoto"].tap()
        try await places.alerts.buttons["Allow"].tap()
        #expect(try await places.images["waves.mp4"].exists)
        #expect(try await places.images["harbour.png"].exists)
        try await places.images["harbour.png"].tap()
        #expect(try await places.staticTexts["photoName"].label == "harbour.png")

        let missing = try await verbs.showreel(["device", "addmedia", udid, "nowhere.png"], workspace)
        #expect(missing.terminationStatus == 64 && missing.stderr.contains("No file at nowhere.png"), "\(missing.stderr)")
        let note = workspace.file("note.txt")
        try Data("hello".utf8).write(to: note)
        let text = try await verbs.showreel(["device", "addmedia", udid, note.path], workspace)
        #expect(text.terminationStatus == 64 && text.stderr.contains("is not a picture (.png"), "\(text.stderr)")
        let fake = workspace.file("fake.jpg")
        try Data("hello".utf8).write(to: fake)
        let broken = try await verbs.showreel(["device", "addmedia", udid, fake.path], workspace)
        #expect(
            broken.terminationStatus == 1 && broken.stderr.contains("fake.jpg could not be read as a picture"), "\(broken.stderr)")
        device.signal(SIGINT)
        #expect(try await device.waitForExit() == 0)
    }

    @Test(
        "push_file puts a picture into the photo library (a plain path or @com.apple.photos/); an app container path and bad base64 are invalid arguments"
    )
    func webDriver() async throws {
        let workspace = try Workspace()
        let server = try await WebDriverSuiteTests.Server.start(workspace)
        let session = try await WebDriverLimitsTests.newSession(server, ["appium:bundleId": PlacesApp.bundleIdentifier])
        let png = try Data(contentsOf: try SampleMedia.png(in: workspace.url)).base64EncodedString()
        var answer = try await server.call(
            "POST", "/session/\(session)/appium/device/push_file", ["path": "@com.apple.photos/harbour.png", "data": png])
        #expect(answer.0 == 200, "\(answer.1)")
        answer = try await server.call("POST", "/session/\(session)/appium/device/push_file", ["path": "/tmp/dock.png", "data": png])
        #expect(answer.0 == 200, "\(answer.1)")
        _ = try await server.call("POST", "/session/\(session)/element/\(try await find(server, session, "addPhoto"))/click", [:])
        _ = try await server.call("POST", "/session/\(session)/element/\(try await find(server, session, "Allow"))/click", [:])
        #expect(try await find(server, session, "dock.png").isEmpty == false)
        #expect(try await find(server, session, "harbour.png").isEmpty == false)

        var (status, code, message) = WebDriverLimitsTests.error(
            try await server.call(
                "POST", "/session/\(session)/appium/device/push_file", ["path": "@dev.showreel.places:data/x.png", "data": png]))
        #expect(status == 400 && code == "invalid argument" && message.contains("not supported"), "\(message)")
        (status, code, message) = WebDriverLimitsTests.error(
            try await server.call("POST", "/session/\(session)/appium/device/push_file", ["path": "x.png", "data": "not base64!"]))
        #expect(status == 400 && code == "invalid argument" && message.contains("base64"), "\(message)")
        try await server.stop()
    }

    /// The element id of the element with accessibility id `name`.
    private func find(_ server: WebDriverSuiteTests.Server, _ session: String, _ name: String) async throws -> String {
        let element =
            try await server.value("POST", "/session/\(session)/element", ["using": "accessibility id", "value": name]) as? [String: Any]
        return try #require(element?["element-6066-11e4-a52e-4f735466cecf"] as? String, "no element \(name)")
    }
}
