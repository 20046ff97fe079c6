extension AutomationAPI {
    /// Every endpoint of the automation API: what `AutomationServer` serves and `DeviceClient` calls.
    public enum Routes {
        public static let device = Route(.get, "/v1/device")
        public static let tree = Route(.get, "/v1/tree")
        public static let query = Route(.post, "/v1/query")
        public static let element = Route(.post, "/v1/element")

        public static let launch = Route(.post, "/v1/apps/:bundle/launch")
        public static let terminate = Route(.post, "/v1/apps/:bundle/terminate")
        public static let activate = Route(.post, "/v1/apps/:bundle/activate")
        public static let state = Route(.get, "/v1/apps/:bundle/state")
        public static let waitForState = Route(.post, "/v1/apps/:bundle/wait-for-state")
        public static let home = Route(.post, "/v1/home")

        public static let tap = Route(.post, "/v1/tap")
        public static let type = Route(.post, "/v1/type")
        public static let key = Route(.post, "/v1/key")
        public static let swipe = Route(.post, "/v1/swipe")
        public static let shake = Route(.post, "/v1/shake")
        public static let keyCommand = Route(.post, "/v1/key-command")
        public static let overrideStatusBar = Route(.put, "/v1/status-bar")
        public static let clearStatusBar = Route(.delete, "/v1/status-bar")
        public static let screenshot = Route(.get, "/v1/screenshot")

        public static let appearance = Route(.post, "/v1/appearance")
        public static let wait = Route(.post, "/v1/wait")
        public static let waitFor = Route(.post, "/v1/wait-for")

        /// The POSTs that only read the screen (everything else but a GET acts on the device).
        public static let reads: [Route] = [query, element]

        public static let all: [Route] = [
            device, tree, query, element, launch, terminate, activate, state, waitForState, home,
            tap, type, key, swipe, shake, keyCommand, overrideStatusBar, clearStatusBar, screenshot, wait, waitFor,
            appearance,
        ]
    }
}
