import HTTPTypes
import Hummingbird
import ShowreelHTTP

/// Who may talk to the server. By default, as every Showreel server on loopback: no web pages
/// (`Origin`, `Sec-Fetch-Site`) and loopback `Host` names only, so a page in a browser cannot
/// drive a device. With `--allow-cors` (Appium's flag, for Appium Inspector, which runs as a web
/// page) requests from pages are answered with CORS headers, preflights included; the `Host`
/// rule stays.
struct WebDriverGuard<Context: RequestContext>: RouterMiddleware {
    let allowsCORS: Bool
    let loopbackOnly: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if loopbackOnly, let authority = request.head.authority, !LoopbackGuard.isLoopbackAuthority(authority) {
            return refusal(
                "Host '\(authority)' is not a loopback address: the WebDriver server listens on this machine only and answers to localhost, 127.x.x.x or [::1]."
            )
        }
        let origin = request.headers[.origin]
        guard allowsCORS else {
            if origin != nil || (request.headers[HTTPField.Name("Sec-Fetch-Site")!].map { $0 != "none" } ?? false) {
                return refusal(
                    "Requests from web pages are refused (Origin: \(origin ?? "none")), so a page cannot drive a device. For Appium Inspector, start the server with --allow-cors, as Appium."
                )
            }
            return try await next(request, context)
        }
        if request.method == .options {
            var response = Response(status: .noContent)
            Self.addCORS(to: &response, origin: origin)
            return response
        }
        var response = try await next(request, context)
        Self.addCORS(to: &response, origin: origin)
        return response
    }

    private func refusal(_ message: String) -> Response {
        WebDriverResponder.render(WebDriverError(.unknownError, message).body, status: .forbidden)
    }

    private static func addCORS(to response: inout Response, origin: String?) {
        response.headers[.accessControlAllowOrigin] = origin ?? "*"
        response.headers[.accessControlAllowMethods] = "GET, POST, DELETE, OPTIONS"
        response.headers[.accessControlAllowHeaders] = "Content-Type, Authorization, Accept"
        response.headers[HTTPField.Name("Vary")!] = "Origin"
    }
}
