import HTTPTypes
import Hummingbird
import ShowreelWire

/// An error as an HTTP answer: a status and a sentence, rendered as `{"error": "<sentence>"}`.
/// Thrown from a handler it is the response; servers map their domain errors to it in one place.
package struct APIError: HTTPResponseError, CustomStringConvertible, Sendable {
    package var status: HTTPResponse.Status
    package var message: String
    /// Extra headers (`Allow` on a 405).
    package var headers: HTTPFields

    package init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    package var description: String { message }

    package var response: Response {
        var response = Response.json(ErrorBody(error: message), status: status)
        for field in headers { response.headers.append(field) }
        return response
    }

    package func response(from request: Request, context: some RequestContext) throws -> Response { response }
}
