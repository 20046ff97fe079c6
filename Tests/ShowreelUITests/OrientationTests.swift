import ShowcaseApps
import ShowreelAccessibility
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelUI

/// A screen turned on its side: the size swaps, the safe area keeps clear of the sensor
/// housing, the keyboard and the sheets take the landscape shape, and the turn animates.
@Suite("Orientation")
struct OrientationTests {
    @Test("landscape swaps the screen's size; the safe area keeps the sensor housing's width clear on both sides; no status bar on a phone")
    func landscapeGeometry() throws {
        let h = try SceneHarness(profile: .phone, app: PlacesApp.definition)
        h.scene.setOrientation(.landscapeLeft, animated: false)
        h.settle()
        #expect(h.scene.bounds == Rect(x: 0, y: 0, width: 844, height: 390))
        #expect(h.scene.safeArea == Rect(x: 47, y: 0, width: 750, height: 369))
        #expect(h.scene.profile.statusBarHeight == 0)
        #expect(h.scene.profile.sensorHousing == Rect(x: 11, y: 132, width: 37, height: 126))
        let pixels = h.render()
        #expect(pixels.width == 1688 && pixels.height == 780)
        let button = try #require(h.element("shareLocation"))
        #expect(button.frame.minX >= 47 && button.frame.maxX <= 797 && button.frame.maxY <= 369, "\(button.frame)")
        // Upright again: the portrait screen as it was.
        h.scene.setOrientation(.portrait, animated: false)
        h.settle()
        #expect(h.scene.bounds == Rect(x: 0, y: 0, width: 390, height: 844))
        #expect(h.scene.safeArea == Rect(x: 0, y: 54, width: 390, height: 756))
        #expect(h.render().width == 780)
    }

    @Test("landscape right puts the sensor housing on the right; a tablet keeps its status bar")
    func otherProfiles() throws {
        #expect(DeviceProfile.phone.oriented(.landscapeRight).sensorHousing == Rect(x: 796, y: 132, width: 37, height: 126))
        let tablet = try SceneHarness(profile: .tablet, app: PlacesApp.definition)
        tablet.scene.setOrientation(.landscapeRight, animated: false)
        #expect(tablet.scene.bounds.size == Size(width: 1180, height: 820))
        #expect(tablet.scene.safeArea.minY == 24)
        for profile in DeviceProfile.all {
            let turned = profile.oriented(.landscapeLeft)
            #expect(turned.pixelWidth == profile.pixelHeight && turned.pixelHeight == profile.pixelWidth, "\(profile.name)")
        }
    }

    @Test("the keyboard in landscape: shorter, across the screen, its keys clear of the sensor housing and typing still works")
    func keyboard() throws {
        let h = try SceneHarness(profile: .phone, app: SignUpApp.definition)
        h.scene.setOrientation(.landscapeLeft, animated: false)
        h.settle()
        try h.typeOnKeyboard("kate@example.com")
        let keyboard = try #require(h.scene.keyboardFrame)
        #expect(keyboard == Rect(x: 0, y: 390 - 192, width: 844, height: 192))
        for key in SoftwareKeyboard.keyIdentifiers(in: h.scene.keyboardState) {
            let frame = try #require(h.scene.keyFrame(key))
            #expect(frame.minX >= 47 && frame.maxX <= 797 && frame.maxY <= 390, "\(key): \(frame)")
        }
        #expect(h.element("email", type: .textField)?.value == "kate@example.com")
    }

    @Test("the turn animates on the scene clock: mid-turn the screen is tilted (black corners), then upright")
    func turnAnimates() throws {
        let h = try SceneHarness(profile: .phone, app: PlacesApp.definition)
        h.settle()
        h.scene.setOrientation(.landscapeRight, animated: true)
        #expect(h.scene.isRotating && h.scene.hasRunningAnimations)
        h.advance(by: AnimationDurations.rotation / 2)
        let middle = h.render()
        #expect(middle.width == 1688)
        #expect(middle.pixel(x: 2, y: 2) == RGBA(red: 0, green: 0, blue: 0), "a tilted screen leaves the corners black")
        h.settle()
        #expect(!h.scene.isRotating)
        let end = h.render()
        #expect(end.pixel(x: 2, y: 2) != RGBA(red: 0, green: 0, blue: 0))
        #expect(!end.hasSamePixels(as: middle))
    }

    @Test("a notification banner showing when the device turns stays centred across the wider screen")
    func banner() throws {
        let h = try SceneHarness(profile: .phone, app: PlacesApp.definition)
        h.scene.deliver(NotificationBannerTests.lunch)
        h.settle()
        h.scene.setOrientation(.landscapeLeft, animated: false)
        let banner = try #require(h.element("NotificationBanner"))
        #expect(abs(banner.frame.midX - 422) < 1 && banner.frame.width == 500, "\(banner.frame)")
    }

    @Test("a sheet on a phone on its side covers the screen; an alert stays centred")
    func sheetAndAlert() throws {
        let h = try SceneHarness(profile: .phone, app: PlacesApp.definition)
        h.scene.permissions.activeApp = PermissionAlertTests.places
        h.settle()
        h.scene.setOrientation(.landscapeLeft, animated: false)
        try h.tap("shareLocation")
        h.settle()
        let alert = try #require(h.elements.first { $0.type == .alert })
        #expect(abs(alert.frame.midX - 422) < 1 && abs(alert.frame.midY - 195) < 1, "\(alert.frame)")
        let sheet = Screen(title: "Sheet")
        h.scene.topMostScreen?.present(sheet, animated: false)
        h.settle()
        #expect(sheet.view.frameInWindow == h.scene.bounds)
    }
}
