import Foundation
import ShowcaseApps
import ShowreelRender
@testable import ShowreelUI
import Testing

/// Writes screenshots of the sample apps to /tmp/showreel-ui for a person to look at
/// (only with SHOWREEL_UI_SHOTS=1).
@Suite("Look", .enabled(if: ProcessInfo.processInfo.environment["SHOWREEL_UI_SHOTS"] == "1"))
struct LookTests {
    @Test func shots() throws {
        for profile in [DeviceProfile.phone, .phoneSmall, .tablet] {
            let p = profile.name
            let hello = try SceneHarness(profile: profile, app: HelloApp.definition)
            hello.save("\(p)-hello")
            let countries = try SceneHarness(profile: profile, app: CountriesApp.definition)
            countries.save("\(p)-countries")
            try countries.tap("Canada", type: .cell)
            countries.advance(by: .milliseconds(150))
            countries.save("\(p)-countries-push-mid")
            countries.settle()
            countries.save("\(p)-countries-canada")
            let greeting = try SceneHarness(profile: profile, app: GreetingApp.definition)
            try greeting.tap("generateGreeting")
            greeting.settle()
            greeting.save("\(p)-greeting")
            let signup = try SceneHarness(profile: profile, app: SignUpApp.definition)
            signup.settle()
            try signup.typeOnKeyboard("UITestExample@example.com")
            signup.save("\(p)-signup-typed")
            let frame = signup.scene.keyFrame("more")!
            signup.scene.touchDown(at: frame.center)
            signup.save("\(p)-signup-keydown")
            signup.scene.touchUp(at: frame.center)
            signup.settle()
            signup.scene.firstResponder?.resignFirstResponder()
            signup.settle()
            try signup.tap("showContactCard")
            signup.settle()
            signup.save("\(p)-signup-card")
            try signup.tap("Done")
            signup.settle()
            try signup.tap("share")
            signup.settle()
            signup.save("\(p)-signup-share")
        }
    }
}
