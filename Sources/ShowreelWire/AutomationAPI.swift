import Foundation
import ShowreelAccessibility
import ShowreelGraphics

/// The automation API's request and response bodies (JSON over HTTP, under `/v1`).
/// Durations are seconds as numbers, as a person writes them in curl or YAML.
public enum AutomationAPI {
    public struct DeviceInfo: Codable, Equatable, Sendable {
        public var udid: String
        public var name: String
        public var profile: String
        public var clock: ClockKind
        /// Device time since boot, in seconds.
        public var time: Double
        public var installedApps: [String]
        public var foregroundApp: String?
        public init(
            udid: String, name: String, profile: String, clock: ClockKind, time: Double, installedApps: [String], foregroundApp: String?
        ) {
            self.udid = udid; self.name = name; self.profile = profile; self.clock = clock; self.time = time
            self.installedApps = installedApps; self.foregroundApp = foregroundApp
        }
    }

    package struct Launch: AutomationBody, Equatable, Sendable {
        package var arguments: [String]?
        package var environment: [String: String]?
        package init(arguments: [String]? = nil, environment: [String: String]? = nil) {
            self.arguments = arguments; self.environment = environment
        }
    }

    package struct WaitForState: AutomationBody, Equatable, Sendable {
        package var state: AppState
        package var timeout: Double
        package init(state: AppState, timeout: Double) { self.state = state; self.timeout = timeout }
    }

    package struct Tap: AutomationBody, Equatable, Sendable {
        package var query: ElementQuery?
        package var point: Point?
        /// 2 for a double tap.
        package var count: Int?
        /// Seconds the finger stays down (a press), default 0.1.
        package var duration: Double?
        package init(query: ElementQuery? = nil, point: Point? = nil, count: Int? = nil, duration: Double? = nil) {
            self.query = query; self.point = point; self.count = count; self.duration = duration
        }
    }

    package struct TypeText: AutomationBody, Equatable, Sendable {
        package var text: String
        /// A text field to tap first (to focus it); without it, the focused field gets the text.
        package var query: ElementQuery?
        /// Seconds between keys, and up to this much more at random (seeded: same run, same video).
        package var keyDelay: Double?
        package var jitter: Double?
        package var seed: UInt64?
        package init(text: String, query: ElementQuery? = nil, keyDelay: Double? = nil, jitter: Double? = nil, seed: UInt64? = nil) {
            self.text = text; self.query = query; self.keyDelay = keyDelay; self.jitter = jitter; self.seed = seed
        }
    }

    package struct Key: AutomationBody, Equatable, Sendable {
        /// A key's identifier on the software keyboard: a character, "shift", "more", "space", "delete", "Return".
        package var key: String
        package init(key: String) { self.key = key }
    }

    public enum Direction: String, Codable, Sendable, CaseIterable {
        case up, down, left, right

        public var opposite: Direction {
            switch self {
            case .up: .down
            case .down: .up
            case .left: .right
            case .right: .left
            }
        }
    }
    public enum Edge: String, Codable, Sendable, CaseIterable { case left, right, top, bottom }

    package struct Swipe: AutomationBody, Equatable, Sendable {
        /// Swipe on an element (its centre), or from a screen edge, or between two points.
        package var query: ElementQuery?
        package var edge: Edge?
        package var direction: Direction?
        package var from: Point?
        package var to: Point?
        package var duration: Double?
        package init(
            query: ElementQuery? = nil, edge: Edge? = nil, direction: Direction? = nil, from: Point? = nil,
            to: Point? = nil, duration: Double? = nil
        ) {
            self.query = query; self.edge = edge; self.direction = direction; self.from = from; self.to = to; self.duration = duration
        }
    }

    package struct KeyCommand: AutomationBody, Equatable, Sendable {
        package var key: String
        /// "command", "shift", "option", "control".
        package var modifiers: [String]
        package init(key: String, modifiers: [String]) { self.key = key; self.modifiers = modifiers }
    }

    package struct Scroll: AutomationBody, Equatable, Sendable {
        /// Where the content comes from: `down` brings what is below into view.
        package var direction: Direction
        package init(direction: Direction) { self.direction = direction }
    }

