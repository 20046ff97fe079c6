import ShowreelWire

/// What went wrong when driving a device, worded so a test log explains itself.
package enum DeviceError: Error, CustomStringConvertible, Equatable, Sendable {
    case unknownApp(String, installed: [String])
    case appNotRunning
    case appCrashed(bundleIdentifier: String, message: String)
    case elementNotFound(query: String, nearby: [String])
    case elementNotHittable(query: String)
    case invalidRequest(String)
    case shutDown

    package var description: String {
        switch self {
        case let .unknownApp(bundle, installed):
            let hint = Spelling.hint(for: bundle, in: installed)
            return
                "No app with bundle identifier '\(bundle)' is installed\(hint.isEmpty ? "." : hint) Installed: \(installed.joined(separator: ", "))."
        case .appNotRunning:
            return "No app is running. Launch one first."
        case let .appCrashed(bundle, message):
            return "\(bundle) stopped with a fatal error: \(message)"
        case let .elementNotFound(query, nearby):
            let seen = nearby.isEmpty ? "nothing" : nearby.map { "'\($0)'" }.joined(separator: ", ")
            return "No element matches \(query). The screen shows: \(seen)."
        case let .elementNotHittable(query):
            return "The element \(query) exists but is covered or off screen, so it cannot be tapped."
        case let .invalidRequest(what):
            return what
        case .shutDown:
            return "The device is shut down."
        }
    }
}

/// The one place that decides which HTTP status each device error answers as.
extension DeviceError: HTTPStatusError {
    package var httpStatus: Int {
        switch self {
        case .elementNotFound, .unknownApp: 404
        case .elementNotHittable, .appNotRunning: 409
        case .appCrashed: 422
        case .invalidRequest: 400
        case .shutDown: 503
        }
    }
}
