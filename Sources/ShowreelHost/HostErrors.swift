import HTTPTypes
import ShowreelHTTP

/// The one place the host decides which HTTP status a command-table error is.
extension CommandTableError {
    var apiError: APIError {
        let status: HTTPResponse.Status =
            switch kind {
            case .invalidArguments, .failedToStart: .badRequest
            case .programNotAllowed: .forbidden
            case .unknownCommand: .notFound
            case .shuttingDown: .serviceUnavailable
            }
        return APIError(status, message)
    }
}
