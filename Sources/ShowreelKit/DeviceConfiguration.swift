import ShowreelDevice
import ShowreelTesting
import ShowreelUI

/// Which device a test runs on and how it is set up: what `.device(...)` and
/// `ShowreelTestCase.deviceConfiguration` describe.
public struct DeviceConfiguration: Sendable {
    /// Where the device comes from.
    public enum Source: Sendable, Equatable {
        /// A device booted in the test process for the test, and shut down after it.
        case inProcess
        /// A running device (`showreel device boot`), by udid, name, or `booted`.
        case external(String)
    }

    public var source: Source
    /// A screen profile's name: phone, phone-3x, phone-small, tablet.
    public var profile: String
    public var clock: ClockKind
    /// Applied after boot; nil keeps the device's own status bar. The default is the clean
    /// demo bar (9:41, full battery, full bars) so videos look the same every day.
    public var statusBar: StatusBarOverride?
    /// Draws a circle where the test touches the screen, so the video shows what it did.
    public var showsTouches: Bool
    /// Apps installed besides the sample apps: the user's own `AppDefinition`s.
    public var apps: [AppDefinition]
    /// Light or dark, as the device boots.
    public var appearance: InterfaceStyle
    /// The device's language ("de"): apps launched without `-AppleLanguages` use it; nil for
    /// each app's source language.
    public var language: String?

    public static let cleanStatusBar = StatusBarOverride(
        time: "9:41", dataNetwork: "wifi", wifiBars: 3, cellularBars: 4, batteryState: "charged", batteryLevel: 100)

    public init(_ source: Source = .inProcess, profile: String = "phone", clock: ClockKind = .virtual,
                statusBar: StatusBarOverride? = DeviceConfiguration.cleanStatusBar, showsTouches: Bool = true,
                apps: [AppDefinition] = [], appearance: InterfaceStyle = .light, language: String? = nil) {
        self.source = source
        self.appearance = appearance
        self.language = language
        self.profile = profile
        self.clock = clock
        self.statusBar = statusBar
        self.showsTouches = showsTouches
        self.apps = apps
    }
}
