import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ShowreelDevice
import ShowreelHTTP

/// Answers every request (it is the router's last middleware): strips `/wd/hub`, finds the
/// route, finds the session (before reading the body: a request to no session costs nothing),
/// reads the body within the route's limit, runs a session's commands one at a time in its
/// queue (a command whose client hangs up is cancelled, so the next starts at once), and renders
/// `{"value": ...}` or a W3C error.
struct WebDriverResponder: RouterMiddleware {
    typealias Context = ConnectionRequestContext
    let server: WebDriverServer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return Self.render(["value": try await answer(request, channel: context.channel)], status: .ok)
        } catch let error as WebDriverError {
            return Self.render(error.body, status: error.status)
        } catch {
            return Self.render(WebDriverError(.unknownError, "\(error)").body, status: .internalServerError)
        }
    }

    private func answer(_ request: Request, channel: any Channel) async throws -> JSONValue {
        var path = request.uri.path.split(separator: "/").map(String.init)
        if path.starts(with: ["wd", "hub"]) { path.removeFirst(2) }
        let method = request.method.rawValue
        let candidates = WebDriverRoute.all.compactMap { route in route.match(path).map { (route, $0) } }
        guard !candidates.isEmpty else {
            await Self.discardBody(of: request)
            throw WebDriverError(
                .unknownCommand,
                "\(method) /\(path.joined(separator: "/")) is no command of this server (Appium's W3C WebDriver endpoints, at / and /wd/hub)."
            )
        }
        guard let (route, parameters) = candidates.first(where: { $0.0.method.rawValue == method }) else {
            await Self.discardBody(of: request)
            let allowed = Set(candidates.map(\.0.method.rawValue)).sorted().joined(separator: ", ")
            throw WebDriverError(.unknownMethod, "/\(path.joined(separator: "/")) takes \(allowed), not \(method).")
        }
        // The session first: a body sent to a session that does not exist is never kept or parsed.
        var session: WebDriverSession?
        if route.needsSession {
            do throws(WebDriverError) { session = try await server.sessions.session(parameters["sid"] ?? "") } catch {
                await Self.discardBody(of: request)
                throw error
            }
        }
        let data = try await Self.body(of: request, limit: route.bodyLimit)
        let body: JSONValue
        do { body = try JSONValue.parse(data) } catch {
            throw WebDriverError.invalidArgument("The body is not JSON: \(String(decoding: data.prefix(80), as: UTF8.self)).")
        }
        guard body.object != nil || method != "POST" else {
            throw WebDriverError.invalidArgument("The body must be a JSON object, got \(body.kind).")
        }
        let call = WebDriverRoute.Call(body: body, parameters: parameters, session: session, server: server)
        guard let session else { return try await route.handler(call) }
        let handler = route.handler
        await session.commandStarted()
        defer {
            Task {
                await session.commandEnded()
                await session.enforceRecordingLimit()
            }
        }
        // Ending the session is not cut short by a client that stops waiting for it.
        guard route.isCancellable else { return try await session.queue.run { try await handler(call) } }
        return try await untilHangUp(channel) {
            try await session.queue.run { try await handler(call) }
        } onHangUp: {
            .string("The client hung up; the command was cancelled.")
        }
    }

    /// Bytes of a body read and thrown away past its route's limit, so a client still sending
    /// gets the answer (a server that stops reading leaves it blocked in its send); past this the
    /// server stops reading.
    static let discardLimit = 256 << 20

    /// The request's body when it is at most `limit` bytes; past that, what follows is read and
    /// thrown away (see `discardLimit`), nothing kept, and the answer is 413.
    static func body(of request: Request, limit: Int) async throws(WebDriverError) -> Data {
        var kept = ByteBuffer()
        var total = 0
        do {
            for try await chunk in request.body {
                total += chunk.readableBytes
                if total <= limit {
                    kept.writeImmutableBuffer(chunk)
                } else if total > discardLimit {
                    break
                }
            }
        } catch {
            throw .invalidArgument("The body could not be read: \(error).")
        }
        guard total <= limit else {
            throw .bodyTooLarge(request.headers[.contentLength].flatMap { Int($0) } ?? total, limit: limit)
        }
        return Data(kept.readableBytesView)
    }

    /// Reads a body that will not be used (a request refused before its body), keeping none of it.
    static func discardBody(of request: Request) async {
        _ = try? await body(of: request, limit: 0)
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
