import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ShowreelDevice
import ShowreelHTTP

/// Answers every request (it is the router's last middleware): strips `/wd/hub`, finds the
/// route, runs a session's commands one at a time in its queue, and renders `{"value": ...}`
/// or a W3C error.
struct WebDriverResponder<Context: RequestContext>: RouterMiddleware {
    let server: WebDriverServer
    static var bodyLimit: Int { 64 << 20 }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return Self.render(["value": try await answer(request)], status: .ok)
        } catch let error as WebDriverError {
            return Self.render(error.body, status: error.code.status)
        } catch {
            return Self.render(WebDriverError(.unknownError, "\(error)").body, status: .internalServerError)
        }
    }

    private func answer(_ request: Request) async throws -> JSONValue {
        var path = request.uri.path.split(separator: "/").map(String.init)
        if path.starts(with: ["wd", "hub"]) { path.removeFirst(2) }
        let method = request.method.rawValue
        let candidates = WebDriverRoute.all.compactMap { route in route.match(path).map { (route, $0) } }
        guard !candidates.isEmpty else {
            throw WebDriverError(
                .unknownCommand,
                "\(method) /\(path.joined(separator: "/")) is no command of this server (Appium's W3C WebDriver endpoints, at / and /wd/hub)."
            )
        }
        guard let (route, parameters) = candidates.first(where: { $0.0.method.rawValue == method }) else {
            let allowed = Set(candidates.map(\.0.method.rawValue)).sorted().joined(separator: ", ")
            throw WebDriverError(.unknownMethod, "/\(path.joined(separator: "/")) takes \(allowed), not \(method).")
        }
        let data: Data
        do { data = Data((try await request.body.collect(upTo: Self.bodyLimit)).readableBytesView) } catch {
            throw WebDriverError.invalidArgument("The body is larger than \(Self.bodyLimit >> 20) MiB or could not be read.")
        }
        let body: JSONValue
        do { body = try JSONValue.parse(data) } catch {
            throw WebDriverError.invalidArgument("The body is not JSON: \(String(decoding: data.prefix(80), as: UTF8.self)).")
        }
        guard body.object != nil || method != "POST" else {
            throw WebDriverError.invalidArgument("The body must be a JSON object, got \(body.kind).")
        }
        var call = WebDriverRoute.Call(body: body, parameters: parameters, session: nil, server: server)
        guard route.needsSession else { return try await route.handler(call) }
        let session = try await server.sessions.session(call.parameter("sid"))
        call.session = session
        let handler = route.handler
        let sessionCall = call
        await session.commandStarted()
        defer {
            Task {
                await session.commandEnded()
                await session.enforceRecordingLimit()
            }
        }
        return try await session.queue.run { try await handler(sessionCall) }
    }

    static func render(_ value: JSONValue, status: HTTPResponse.Status) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{\"value\":null}".utf8)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.cacheControl] = "no-cache"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
