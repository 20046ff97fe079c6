import ShowreelAccessibility
import ShowreelGraphics
import ShowreelWire

extension Device {
    /// Starts tracing what the device does into `trace` (nil stops it).
    package func setActionTrace(_ trace: ActionTrace?) {
        actionTrace = trace
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
