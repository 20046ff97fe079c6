import Logging
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelWire

extension Device {
    /// Starts tracing what the device does into `trace` (nil stops it).
    package func setActionTrace(_ trace: ActionTrace?) {
        actionTrace = trace
    }

    // MARK: Tracing for recordings (a device in another process, or one no session owns)

    /// Starts a recording's trace and returns its id, the device time it starts at, and the
    /// device time of the first frame sent to the display-stream recorder that connected last
    /// and is still recording (nil without one): a recorder in yet another process (a tunnel
    /// host's), started just before, whose video's first frame that is.
    ///
    /// Traces are per recording: several recordings of one device (two recorded tests sharing
    /// an external device) each get theirs, with everything the device did while it ran. They
    /// share one record of the device's actions, kept while any of them runs. Refused while a
    /// recording in the device's own process that traces the device alone (a flow's
    /// `RecordedSession`) runs. A trace another process started and never collected (its
    /// client was killed) is given up once `maximumTraces` are running, the oldest first, so
    /// that crashed test runs do not leave the device untraceable.
    package func attachTrace(replaceable: Bool) throws(TraceConflict) -> (id: String, time: Duration, recordingStart: Duration?) {
        if actionTrace != nil, traceClaims.isEmpty { throw .running }
        if traceClaims.count >= Self.maximumTraces,
            let oldest = traceClaims.filter({ $0.value.replaceable }).min(by: { $0.value.order < $1.value.order })?.key
        {
            traceClaims[oldest] = nil
            logger.warning(
                "a trace started through the automation API was never collected; it is given up for a new one",
                metadata: ["trace": "\(oldest)"])
        }
        guard traceClaims.count < Self.maximumTraces else { throw .tooMany(Self.maximumTraces) }
        let trace = actionTrace ?? ActionTrace()
        actionTrace = trace
        nextTraceOrder += 1
        let id = "T\(nextTraceOrder)"
        traceClaims[id] = TraceClaim(first: trace.entries.count, replaceable: replaceable, order: nextTraceOrder)
        let recording = display.sessions.last { $0.startTime != nil && $0.stopTime == nil }
        return (id, clock.now, recording?.startTime)
    }

    /// How many recordings may trace the device at once.
    package static let maximumTraces = 16

    /// Stops the trace `id` (nil: the one running, when only one is) and returns what the
    /// device did while it ran. The last trace to stop ends a step left open, and the record.
    package func detachTrace(_ id: String?) throws(TraceConflict) -> [ActionTrace.Entry] {
        guard let trace = actionTrace, !traceClaims.isEmpty else { throw .notRunning }
        let key: String
        if let id {
            guard traceClaims[id] != nil else { throw .unknownTrace(id) }
            key = id
        } else {
            guard traceClaims.count == 1, let only = traceClaims.keys.first else { throw .whichTrace(traceClaims.count) }
            key = only
        }
        let claim = traceClaims.removeValue(forKey: key)!
        if traceClaims.isEmpty {
            if let open = trace.openEntry { endTracedStep(open, error: nil) }
            actionTrace = nil
        }
        let entries = trace.entries
        return Array(entries[min(claim.first, entries.count)...])
    }

    /// Opens a step for a client in another process (a WebDriver command): one at a time.
    package func openStep(_ title: String) throws(TraceConflict) {
        guard let trace = actionTrace else { throw .notRunning }
        if let open = trace.openEntry { throw .stepOpen(trace.entries[open.index].title) }
        _ = beginTracedStep(title)
    }

    /// Closes the step opened with `openStep`, failed with `error` when it has one.
    package func closeStep(error: String?) throws(TraceConflict) {
        guard let trace = actionTrace else { throw .notRunning }
        guard let open = trace.openEntry else { throw .noStepOpen }
        endTracedStep(open, error: error)
    }

