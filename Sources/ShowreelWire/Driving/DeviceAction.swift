import ShowreelAccessibility
import ShowreelGraphics

/// One thing done to a device: the driving vocabulary every front end translates into (Swift
/// tests, YAML flows, the automation API, WebDriver). Its defaults and limits are defined here
/// once (`DeviceAction.Defaults`, `AutomationLimits`), and a `DeviceDriver` performs it: the
/// in-process `Device` by calling its toolkit, `DeviceClient` by sending it over HTTP.
public enum DeviceAction: Sendable, Equatable {
    /// Launches an app (a running instance is terminated first), like `XCUIApplication.launch()`.
    case launch(bundle: String, arguments: [String] = [], environment: [String: String] = [:])
    case terminate(bundle: String)
    /// Brings a running app to the foreground (launching it when it is not running).
    case activate(bundle: String)
    case pressHome
    case tap(Tap)
    case typeText(TypeText)
    /// A key of the software keyboard: a character, "shift", "more", "space", "delete", "Return".
    case pressKey(String)
    case keyCommand(KeyCommand)
    case swipe(Swipe)
    /// Moves the content `direction` into view: the finger drags the other way from the screen's centre.
    case scroll(Direction)
    case shake
    /// Lets device time pass (instant on the virtual clock).
    case wait(Duration)
    case waitFor(WaitFor)
    case waitForState(bundle: String, state: AppState, timeout: Duration)
    case overrideStatusBar(StatusBarOverride)
    case clearStatusBar
    /// Light or dark for every app and the system screens (`simctl ui appearance`).
    case setInterfaceStyle(InterfaceStyle)
    /// What simctl does to the device from outside: pasteboard, URLs (see `SystemAction`).
    case system(SystemAction)

    public typealias Direction = AutomationAPI.Direction
    public typealias Edge = AutomationAPI.Edge

    /// The defaults every front end shares.
    public enum Defaults {
        /// How long a tap keeps the finger down: it shows the highlight on the virtual clock too.
        public static let tapHold: Duration = .milliseconds(100)
        /// How long a swipe's finger moves.
        public static let swipeDuration: Duration = .milliseconds(300)
        /// How long a scroll's finger moves (slower than a swipe: no fling).
        public static let scrollDuration: Duration = .milliseconds(400)
        /// How far a scroll moves the finger, as a fraction of the screen.
        public static let scrollFraction = 0.2
        /// How far a swipe from a point in a direction goes, as a fraction of the screen.
        public static let swipeFraction = 0.4
    }

    /// Where a finger goes: an element's centre (the first hittable match) or a point.
    public enum Target: Sendable, Equatable {
        case element(ElementQuery)
        case point(Point)
    }

    /// A tap, a multi-tap or a press: `count` taps, each holding the finger down for `hold`.
    public struct Tap: Sendable, Equatable {
        public var target: Target
        public var count: Int
        public var hold: Duration
        public init(_ target: Target, count: Int = 1, hold: Duration = Defaults.tapHold) {
            self.target = target; self.count = count; self.hold = hold
        }
    }

    /// Text typed key by key on the software keyboard.
    public struct TypeText: Sendable, Equatable {
        public var text: String
        /// A text field to tap first (to focus it); without it, the focused field gets the text.
        public var into: ElementQuery?
        /// Time between keys, and up to `jitter` more at random (seeded: same run, same video).
        public var keyDelay: Duration
        public var jitter: Duration
        public var seed: UInt64
        public init(_ text: String, into: ElementQuery? = nil, keyDelay: Duration = .zero, jitter: Duration = .zero, seed: UInt64 = 1) {
            self.text = text; self.into = into; self.keyDelay = keyDelay; self.jitter = jitter; self.seed = seed
        }
    }

    /// A hardware-keyboard shortcut such as Cmd+D.
    public struct KeyCommand: Sendable, Equatable {
        public var key: String
        public var modifiers: KeyModifiers
        public init(_ key: String, modifiers: KeyModifiers = .command) { self.key = key; self.modifiers = modifiers }
    }

    /// Where a swipe's finger goes, and how long it takes.
    public struct Swipe: Sendable, Equatable {
        public var path: Path
        public var duration: Duration
        public init(_ path: Path, duration: Duration = Defaults.swipeDuration) { self.path = path; self.duration = duration }

        public enum Path: Sendable, Equatable {
            /// From an element's centre towards a direction, as XCUITest's `swipeUp()` and friends.
            case element(ElementQuery, Direction)
            /// In from a screen edge (the back swipe, the debug window's edge swipe).
            case edge(Edge)
            /// From a point towards a direction, `Defaults.swipeFraction` of the screen.
            case from(Point, Direction)
            /// Between two points: a drag.
            case points(from: Point, to: Point)
        }
    }

    /// Waits until an element is there (or gone, or hittable), at most `timeout` of device time.
    public struct WaitFor: Sendable, Equatable {
        public var query: ElementQuery
        /// false waits for the element to disappear from the screen.
        public var exists: Bool
        /// true waits for the element to be on screen and hittable.
        public var hittable: Bool
        public var timeout: Duration
        public init(_ query: ElementQuery, exists: Bool = true, hittable: Bool = false, timeout: Duration) {
            self.query = query; self.exists = exists; self.hittable = hittable; self.timeout = timeout
        }
    }
}

/// What performing an action gave back.
public enum ActionResult: Sendable, Equatable {
    case done
    /// The app's state after a launch, terminate or activate.
    case app(AppStatus)
    /// Whether a wait's condition was met, and how long it waited.
    case waited(AutomationAPI.WaitResult)
    /// The status bar as it shows after an override or a clear.
    case statusBar(StatusBarOverride)
}

/// The modifier keys of a key command.
public struct KeyModifiers: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let command = KeyModifiers(rawValue: 1 << 0)
    public static let shift = KeyModifiers(rawValue: 1 << 1)
    public static let option = KeyModifiers(rawValue: 1 << 2)
    public static let control = KeyModifiers(rawValue: 1 << 3)

    /// The names, in the order a shortcut is written (command, shift, option, control).
    public static let names: [(String, KeyModifiers)] = [
        ("command", .command), ("shift", .shift), ("option", .option), ("control", .control),
    ]

    /// Modifiers by name ("command", "cmd", "shift", "option", "alt", "control", "ctrl"); nil
    /// for a name that is none of them.
    public init?(names list: [String]) {
        var modifiers: KeyModifiers = []
        for name in list {
            switch name.lowercased() {
            case "command", "cmd": modifiers.insert(.command)
            case "shift": modifiers.insert(.shift)
            case "option", "alt": modifiers.insert(.option)
            case "control", "ctrl": modifiers.insert(.control)
            default: return nil
            }
        }
        self = modifiers
    }

    public var names: [String] { Self.names.filter { contains($0.1) }.map(\.0) }
}

extension ActionResult {
    /// The app's state, for a launch, terminate or activate.
    public var app: AppStatus? { if case let .app(status) = self { status } else { nil } }
    /// The wait's outcome, for a wait for an element or a state.
    public var waited: AutomationAPI.WaitResult? { if case let .waited(result) = self { result } else { nil } }
    /// The status bar as it now shows, for an override or a clear.
    public var statusBar: StatusBarOverride? { if case let .statusBar(values) = self { values } else { nil } }
}