    package struct SetAppearance: AutomationBody, Equatable, Sendable {
        package var appearance: InterfaceStyle
        package init(appearance: InterfaceStyle) { self.appearance = appearance }
    }

    package struct Wait: AutomationBody, Equatable, Sendable {
        package var seconds: Double
        package init(seconds: Double) { self.seconds = seconds }
    }

    package struct WaitFor: AutomationBody, Equatable, Sendable {
        package var query: ElementQuery
        /// false waits for the element to disappear from the screen.
        package var exists: Bool?
        /// true waits for the element to be on screen and hittable (`waitForHittable`).
        package var hittable: Bool?
        package var timeout: Double
        package init(query: ElementQuery, exists: Bool? = nil, hittable: Bool? = nil, timeout: Double) {
            self.query = query; self.exists = exists; self.hittable = hittable; self.timeout = timeout
        }
    }

    public struct WaitResult: Codable, Equatable, Sendable {
        public var matched: Bool
        /// Device seconds waited.
        public var waited: Double
        public init(matched: Bool, waited: Double) { self.matched = matched; self.waited = waited }
    }

    package struct Query: AutomationBody, Equatable, Sendable {
        package var query: ElementQuery
        package init(query: ElementQuery) { self.query = query }

        package func validate(_ limits: AutomationLimits) throws(AutomationInputError) { try limits.check(query, "query") }
    }

    package struct QueryResult: Codable, Equatable, Sendable {
        package var count: Int
        package var elements: [ElementSnapshot]
        package init(count: Int, elements: [ElementSnapshot]) { self.count = count; self.elements = elements }
    }

    package struct Tree: Codable, Equatable, Sendable {
        package var elements: [ElementSnapshot]
        package init(elements: [ElementSnapshot]) { self.elements = elements }
    }

    /// `POST /v1/trace`: when tracing started, and when the recording it is for did.
    package struct TraceStarted: Codable, Equatable, Sendable {
        /// Device seconds since boot.
        package var time: Double
        /// The device time of the first frame the display stream sent to the recorder that
        /// connected last and is still recording, if any: a recorder in another process that just
        /// reported its first frame started its video there.
        package var recordingStart: Double?
        /// This trace's id, for `/v1/trace/end`: several recordings may trace one device.
        package var id: String?
        package init(time: Double, recordingStart: Double? = nil, id: String? = nil) {
            self.time = time
            self.recordingStart = recordingStart
            self.id = id
        }
    }

    /// `POST /v1/trace/end`: stop tracing and answer the trace (the report's `RunTrace`).
    package struct TraceEnd: AutomationBody, Equatable, Sendable {
        /// The device time, in seconds since boot, of the video's first frame: the trace's
        /// times count from it.
        package var videoStart: Double
        /// Whether the trace carries its pictures (small JPEGs); false for a video that is not
        /// kept, where encoding them would be wasted. Default true.
        package var pictures: Bool?
        /// Which trace ends: the id `/v1/trace` answered; may be left out while only one runs.
        package var id: String?
        package init(videoStart: Double, pictures: Bool? = nil, id: String? = nil) {
            self.videoStart = videoStart
            self.pictures = pictures
            self.id = id
        }

        package func validate(_ limits: AutomationLimits) throws(AutomationInputError) {
            // Beyond an Int64 of seconds a Duration traps (1e21 took the device down).
            if let problem = AutomationLimits.deviceTime.problem(with: videoStart) {
                throw .outOfRange(field: "videoStart", message: "is device seconds since boot: \(problem)")
            }
        }
    }

    /// `POST /v1/trace/steps`: opens a step of a front end whose steps span several actions
    /// (a WebDriver command): the actions until `/v1/trace/steps/end` are part of it.
    package struct TraceStep: AutomationBody, Equatable, Sendable {
        package var title: String
        package init(title: String) { self.title = title }

        package func validate(_ limits: AutomationLimits) throws(AutomationInputError) {
            guard !title.isEmpty, title.count <= AutomationLimits.maxTextLength else {
                throw .outOfRange(field: "title", message: "must be 1 to \(AutomationLimits.maxTextLength) characters, got \(title.count)")
            }
        }
    }

