import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ShowreelHTTP
import ShowreelWire

/// Decides who may talk to the host, before any route runs, and turns errors into JSON:
/// clients outside the address allowlist, web pages (Origin, Sec-Fetch-Site), DNS rebinding
/// (a Host that is not a loopback literal on a loopback bind), and, when a token is set, every
/// request but `GET /v1/health` without it. A known path with the wrong method is 405 with `Allow`.
struct GuardMiddleware: RouterMiddleware {
    typealias Context = HostRequestContext

    let configuration: TunnelHostConfiguration
    let logger: Logger
    private let allowedClients: [AddressRange]?

    static let tokenHeader = HTTPField.Name("X-Showreel-Token")!
    /// The form field legacy clients may carry the token in. Not `token`: the SBTUITestTunnelHost
    /// client already sends a `token` field holding a fixed validation string.
    static let tokenFormField = "showreel_token"

    init(configuration: TunnelHostConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        allowedClients = configuration.allowedClients.map { $0.compactMap(AddressRange.init(parsing:)) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            var request = request
            try await check(&request, context: context)
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            // Hummingbird's: no route has this method and path.
            return notFoundOrWrongMethod(request)
        } catch {
            let refusal = Self.apiError(for: error)
            if refusal.status == .internalServerError {
                logger.error(
                    "request failed", metadata: ["method": "\(request.method)", "path": "\(request.uri.path)", "error": "\(error)"])
            } else if refusal.status != .notFound {
                logger.notice(
                    "request refused",
                    metadata: [
                        "method": "\(request.method)", "path": "\(request.uri.path)",
                        "client": "\(context.remoteAddress?.ipAddress ?? "-")", "status": "\(refusal.status.code)",
                        "error": "\(refusal.message)",
                    ])
            }
            return refusal.response
        }
    }

    /// Every error a route or this guard throws, as the answer the client gets.
    static func apiError(for error: any Error) -> APIError {
        switch error {
        case let error as APIError: error
        case let error as CommandTableError: error.apiError
        case let error as HTTPError: APIError(error.status, error.body ?? error.status.reasonPhrase)
        default: APIError(.internalServerError, "internal error: \(error)")
        }
    }

    private func notFoundOrWrongMethod(_ request: Request) -> Response {
        let path = request.uri.path
        guard let methods = Endpoint.allowedMethods(for: path), !methods.contains(request.method) else {
            return APIError(.notFound, "no endpoint \(request.method) \(path): \(Endpoint.summary)").response
        }
        let allowed = methods.map(\.rawValue).joined(separator: ", ")
        logger.notice("request refused", metadata: ["method": "\(request.method)", "path": "\(path)", "status": "405"])
        return APIError(.methodNotAllowed, "\(path) does not answer \(request.method); use \(allowed)", headers: [.allow: allowed]).response
    }

    private func check(_ request: inout Request, context: Context) async throws {
        if let allowedClients {
            let address = context.remoteAddress
            guard let address, allowedClients.contains(where: { $0.contains(address) }) else {
                throw APIError(
                    .forbidden,
                    "client \(address?.ipAddress ?? "with no address") is not allowed: this host only answers \(configuration.allowedClients?.joined(separator: ", ") ?? ""); restart it with another --allow-from to let it in"
                )
            }
        }
        if let refusal = LoopbackGuard.refusal(of: request, loopbackOnly: configuration.isLoopbackOnly, server: "tunnel host") {
            throw refusal
        }
        if let token = configuration.token, request.uri.path != HostAPI.Routes.V1.health.template {
            try await checkToken(token, &request)
        }
    }

    private func checkToken(_ token: String, _ request: inout Request) async throws {
        var presented: String?
        if let authorization = request.headers[.authorization], authorization.lowercased().hasPrefix("bearer ") {
            presented = String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        } else {
            presented = request.headers[Self.tokenHeader]
        }
        if presented == nil, Endpoint.legacyPaths.contains(request.uri.path) {
            // Collected here and kept on the request, so the route reads the same body.
            let body = try? await request.collectBody(upTo: Request.bodyLimit)
            presented = body.flatMap { LegacyForm(body: Array($0.readableBytesView))[Self.tokenFormField] }
        }
        guard let presented else {
            throw APIError(
                .unauthorized,
                "this host requires a token: send 'Authorization: Bearer <token>' or 'X-Showreel-Token: <token>' (legacy clients may instead add the form field \(Self.tokenFormField)=<token>) with the token given to 'showreel host --token' (or SHOWREEL_HOST_TOKEN)"
            )
        }
        guard Self.constantTimeEquals(presented, token) else {
            throw APIError(.unauthorized, "wrong token: use the token given to 'showreel host --token' (or SHOWREEL_HOST_TOKEN)")
        }
    }

    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return difference == 0
    }
}
