import Foundation
import Hummingbird
import ShowreelWire

extension Request {
    /// The largest body either API reads (a JSON body, a legacy form).
    package static let bodyLimit = 1 << 20

    /// Reads the body as `type`, strictly (an unknown field is refused, see `StrictJSON`). Every
    /// failure is a 400 whose sentence starts with the route and names what was wrong: the body
    /// too large, not JSON, a field missing, mistyped or misspelt. `example`, when given, ends
    /// the sentence with a body to send instead; `empty` stands for a body left out.
    package func decodeJSON<Body: Decodable>(
        _ type: Body.Type, example: String? = nil, empty: Body? = nil, limit: Int = Self.bodyLimit
    ) async throws(APIError) -> Body {
        let data: Data
        do {
            data = Data((try await body.collect(upTo: limit)).readableBytesView)
        } catch {
            throw badBody("the body is larger than \(limit >> 20) MiB or could not be read", example: example)
        }
        if data.isEmpty, let empty { return empty }
        do {
            return try StrictJSON.decode(Body.self, from: data)
        } catch let error as AutomationInputError {
            throw badBody("\(error)", example: example)
        } catch {
            throw badBody("invalid JSON body: \(describeDecodingError(error))", example: example)
        }
    }

    /// A 400 about this request's body: "<METHOD> <path>: <problem>".
    package func badBody(_ problem: String, example: String? = nil) -> APIError {
        var sentence = "\(method.rawValue) \(uri.path): \(problem)"
        if let example {
            sentence +=
                sentence.hasSuffix(".") || sentence.hasSuffix("?") ? " Send a body like \(example)." : "; send a body like \(example)"
        }
        return APIError(.badRequest, sentence)
    }
}
