import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP request and its whole answer, the way every client here talks to devices, hosts
/// and WebDriver servers.
///
/// Through AsyncHTTPClient rather than URLSession: on Linux, URLSession's libcurl sockets are
/// watched by dispatch sources that lose track of a socket whose number a closed one had, and
/// a request on it then waits out its whole timeout (a test process opens and closes thousands
/// of descriptors). Failures come back as `URLError`s, so callers and `ErrorSentence` read them
/// as before.
package enum HTTPExchange {
    /// The largest answer read (a trace with its pictures is the biggest there is).
    static let answerLimit = 1 << 30

    /// One client for the process, never shut down, like AsyncHTTPClient's own shared one, but
    /// a refused connection fails the request at once, as URLSession's does, instead of being
    /// retried until the request's deadline (600 s for a device call): a device that is not
    /// there is an error to report, not one to wait out.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        // Calls to one device queue there, not here: a test may send many at once.
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 64
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// Sends `request` (method, headers, body; its `timeoutInterval` bounds the whole exchange)
    /// and returns the answer's body and head.
    package static func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url else { throw URLError(.badURL) }
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        for (name, value) in request.allHTTPHeaderFields ?? [:] { outgoing.headers.add(name: name, value: value) }
        if let body = request.httpBody { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let timeout = request.timeoutInterval > 0 ? request.timeoutInterval : 60
        do {
            let answer = try await client.execute(outgoing, timeout: .milliseconds(Int64(timeout * 1000)))
            let body = try await answer.body.collect(upTo: answerLimit)
            var fields: [String: String] = [:]
            for (name, value) in answer.headers { fields[name] = fields[name].map { "\($0), \(value)" } ?? value }
            guard let head = HTTPURLResponse(url: url, statusCode: Int(answer.status.code), httpVersion: "HTTP/1.1", headerFields: fields)
            else { throw URLError(.badServerResponse) }
            return (Data(body.readableBytesView), head)
        } catch let error as URLError {
            throw error
        } catch {
            throw urlError(for: error, url: url)
        }
    }

    /// AsyncHTTPClient's and NIO's errors as the `URLError` URLSession gives for the same thing.
    static func urlError(for error: any Error, url: URL) -> URLError {
        let code: URLError.Code
        switch error {
        case let error as HTTPClientError:
            switch error {
            case .deadlineExceeded, .connectTimeout, .readTimeout, .writeTimeout, .getConnectionFromPoolTimeout: code = .timedOut
            case .remoteConnectionClosed: code = .networkConnectionLost
            case .cancelled: code = .cancelled
            case .invalidURL, .emptyHost, .emptyScheme: code = .badURL
            default: code = .badServerResponse
            }
        case is CancellationError: code = .cancelled
        case let error as NIOConnectionError:
            // No address to try means the name did not resolve.
            code = error.connectionErrors.isEmpty ? .cannotFindHost : .cannotConnectToHost
        case let error as IOError where error.errnoCode == ECONNREFUSED: code = .cannotConnectToHost
        case let error as IOError where error.errnoCode == ECONNRESET || error.errnoCode == EPIPE: code = .networkConnectionLost
        case is ChannelError: code = .networkConnectionLost
        default: code = .unknown
        }
        var details: [String: Any] = [NSURLErrorFailingURLErrorKey: url, NSUnderlyingErrorKey: error as NSError]
        // Words for what has no URLError of its own (ErrorSentence shows them).
        if code == .unknown { details[NSLocalizedDescriptionKey] = String(describing: error) }
        return URLError(code, userInfo: details)
    }
}
