import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession the clients send a request through: one per timeout, made once.
///
/// On Linux, URLSession bounds a request by its session's `timeoutIntervalForRequest` (60 s
/// by default) whatever the request's own `timeoutInterval` says, so a client's timeout must be
/// its session's: a device call that may wait ten minutes, a host client's `requestTimeout`.
/// Sessions are kept, not made per request: tearing one down races its sockets' dispatch sources.
enum ClientSession {
    private static let sessions = Mutex<[TimeInterval: URLSession]>([:])

    /// Sends `request`, bounded by its `timeoutInterval`.
    static func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await session(timeout: request.timeoutInterval).data(for: request)
    }

    private static func session(timeout: TimeInterval) -> URLSession {
        sessions.withLock { sessions in
            if let session = sessions[timeout] { return session }
            let configuration = URLSessionConfiguration.default
            configuration.timeoutIntervalForRequest = timeout
            let session = URLSession(configuration: configuration)
            sessions[timeout] = session
            return session
        }
    }
}
