import Foundation

/// How the HTTP APIs write and read JSON: sorted keys (stable bytes, readable diffs), slashes
/// left alone (paths stay as typed), dates as ISO 8601 text.
package enum WireJSON {
    package static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    package static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    /// The value's JSON; a value that cannot be encoded (a non-finite number) becomes an error body.
    package static func encode(_ value: some Encodable) -> Data {
        (try? encoder.encode(value)) ?? Data(#"{"error":"could not encode the response"}"#.utf8)
    }
}
