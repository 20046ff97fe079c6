import HTTPTypes
import Hummingbird
import ShowreelWire

extension HTTPRequest.Method {
    package init(_ method: Route.Method) {
        switch method {
        case .get: self = .get
        case .post: self = .post
        case .put: self = .put
        case .delete: self = .delete
        }
    }
}

extension RouterMethods {
    /// Serves a route the clients call by the same definition.
    @discardableResult
    package func on(_ route: Route, use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator) -> Self {
        on(RouterPath(route.template), method: HTTPRequest.Method(route.method), use: handler)
    }
}
