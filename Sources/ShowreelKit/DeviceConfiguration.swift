import ShowreelDevice
import ShowreelTesting
import ShowreelUI
import ShowreelWire

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

    /// How a test's actions reach an in-process device.
    public enum Transport: Sendable, Equatable {
        /// Straight to the device's actor: the fastest way, and the default.
        case inProcess
        /// Through the device's automation API on a loopback port, as an external device is
        /// driven: the same actions over HTTP (run a suite both ways to check the wire).
        case http
    }

    public var source: Source
    /// In-process devices only: external ones are always driven over HTTP.
    public var transport: Transport
    /// The screen: `.phone`, `.phoneLarge`, `.phoneSmall`, `.tablet` (see `DeviceProfile`).
    public var profile: DeviceProfile
    public var clock: ClockKind
    /// Applied after boot; nil keeps the device's own status bar. The default is the clean
    /// demo bar (9:41, full battery, full bars) so videos look the same every day.
    public var statusBar: StatusBarOverride?
    /// Draws a circle where the test touches the screen, so the video shows what it did.
    public var showsTouches: Bool
    /// Apps installed besides the sample apps: the user's own `AppDefinition`s.
    public var apps: [AppDefinition]
    /// The language the device boots in (`-AppleLanguages`), nil for the apps' own.
    public var language: DeviceLanguage?
    /// Light or dark, from boot.
    public var appearance: InterfaceStyle = .light
    /// How the in-process device is held from boot: on its side, its video is landscape (what a
    /// landscape App Store preview is made from).
    public var orientation: DeviceOrientation = .portrait
    /// The registry an external device is found in; nil for `$SHOWREEL_HOME` (or
    /// `~/.showreel`), as `showreel device boot` uses. The project's tests boot devices in
    /// private registries.
    package var registry: DeviceRegistry?

    public static let cleanStatusBar = StatusBarOverride(
        time: "9:41", dataNetwork: .wifi, wifiBars: 3, cellularBars: 4, batteryState: .charged, batteryLevel: 100)

    public init(
        _ source: Source = .inProcess, profile: DeviceProfile = .phone, clock: ClockKind = .virtual,
        statusBar: StatusBarOverride? = DeviceConfiguration.cleanStatusBar, showsTouches: Bool = true,
        apps: [AppDefinition] = [], transport: Transport = .inProcess, appearance: InterfaceStyle = .light,
        language: DeviceLanguage? = nil, orientation: DeviceOrientation = .portrait
    ) {
        self.source = source
        self.orientation = orientation
        self.transport = transport
        self.appearance = appearance
        self.language = language
        self.profile = profile
        self.clock = clock
        self.statusBar = statusBar
        self.showsTouches = showsTouches
        self.apps = apps
    }
}
