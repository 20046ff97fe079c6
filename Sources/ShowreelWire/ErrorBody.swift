import Foundation

/// Every HTTP error of the automation API and the tunnel host: `{"error": "<sentence>"}`, a
/// sentence that says what failed and what to do instead. Servers write it, clients read it.
package struct ErrorBody: Codable, Equatable, Sendable {
    public var error: String
    public init(error: String) { self.error = error }

    /// The sentence of an error answer: its `error`, or the start of the body as text when it
    /// is not this JSON (a proxy's page, another server).
    public static func message(in data: Data, limit: Int = 2000) -> String {
        (try? WireJSON.decoder.decode(ErrorBody.self, from: data).error) ?? String(decoding: data.prefix(limit), as: UTF8.self)
    }
}
