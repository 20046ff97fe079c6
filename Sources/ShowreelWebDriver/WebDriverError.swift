import HTTPTypes

/// A W3C WebDriver error: its code (the spec's "error" string), the HTTP status the spec gives
/// it, and a sentence that says what went wrong and what the screen had instead.
package struct WebDriverError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Code: String, Sendable, CaseIterable {
        case invalidSessionID = "invalid session id"
        case noSuchElement = "no such element"
        case noSuchAlert = "no such alert"
        case staleElementReference = "stale element reference"
        case invalidSelector = "invalid selector"
        case invalidArgument = "invalid argument"
        case unknownCommand = "unknown command"
        case unknownMethod = "unknown method"
        case sessionNotCreated = "session not created"
        case elementNotInteractable = "element not interactable"
        case invalidElementState = "invalid element state"
        case unsupportedOperation = "unsupported operation"
        case javascriptError = "javascript error"
        case timeout = "timeout"
        case moveTargetOutOfBounds = "move target out of bounds"
        case unknownError = "unknown error"

        /// The status the spec's error table gives the code.
        package var status: HTTPResponse.Status {
            switch self {
            case .invalidSessionID, .noSuchElement, .noSuchAlert, .staleElementReference, .unknownCommand: .notFound
            case .invalidSelector, .invalidArgument, .elementNotInteractable, .invalidElementState: .badRequest
            case .unknownMethod: .methodNotAllowed
            case .sessionNotCreated, .unsupportedOperation, .javascriptError, .timeout, .moveTargetOutOfBounds, .unknownError:
                .internalServerError
            }
        }
    }

    package var code: Code
    package var message: String
    /// The HTTP status when it is not the code's (413 for a body too large).
    var statusOverride: HTTPResponse.Status?

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The HTTP status the error is answered with.
    package var status: HTTPResponse.Status { statusOverride ?? code.status }

    package var description: String { "\(code.rawValue): \(message)" }

    /// `{"value": {"error": ..., "message": ..., "stacktrace": ""}}`.
    var body: JSONValue {
        ["value": ["error": .string(code.rawValue), "message": .string(message), "stacktrace": ""]]
    }

    static func invalidArgument(_ message: String) -> WebDriverError { WebDriverError(.invalidArgument, message) }

    /// A body of `length` bytes, larger than its route takes: 413.
    static func bodyTooLarge(_ length: Int, limit: Int) -> WebDriverError {
        var error = WebDriverError(
            .invalidArgument,
            "The body is \(length) bytes; this command takes at most \(limit) bytes (\(limit >> 10) KiB). Send a smaller body.")
        error.statusOverride = .contentTooLarge
        return error
    }
    static func invalidSelector(_ message: String) -> WebDriverError { WebDriverError(.invalidSelector, message) }
    static func unsupported(_ message: String) -> WebDriverError { WebDriverError(.unsupportedOperation, message) }
}
