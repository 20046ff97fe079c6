import HTTPTypes
import Hummingbird

/// What keeps web pages away from a server on this machine's loopback (the tunnel host, a
/// device's automation API): a browser lets any page POST to `127.0.0.1` and marks the request
/// with `Origin` or `Sec-Fetch-Site`, and a page on a domain that resolves to 127.0.0.1 (DNS
/// rebinding) sends its own name as `Host`. Test runners and command-line clients send neither.
package enum LoopbackGuard {
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!

    /// Why `request` is refused (a 403), or nil. `loopbackOnly` says the server is bound to a
    /// loopback address, where every genuine client names a loopback `Host`; `server` names the
    /// server in the sentence.
    package static func refusal(of request: Request, loopbackOnly: Bool, server: String) -> APIError? {
        if let origin = request.headers[.origin] {
            return APIError(
                .forbidden,
                "requests from web pages are refused (Origin: \(origin)); the \(server) serves test runners and command-line clients, which send no Origin header"
            )
        }
        if let site = request.headers[secFetchSite], site != "none" {
            return APIError(
                .forbidden,
                "requests from web pages are refused (Sec-Fetch-Site: \(site)); the \(server) serves test runners and command-line clients")
        }
        if loopbackOnly, let authority = request.head.authority, !isLoopbackAuthority(authority) {
            return APIError(
                .forbidden,
                "Host '\(authority)' is not a loopback address: the \(server) listens on this machine only and answers to localhost, 127.x.x.x or [::1] (with an optional port) only"
            )
        }
        return nil
    }

    /// `localhost`, a 127.0.0.0/8 dotted quad or `[::1]`, each with an optional port; nothing else
    /// (no `*.localhost`, no `127.evil.example`, no octal or short forms).
    package static func isLoopbackAuthority(_ authority: String) -> Bool {
        let text = Substring(authority.lowercased())
        let host: Substring
        var port: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return false }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return false }
                port = rest.dropFirst()
            }
            guard host == "::1" else { return false }
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return false }
            host = parts[0]
            port = parts.count == 2 ? parts[1] : nil
            guard host == "localhost" || isLoopbackIPv4(host) else { return false }
        }
        guard let port else { return true }
        return (1...5).contains(port.count) && port.allSatisfy(\.isASCIIDigit) && Int(port)! <= 65535
    }

    /// Whether a bind address reaches this machine only: `localhost`, `::1` or 127.x.x.x.
    package static func isLoopbackAddress(_ bindAddress: String) -> Bool {
        let address = bindAddress.lowercased()
        return address == "localhost" || address == "::1" || address == "[::1]" || isLoopbackIPv4(Substring(address))
    }

    /// A dotted quad in 127.0.0.0/8, written plainly (four decimal parts, no leading zeros).
    package static func isLoopbackIPv4(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in
            (1...3).contains(part.count) && part.allSatisfy(\.isASCIIDigit) && (part == "0" || !part.hasPrefix("0")) && Int(part)! <= 255
        }
    }

    /// `LoopbackGuard` as a middleware, for a server with no guard of its own.
    package struct Middleware<Context: RequestContext>: RouterMiddleware {
        let loopbackOnly: Bool
        let server: String

        package init(loopbackOnly: Bool, server: String) {
            self.loopbackOnly = loopbackOnly
            self.server = server
        }

        public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
        {
            if let refusal = LoopbackGuard.refusal(of: request, loopbackOnly: loopbackOnly, server: server) { return refusal.response }
            return try await next(request, context)
        }
    }
}

extension Character {
    /// 0-9 only (`isNumber` alone also takes other scripts' digits and fractions).
    package var isASCIIDigit: Bool { isASCII && isNumber }
}
