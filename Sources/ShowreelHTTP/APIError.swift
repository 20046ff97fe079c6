import HTTPTypes
import Hummingbird
import ShowreelWire

/// An error as an HTTP answer: a status and a sentence, rendered as `{"error": "<sentence>"}`.
/// Thrown from a handler it is the response; servers map their domain errors to it in one place.
public struct APIError: HTTPResponseError, CustomStringConvertible, Sendable {
    public var status: HTTPResponse.Status
    public var message: String
    /// Extra headers (`Allow` on a 405).
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    public var description: String { message }

    public var response: Response {
        var response = Response.json(ErrorBody(error: message), status: status)
        for field in headers { response.headers.append(field) }
        return response
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response { response }
}
