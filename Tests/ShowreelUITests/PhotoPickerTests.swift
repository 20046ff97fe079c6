import ShowcaseApps
import ShowreelAccessibility
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelUI

/// The system's photo picker: asked through the photos permission, a sheet of the library's
/// thumbnails (newest first), each named by its file; the one tapped goes to the app.
@Suite("Photo picker")
struct PhotoPickerTests {
    /// Places with a library of a picture, a sunset and a video (newest first: the video).
    static func places(arguments: [String] = [], dark: Bool = false, profile: DeviceProfile = GoldenTests.profile) throws -> SceneHarness {
        let h = try SceneHarness(profile: profile, app: PlacesApp.definition, arguments: arguments)
        h.scene.permissions.activeApp = PermissionAlertTests.places
        // The picker speaks the device's language (an Arabic app on an Arabic device).
        if arguments.contains("(ar)") { h.scene.systemStrings = SystemStrings(deviceLanguages: ["ar"]) }
        if dark { h.scene.interfaceStyle = .dark }
        h.scene.photos.add(PhotoLibrary.Asset(name: "harbour.png", kind: .photo, picture: SampleMedia.picture()))
        h.scene.photos.add(
            PhotoLibrary.Asset(
                name: "sunset.jpg", kind: .photo, picture: SampleMedia.picture(top: Color(hex: 0xF39C12), bottom: Color(hex: 0x6C3483))))
        h.scene.photos.add(PhotoLibrary.Asset(name: "waves.mp4", kind: .video, picture: SampleMedia.picture(width: 320, height: 240)))
        h.settle()
        return h
    }

    @Test("Add Photo asks for the photos, then the picker shows the library newest first; the tapped picture comes back to Places")
    func pick() throws {
        let h = try Self.places()
        try h.tap("addPhoto")
        h.settle()
        let alert = try #require(h.elements.first { $0.type == .alert })
        #expect(alert.label.contains("Would Like to Access Your Photos"), "\(alert.label)")
        try h.tap("Allow", type: .button)
        h.settle()
        let cells = h.elements.filter { $0.type == .image && ["harbour.png", "sunset.jpg", "waves.mp4"].contains($0.identifier) }
        #expect(cells.map(\.identifier) == ["waves.mp4", "sunset.jpg", "harbour.png"])
        #expect(cells.first?.label == "Video, waves.mp4")
        try h.tap("sunset.jpg", type: .image)
        h.settle()
        #expect(h.element("Cancel", type: .button) == nil)
        #expect(h.element("photoName")?.label == "sunset.jpg")
        #expect(h.element("placePhoto")?.label == "sunset.jpg")
        #expect(h.scene.permissions.status(of: .photos, for: PlacesApp.bundleIdentifier) == .granted)
    }

    @Test("photos refused: no picker, nothing picked; Cancel closes the picker with nothing picked")
    func refusedAndCancelled() throws {
        let h = try Self.places()
        h.scene.permissions.set(.denied, for: .photos, of: PlacesApp.bundleIdentifier)
        try h.tap("addPhoto")
        h.settle()
        #expect(h.element("Cancel", type: .button) == nil && h.elements.allSatisfy { $0.type != .alert })
        h.scene.permissions.set(.granted, for: .photos, of: PlacesApp.bundleIdentifier)
        try h.tap("addPhoto")
        h.settle()
        #expect(h.element("Cancel", type: .button) != nil)
        try h.tap("Cancel", type: .button)
        h.settle()
        #expect(h.element("Cancel", type: .button) == nil && h.element("photoName")?.label == "")
    }

    @Test("the picker over Places: light, dark, Arabic, and on a phone on its side")
    func golden() throws {
        for (name, arguments, dark) in [
            ("photo-picker", [String](), false), ("photo-picker-dark", [], true),
            ("photo-picker-ar", GoldenTests.launchArguments("ar", locale: "ar_EG"), false),
        ] {
            let h = try Self.places(arguments: arguments, dark: dark)
            h.scene.permissions.set(.granted, for: .photos, of: PlacesApp.bundleIdentifier)
            try h.tap("addPhoto")
            h.settle()
            try GoldenTests().assertGolden(name, h)
        }
        let landscape = try Self.places(profile: .phone)
        landscape.scene.permissions.set(.granted, for: .photos, of: PlacesApp.bundleIdentifier)
        landscape.scene.setOrientation(.landscapeLeft, animated: false)
        try landscape.tap("addPhoto")
        landscape.settle()
        try GoldenTests().assertGolden("photo-picker-landscape", landscape)
        let picked = try Self.places()
        picked.scene.permissions.set(.granted, for: .photos, of: PlacesApp.bundleIdentifier)
        try picked.tap("addPhoto")
        picked.settle()
        try picked.tap("harbour.png", type: .image)
        picked.settle()
        try GoldenTests().assertGolden("places-photo", picked)
    }
}
