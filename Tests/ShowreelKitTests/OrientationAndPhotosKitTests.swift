import Foundation
import ShowreelKit
import ShowreelRecorder
import ShowreelReport
import ShowreelTestSupport
import Testing

/// Orientation and the photo library from a Swift test, through the in-process device the
/// `.device()` trait boots, as `XCUIDevice.shared.orientation` and `simctl addmedia` are used.
@Suite("Orientation and photos from Swift", .timeLimit(.minutes(10)))
struct OrientationAndPhotosKitTests {
    @Test(
        "setOrientation turns Places in a recorded test; addMedia puts a picture in the library that Places picks; the video ends letterboxed"
    )
    func turnAndPick() async throws {
        let folder = RecordingTraitTests.Folder()
        try await RecordingTraitTests().recorded(RecordingConfiguration(.on, folder: folder.url)) {
            let places = Application("dev.showreel.places")
            try await places.launch()
            try await places.device.addMedia([try SampleMedia.png(in: folder.url)])
            try await places.device.setOrientation(.landscapeLeft)
            let turned = try await places.device.orientation()
            #expect(turned.orientation == .landscapeLeft && turned.interfaceOrientation == .landscapeLeft)
            let frame = try await places.buttons["shareLocation"].frame
            #expect(frame.maxY < 390 && frame.minX >= 47, "\(frame)")
            try await places.buttons["addPhoto"].tap()
            try await places.alerts.buttons["Allow"].tap()
            try await places.images["harbour.png"].tap()
            #expect(try await places.staticTexts["photoName"].label == "harbour.png")
        }
        let entry = try #require(try folder.manifest().entries.first)
        let video = folder.url.appendingPathComponent(try #require(entry.video))
        let frames = try await decodedFrames(video)
        let last = try #require(frames.last)
        #expect(last.pixels.width < last.pixels.height, "the video keeps the portrait frame it started with")
        let top = last.pixels.pixel(x: last.pixels.width / 2, y: 4)
        #expect(Int(top.red) + Int(top.green) + Int(top.blue) < 40, "black above the landscape screen: \(top)")
    }
}

extension OrientationAndPhotosKitTests {
    @Test("a device booted on its side (.device(orientation:)) records a landscape video from its first frame")
    func bootedOnItsSide() async throws {
        let folder = RecordingTraitTests.Folder()
        try await RecordingTraitTests().recorded(
            RecordingConfiguration(.on, folder: folder.url), device: .device(profile: .phone, orientation: .landscapeLeft)
        ) {
            let places = Application("dev.showreel.places")
            try await places.launch()
            #expect(try await places.device.orientation().interfaceOrientation == .landscapeLeft)
        }
        let entry = try #require(try folder.manifest().entries.first)
        let info = try MediaProbe.probe(folder.url.appendingPathComponent(try #require(entry.video)))
        #expect(info.width > info.height, "\(info.width)x\(info.height)")
        // The step trace's screen is the one its pictures show: landscape points.
        let video = folder.url.appendingPathComponent(try #require(entry.video))
        let trace = try RunTrace.load(from: video.deletingPathExtension().appendingPathExtension("trace.json"))
        #expect(trace.screen.width == 844 && trace.screen.height == 390, "\(trace.screen)")
    }
}