    /// Opens a trace entry for a step of a front end whose steps span several device actions (a
    /// flow's `tapOn` waits, then taps): those actions give it its target. Nil without a trace.
    package func beginTracedStep(_ title: String) -> ActionTrace.Handle? {
        guard let trace = actionTrace else { return nil }
        let frame = currentFrame()
        return trace.begin(
            title, query: nil, target: nil, at: clock.now, screen: { frame },
            tree: { trace.tree(on: frame) { tree() } })
    }

    /// Closes a step opened with `beginTracedStep`, with why it failed (nil when it passed).
    package func endTracedStep(_ handle: ActionTrace.Handle?, error: String?, interrupted: Bool = false) {
        actionTrace?.end(handle, at: clock.now, screen: { currentFrame() }, error: error, interrupted: interrupted)
    }

    /// Runs one automation action, traced when a trace is attached: the element `query` finds on
    /// screen (or the finger's `point`) is its target. `looksUpFirst`: the action's body looks
    /// at the screen's tree before it does anything else (a tap finding its element), so the
    /// tree taken here for the trace serves that look too.
    func traced<T: Sendable>(
        _ title: @autoclosure () -> String, query: ElementQuery? = nil, point: Point? = nil, looksUpFirst: Bool = false,
        _ body: () async throws -> T
    ) async throws -> T {
        guard let trace = actionTrace else { return try await body() }
        // One tree for the target and the trace, shared with the action before while the screen
        // has not changed: taking it is most of what tracing costs. An action inside an entry
        // already open (a flow step's wait and tap, a typed text's keys) gives it at most its
        // target: no tree is taken unless that is still to find.
        let frame = currentFrame()
        var taken: [ElementSnapshot]?
        let snapshot =
            trace.needsTree(toFind: query)
            ? trace.tree(on: frame) {
                let fresh = tree()
                taken = fresh
                return fresh
            } : []
        // Only a tree taken just now: one kept from an earlier action is the trace's to reuse.
        if looksUpFirst, let taken { tracedTree = (taken, clock.now, frame.presentationTime) }
        defer { tracedTree = nil }
        let target =
            query.flatMap { onScreen($0, in: snapshot).first?.frame }
            ?? point.map { Rect(x: $0.x - 22, y: $0.y - 22, width: 44, height: 44) }
        let handle = trace.begin(title(), query: query, target: target, at: clock.now, screen: { frame }, tree: { snapshot })
        do {
            let result = try await body()
            trace.end(handle, at: clock.now, screen: { currentFrame() }, error: nil, interrupted: false)
            return result
        } catch {
            trace.end(
                handle, at: clock.now, screen: { currentFrame() }, error: ErrorSentence.describe(error),
                interrupted: error is CancellationError)
            throw error
        }
    }
}

/// Why a trace request of the automation API cannot be done now: a 409 whose sentence says
/// what to do instead.
package enum TraceConflict: Error, CustomStringConvertible, Equatable, HTTPStatusError {
    case running
    case notRunning
    case stepOpen(String)
    case noStepOpen
    case unknownTrace(String)
    case whichTrace(Int)
    case tooMany(Int)

    package var description: String {
        switch self {
        case .running:
            "a recording in the device's own process is tracing it; wait until it has finished"
        case .notRunning: "no trace is running: start one with POST /v1/trace before the actions to trace"
        case let .stepOpen(title): "the step '\(title)' is still open: end it with POST /v1/trace/steps/end before opening another"
        case .noStepOpen: "no step is open: open one with POST /v1/trace/steps {\"title\": ...} first"
        case let .unknownTrace(id): "no trace '\(id)' is running: give the id POST /v1/trace answered"
        case let .whichTrace(count):
            "\(count) recordings trace this device: say which trace ends with the id POST /v1/trace answered ({\"id\": ...})"
        case let .tooMany(count): "\(count) recordings trace this device already: end one with POST /v1/trace/end first"
        }
    }

    package var httpStatus: Int { 409 }
}

/// A recording's trace: where in the device's record of actions it starts.
struct TraceClaim {
    /// The index of its first entry in `Device.actionTrace`.
    var first: Int
    /// Started through the automation API: given up when its client never collects it.
    var replaceable: Bool
    /// When it started, among the device's traces.
    var order: Int
}
