import Foundation
import HTTPTypes
import Hummingbird
import ShowreelHTTP
import Synchronization

/// Who may use the studio: the page it served, in a browser on this machine. The page drives a
/// device and writes a file, so every request needs the run's token (in the URL once, then a
/// cookie, as Jupyter does), `Host` must be a loopback name with the studio's own port (a page
/// on a rebinding domain sends its own name), and `Origin` or `Sec-Fetch-Site`, when sent, must
/// say the request comes from the studio's own page.
struct StudioGuard<Context: RequestContext>: RouterMiddleware {
    let token: String
    /// The port the server bound (known once it listens).
    let port: BoundPort

    static var cookieName: String { "showreel-studio" }
    static var headerName: HTTPField.Name { HTTPField.Name("X-Showreel-Token")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let refusal = refusal(of: request) { return refusal.response }
        let offered = request.uri.queryParameters["token"].map(String.init)
        let presented = offered ?? request.cookies[Self.cookieName]?.value ?? request.headers[Self.headerName]
        guard let presented else {
            return APIError(.unauthorized, "the studio needs its token: open the URL `showreel studio` printed (it ends in ?token=...)")
                .response
        }
        guard Self.same(presented, token) else {
            return APIError(.forbidden, "the token is not this studio's: open the URL `showreel studio` printed").response
        }
        if offered != nil, request.method == .get, request.uri.path == "/" {
            // The token moves from the address bar to a cookie only this origin sends.
            var response = Response(status: .seeOther)
            response.headers[.location] = "/"
            response.headers[.setCookie] = "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"
            return response
        }
        return try await next(request, context)
    }

    /// Why a request is refused before its token is looked at (403), or nil.
    func refusal(of request: Request) -> APIError? {
        let authority = request.head.authority ?? ""
        guard LoopbackGuard.isLoopbackAuthority(authority), let bound = port.value,
            authority.split(separator: ":").last.flatMap({ Int($0) }) == bound
        else {
            return APIError(
                .forbidden, "Host '\(authority)' is refused: the studio answers to a loopback address with its own port only")
        }
        if let origin = request.headers[.origin], origin != "http://\(authority)" {
            return APIError(.forbidden, "requests from other pages are refused (Origin: \(origin)); only the studio's own page may use it")
        }
        if let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!], site != "same-origin", site != "none" {
            return APIError(.forbidden, "requests from other sites are refused (Sec-Fetch-Site: \(site))")
        }
        return nil
    }

    /// Compares in time that does not depend on where the texts differ.
    static func same(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8), b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// A fresh token for one run: 128 random bits in hex.
    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%08x", generator.next() as UInt32) }.joined()
    }
}