    /// `POST /v1/trace/steps/end`: closes the open step, failed with `error` when it has one.
    package struct TraceStepEnd: AutomationBody, Equatable, Sendable {
        package var error: String?
        package init(error: String? = nil) { self.error = error }
    }

    /// Every error: a sentence that says what failed and what the screen had instead.
    package typealias ErrorBody = ShowreelWire.ErrorBody

    /// An empty success.
    package struct OK: Codable, Equatable, Sendable {
        package var ok: Bool
        package init() { ok = true }
    }
}

/// A request body of the automation API: decoded strictly (see `StrictJSON`), then checked
/// against the limits, so a request never starts hours of work or taps off the screen.
package protocol AutomationBody: Codable {
    func validate(_ limits: AutomationLimits) throws(AutomationInputError)
}

extension AutomationBody {
    public func validate(_ limits: AutomationLimits) throws(AutomationInputError) {}
}

/// The bounds of what one request may ask for. An action runs while its request is open, so
/// these keep every request to about a minute of device time (a 1000-key text at the largest
/// key delay is the exception, and a client can always cut it short by hanging up).
public struct AutomationLimits: Sendable {
    /// The screen in points: where a finger can go.
    public var screen: Size
    /// Taps in one request (a double tap is 2).
    public static let maxCount = 100
    /// Characters typed in one request.
    public static let maxTextLength = 1000
    /// Seconds of one press, swipe or pause between keys.
    public static let maxGestureSeconds: Double = 60
    /// Seconds of one wait or timeout.
    public static let maxWaitSeconds: Double = 3600
    /// Seconds a device may have been running: what a time on the device clock may be.
    public static let maxDeviceSeconds: Double = 1e9
    /// Steps of one element query (`app.tables.cells["Canada"]` has two; a WebDriver element
    /// without a name is found by its path, a step per level of the tree).
    public static let maxQuerySteps = 256

    public init(screen: Size) { self.screen = screen }

    func onScreen(_ point: Point?, _ field: String) throws(AutomationInputError) {
        guard let point else { return }
        guard point.x.isFinite, point.y.isFinite, (0...screen.width).contains(point.x), (0...screen.height).contains(point.y) else {
            throw .outOfRange(
                field: field,
                message:
                    "must be on the screen: x from 0 to \(Int(screen.width)) and y from 0 to \(Int(screen.height)) points, got (\(point.x), \(point.y))"
            )
        }
    }
}

extension StatusBarOverride: AutomationBody {}

/// Words for a JSON body that did not decode: which field, and what was wrong with it.
package func describeDecodingError(_ error: any Error) -> String {
    func path(_ codingPath: [any CodingKey]) -> String {
        let names = codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
        return names.isEmpty ? "the body" : "'" + names.joined(separator: ".").replacingOccurrences(of: ".[", with: "[") + "'"
    }
    switch error as? DecodingError {
    case let .keyNotFound(key, context)?:
        let parent = context.codingPath.isEmpty ? "" : " in \(path(context.codingPath))"
        return "missing field '\(key.stringValue)'\(parent)"
    case let .typeMismatch(type, context)?:
        return "\(path(context.codingPath)) should be \(describe(type))"
    case let .valueNotFound(type, context)?:
        return "\(path(context.codingPath)) is null; it should be \(describe(type))"
    case let .dataCorrupted(context)?:
        return context.codingPath.isEmpty ? "the body is not valid JSON" : "\(path(context.codingPath)): \(context.debugDescription)"
    default:
        return String(describing: error)
    }
}

private func describe(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: return "a string"
    case is Double.Type, is Float.Type: return "a number"
    case is Int.Type, is Int64.Type, is UInt64.Type, is Int32.Type: return "a whole number"
    case is Bool.Type: return "true or false"
    default:
        let name = String(describing: type)
        return name.hasPrefix("Array") ? "a list" : name.hasPrefix("Dictionary") ? "an object" : "a \(name)"
    }
}
