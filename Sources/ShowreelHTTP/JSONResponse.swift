import Foundation
import HTTPTypes
import Hummingbird
import ShowreelWire

extension Response {
    /// A JSON answer, written the one way every API writes JSON (`WireJSON`).
    package static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        json(encoded: ByteBuffer(bytes: WireJSON.encode(value)), status: status)
    }

    /// JSON bytes already written (a large body escaped straight into its buffer).
    package static func json(encoded body: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }
}
