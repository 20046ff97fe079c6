import Foundation

/// One HTTP endpoint as its server registers it and its clients call it: a method and a path
/// template whose `:name` segments are parameters (`/v1/commands/:id/interrupt`). Both sides
/// read the same value, so a path is spelt once.
package struct Route: Hashable, Sendable, CustomStringConvertible {
    package enum Method: String, Hashable, Sendable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case delete = "DELETE"
    }

    package let method: Method
    package let template: String

    package init(_ method: Method, _ template: String) {
        precondition(template.hasPrefix("/"), "a route's path starts with /: \(template)")
        self.method = method
        self.template = template
    }

    /// The names of the `:name` segments, in order.
    package var parameters: [String] {
        template.split(separator: "/").filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) }
    }

    /// The path a client requests: each `:name` segment replaced, in order, by `values`.
    package func path(_ values: String...) -> String { path(values) }

    package func path(_ values: [String]) -> String {
        precondition(values.count == parameters.count, "\(self) takes \(parameters.count) parameters, got \(values.count)")
        var remaining = values[...]
        let segments = template.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix(":") ? remaining.popFirst()! : String(segment)
        }
        return segments.joined(separator: "/")
    }

    /// The template with `{name}` for parameters, as people write it in messages and docs.
    package var readableTemplate: String {
        template.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
    }

    /// Whether a request path fits the template (a parameter matches one non-empty segment).
    package func matches(path: String) -> Bool {
        let pattern = template.split(separator: "/")
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard pattern.count == segments.count else { return false }
        return zip(pattern, segments).allSatisfy { $0.hasPrefix(":") ? !$1.isEmpty : $0 == $1 }
    }

    package var description: String { "\(method.rawValue) \(template)" }
}

extension Route {
    /// The URL a client requests from a server at `base` (which may have a path of its own):
    /// `:name` segments filled with `parameters`, then `query`.
    package func url(relativeTo base: URL, _ parameters: [String] = [], query: [URLQueryItem] = []) -> URL? {
        let relative = String(path(parameters).dropFirst())
        guard var components = URLComponents(url: base.appendingPathComponent(relative), resolvingAgainstBaseURL: false) else { return nil }
        if !query.isEmpty { components.queryItems = query }
        return components.url
    }
}
