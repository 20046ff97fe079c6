/// Every HTTP error of the automation API and the tunnel host: `{"error": "<sentence>"}`, a
/// sentence that says what failed and what to do instead. Servers write it, clients read it.
public struct ErrorBody: Codable, Equatable, Sendable {
    public var error: String
    public init(error: String) { self.error = error }
}
