import ShowreelAccessibility
import ShowreelGraphics

extension AutomationLimits {
    /// A press, a swipe, a pause between keys.
    package static let gesture = SecondsLimit(max: maxGestureSeconds)
    /// A swipe must move: zero seconds is no swipe.
    package static let swipe = SecondsLimit(max: maxGestureSeconds, allowsZero: false)
    /// A wait or a timeout.
    package static let wait = SecondsLimit(max: maxWaitSeconds)
    /// A time on the device clock (seconds since boot).
    package static let deviceTime = SecondsLimit(max: maxDeviceSeconds)

    /// `seconds` as a `Duration` once it is within `limit` (a `Duration` traps on NaN or
    /// infinity); the error names `field`.
    package static func duration(_ seconds: Double, _ field: String, _ limit: SecondsLimit) throws(AutomationInputError) -> Duration {
        if let problem = limit.problem(with: seconds) { throw .outOfRange(field: field, message: problem) }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// An element query a client sent: at most `maxQuerySteps` steps (each walks the whole
    /// tree, so 50000 of them in a 1 MiB body held the device for seconds).
    package func check(_ query: ElementQuery?, _ field: String) throws(AutomationInputError) {
        guard let query, query.steps.count > Self.maxQuerySteps else { return }
        throw .outOfRange(field: field, message: "must have at most \(Self.maxQuerySteps) steps, got \(query.steps.count)")
    }

    func check(_ duration: Duration, _ field: String, _ limit: SecondsLimit) throws(AutomationInputError) {
        if let problem = limit.problem(with: duration.seconds) { throw .outOfRange(field: field, message: problem) }
    }
}

extension DeviceAction {
    /// Checks the action against the limits: counts, text lengths, times and points on the
    /// screen. The error names the field as the automation API spells it.
    public func validate(_ limits: AutomationLimits) throws(AutomationInputError) {
        switch self {
        case let .tap(tap):
            guard (1...AutomationLimits.maxCount).contains(tap.count) else {
                throw .outOfRange(field: "count", message: "must be from 1 to \(AutomationLimits.maxCount) taps, got \(tap.count)")
            }
            try limits.check(tap.hold, "duration", AutomationLimits.gesture)
            switch tap.target {
            case let .point(point): try limits.onScreen(point, "point")
            case let .element(query): try limits.check(query, "query")
            }
        case let .typeText(typing):
            guard typing.text.count <= AutomationLimits.maxTextLength else {
                throw .outOfRange(
                    field: "text",
                    message: "must be at most \(AutomationLimits.maxTextLength) characters, got \(typing.text.count): send it in parts")
            }
            try limits.check(typing.into, "query")
            try limits.check(typing.keyDelay, "keyDelay", AutomationLimits.gesture)
            try limits.check(typing.jitter, "jitter", AutomationLimits.gesture)
        case let .swipe(swipe):
            try limits.check(swipe.duration, "duration", AutomationLimits.swipe)
            switch swipe.path {
            case let .points(from, to):
                try limits.onScreen(from, "from")
                try limits.onScreen(to, "to")
            case let .from(point, _): try limits.onScreen(point, "from")
            case let .element(query, _): try limits.check(query, "query")
            case .edge: break
            }
        case let .wait(duration): try limits.check(duration, "seconds", AutomationLimits.wait)
        case let .waitFor(wait):
            try limits.check(wait.query, "query")
            try limits.check(wait.timeout, "timeout", AutomationLimits.wait)
        case let .waitForState(_, _, timeout): try limits.check(timeout, "timeout", AutomationLimits.wait)
        case let .system(action): try action.validate()
        case .launch, .terminate, .activate, .pressHome, .pressKey, .keyCommand, .scroll, .shake, .overrideStatusBar,
            .clearStatusBar, .setInterfaceStyle:
            break
        }
    }
}
