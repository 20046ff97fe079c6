import Logging
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelWire

extension Device {
    /// Starts tracing what the device does into `trace` (nil stops it).
    package func setActionTrace(_ trace: ActionTrace?) {
        actionTrace = trace
    }

    // MARK: Tracing for another process (the automation API's /v1/trace routes)

    /// Attaches `trace` for a client in another process; refused while a trace is attached (a
    /// recording traced by another client), unless that one is replaceable: a trace another
    /// process started and never collected is discarded (its client was killed, or gave up), so
    /// that one crashed test run does not leave the device untraceable. Returns the device time it starts at, and the
    /// device time of the first frame sent to the display-stream recorder that connected last
    /// and is still recording (nil without one): a recorder in yet another process (a tunnel
    /// host's), started just before, whose video's first frame that is.
    package func attachTrace(_ trace: ActionTrace) throws(TraceConflict) -> (time: Duration, recordingStart: Duration?) {
        if let current = actionTrace {
            guard current.isReplaceable else { throw .running }
            logger.warning(
                "a trace started through the automation API was never collected; it is discarded for a new one",
                metadata: ["actions": "\(current.entries.count)"])
        }
        actionTrace = trace
        let recording = display.sessions.last { $0.startTime != nil && $0.stopTime == nil }
        return (clock.now, recording?.startTime)
    }

    /// Stops tracing and returns the trace that was attached (a step left open ends now).
    package func detachTrace() throws(TraceConflict) -> ActionTrace {
        guard let trace = actionTrace else { throw .notRunning }
        if let open = trace.openEntry { endTracedStep(open, error: nil) }
        actionTrace = nil
        return trace
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
    /// screen (or the finger's `point`) is its target.
    func traced<T: Sendable>(
        _ title: @autoclosure () -> String, query: ElementQuery? = nil, point: Point? = nil,
        _ body: () async throws -> T
    ) async throws -> T {
        guard let trace = actionTrace else { return try await body() }
        // One tree for the target and the trace, shared with the action before while the screen
        // has not changed: taking it is most of what tracing costs. An action inside an entry
        // already open (a flow step's wait and tap, a typed text's keys) gives it at most its
        // target: no tree is taken unless that is still to find.
        let frame = currentFrame()
        let snapshot = trace.needsTree(toFind: query) ? trace.tree(on: frame) { tree() } : []
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

    package var description: String {
        switch self {
        case .running:
            "a recording in the device's own process is tracing it; wait until it has finished"
        case .notRunning: "no trace is running: start one with POST /v1/trace before the actions to trace"
        case let .stepOpen(title): "the step '\(title)' is still open: end it with POST /v1/trace/steps/end before opening another"
        case .noStepOpen: "no step is open: open one with POST /v1/trace/steps {\"title\": ...} first"
        }
    }

    package var httpStatus: Int { 409 }
}
