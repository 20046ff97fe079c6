extension AutomationAPI {
    /// Every endpoint of the automation API: what `AutomationServer` serves and `DeviceClient` calls.
    /// A response header on every answer of the automation API: the device time, in seconds
    /// since boot, when the answer was made. A client in another process knows from it when on
    /// the device its last call ended (a test's failed expectation is placed in the video by it).
    package static let deviceTimeHeader = "Showreel-Device-Time"

    public enum Routes {
        package static let device = Route(.get, "/v1/device")
        package static let tree = Route(.get, "/v1/tree")
        package static let query = Route(.post, "/v1/query")
        package static let element = Route(.post, "/v1/element")

        package static let launch = Route(.post, "/v1/apps/:bundle/launch")
        package static let terminate = Route(.post, "/v1/apps/:bundle/terminate")
        package static let activate = Route(.post, "/v1/apps/:bundle/activate")
        package static let state = Route(.get, "/v1/apps/:bundle/state")
        package static let waitForState = Route(.post, "/v1/apps/:bundle/wait-for-state")
        package static let home = Route(.post, "/v1/home")

        package static let tap = Route(.post, "/v1/tap")
        package static let type = Route(.post, "/v1/type")
        package static let key = Route(.post, "/v1/key")
        package static let swipe = Route(.post, "/v1/swipe")
        package static let shake = Route(.post, "/v1/shake")
        package static let scroll = Route(.post, "/v1/scroll")
        package static let appearance = Route(.post, "/v1/appearance")
        package static let keyCommand = Route(.post, "/v1/key-command")
        package static let overrideStatusBar = Route(.put, "/v1/status-bar")
        package static let clearStatusBar = Route(.delete, "/v1/status-bar")
        package static let screenshot = Route(.get, "/v1/screenshot")

        package static let wait = Route(.post, "/v1/wait")
        package static let waitFor = Route(.post, "/v1/wait-for")

        /// The step trace of a recording made in another process: started, stepped, collected.
        package static let traceStart = Route(.post, "/v1/trace")
        package static let traceEnd = Route(.post, "/v1/trace/end")
        package static let traceStep = Route(.post, "/v1/trace/steps")
        package static let traceStepEnd = Route(.post, "/v1/trace/steps/end")

        /// The POSTs that only read the screen (everything else but a GET acts on the device).
        package static let reads: [Route] = [query, element]

        package static let all: [Route] =
            [
                device, tree, query, element, launch, terminate, activate, state, waitForState, home,
                tap, type, key, swipe, shake, scroll, appearance, keyCommand, overrideStatusBar, clearStatusBar, screenshot, wait, waitFor,
                traceStart, traceEnd, traceStep, traceStepEnd,
            ] + system
    }
}
