import Foundation
import ShowcaseApps
import ShowreelAccessibility
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelUI

/// One golden image per sample screen, rendered at the phone-small profile and halved
/// (375x667 PNGs in Fixtures/Goldens/). A mismatch explains itself (how many pixels, where, by how
/// much) and leaves the actual image and a difference picture in a temporary folder.
/// `SHOWREEL_RECORD_GOLDENS=1 swift test --filter Golden` rewrites the PNGs in the source
/// tree and fails, so a recording is never mistaken for a pass.
@Suite("Golden images")
struct GoldenTests {
    static let profile = DeviceProfile.phoneSmall

    @Test("Hello") func hello() throws {
        try assertGolden("hello", try SceneHarness(profile: Self.profile, app: HelloApp.definition))
    }

    @Test("Countries list") func countries() throws {
        try assertGolden("countries-list", try SceneHarness(profile: Self.profile, app: CountriesApp.definition))
    }

    @Test("Countries: Canada") func canada() throws {
        let h = try SceneHarness(profile: Self.profile, app: CountriesApp.definition)
        try h.tap("Canada", type: .cell)
        h.settle()
        try assertGolden("countries-canada", h)
    }

    @Test("Countries: mid-push") func midPush() throws {
        let h = try SceneHarness(profile: Self.profile, app: CountriesApp.definition)
        try h.tap("Canada", type: .cell)
        h.advance(by: .milliseconds(120))
        try assertGolden("countries-push-120ms", h)
    }

    @Test("Greeting (as a release build shows it, without the drawer)") func greeting() throws {
        let release = GreetingApp.makeDefinition { GreetingApp.ServiceLocator(context: $0) }
        let h = try SceneHarness(profile: Self.profile, app: release)
        try h.tap("generateGreeting")
        try assertGolden("greeting", h)
    }

    @Test("Greeting's debug drawer, then its form") func debugDrawer() throws {
        let h = try SceneHarness(profile: Self.profile, app: GreetingApp.definition)
        try h.tap("generateGreeting")
        try assertGolden("greeting-debug-drawer", h)
        try h.tap("debugDrawer")
        h.settle()
        try assertGolden("greeting-debug-form", h)
    }

    @Test("Mail's debug window over a thread") func debugWindow() throws {
        let h = try SceneHarness(profile: Self.profile, app: MailApp.definition)
        try h.tap("Release 5.1 notes", type: .cell)
        h.settle()
        h.scene.keyCommand("cmd+d")
        h.settle()
        try assertGolden("debug-window", h)
    }

    @Test("Sign-up with the demo address typed") func signUp() throws {
        let h = try SceneHarness(profile: Self.profile, app: SignUpApp.definition)
        h.settle()
        try h.typeOnKeyboard("UITestExample@")
        try assertGolden("signup-numbers-keyboard", h)
        try h.typeOnKeyboard("example.com")
        try assertGolden("signup-typed", h)
    }

    @Test("Sign-up: invalid address alert") func alert() throws {
        let h = try SceneHarness(profile: Self.profile, app: SignUpApp.definition)
        h.settle()
        try h.tap("Return", type: .key)
        h.settle()
        try assertGolden("signup-alert", h)
    }

    @Test("Contact card with the app's appearance leaking in, and reset") func contactCard() throws {
        let h = try SceneHarness(profile: Self.profile, app: SignUpApp.definition)
        try #require(h.scene.firstResponder).resignFirstResponder()
        h.settle()
        try h.tap("showContactCard")
        h.settle()
        try assertGolden("contact-card-leaked", h)
        try h.tap("Done")
        h.settle()
        try h.tap("resetAppearance", type: .switch)
        try h.tap("showContactCard")
        h.settle()
        try assertGolden("contact-card-default", h)
    }

    @Test("Share sheet") func shareSheet() throws {
        let h = try SceneHarness(profile: Self.profile, app: SignUpApp.definition)
        try #require(h.scene.firstResponder).resignFirstResponder()
        h.settle()
        try h.tap("share")
        h.settle()
        try assertGolden("share-sheet", h)
    }

    // MARK: Support

    func assertGolden(_ name: String, _ harness: SceneHarness, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let actual = harness.render().downsampled(by: Self.profile.scale)
        if ProcessInfo.processInfo.environment["SHOWREEL_RECORD_GOLDENS"] == "1" {
            let url = Self.sourceGoldens.appendingPathComponent(name + ".png")
            try Data(actual.pngData()).write(to: url)
            Issue.record(
                "Recorded golden \(url.path); run again without SHOWREEL_RECORD_GOLDENS to compare.",
                sourceLocation: sourceLocation)
            return
        }
        guard let bytes = try? Data(contentsOf: Self.sourceGoldens.appendingPathComponent(name + ".png")) else {
            Issue.record("No golden image \(name).png: record it with SHOWREEL_RECORD_GOLDENS=1.", sourceLocation: sourceLocation)
            return
        }
        let expected = try PixelBuffer(pngData: [UInt8](bytes))
        guard let difference = actual.difference(from: expected) else { return }
        let failures = FileManager.default.temporaryDirectory.appendingPathComponent("showreel-golden-failures")
        try? FileManager.default.createDirectory(at: failures, withIntermediateDirectories: true)
        let actualURL = failures.appendingPathComponent(name + ".actual.png")
        try? Data(actual.pngData()).write(to: actualURL)
        if let picture = actual.differenceImage(from: expected) {
            try? Data(picture.pngData()).write(to: failures.appendingPathComponent(name + ".diff.png"))
        }
        Issue.record(
            "Golden \(name).png differs: \(difference). Actual and difference images in \(failures.path).",
            sourceLocation: sourceLocation)
    }

    /// `Fixtures/Goldens` at the top of the package (found from this file, as snapshot tests do).
    static var sourceGoldens: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/Goldens")
    }
}
