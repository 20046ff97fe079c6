import Foundation
import ShowreelGraphics
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP/1.1 request and its whole answer, over a connection of its own, on a thread of its
/// own: how the clients talk to a device's automation API, a tunnel host and the WebDriver server.
///
/// Not URLSession: on Linux it drives curl through libdispatch sources, and in a busy process a
/// request, most often one on a reused connection, can wait for a socket event that never comes,
/// then fail after the session's 60 s whatever timeout it asked for. Here every call is a plain
/// blocking socket call with `poll` bounds, off Swift's cooperative pool, so a request is
/// answered, or fails with a sentence, within its own timeout. Plain `http://` only: the servers
/// are ours, on this machine or the test network, and none speaks TLS.
package struct HTTPExchange: Sendable {
    package var method: String
    package var url: URL
    /// Sent as given; `Host`, `Content-Length` and `Connection` are added unless given.
    package var headers: [(name: String, value: String)]
    package var body: Data?
    /// How long to wait for the connection, for sending, and for each part of the answer.
    package var timeout: Duration

    package init(
        _ method: String, _ url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil, timeout: Duration = .seconds(60)
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// The answer: its status, its header fields (names in lower case) and its whole body.
    package struct Response: Sendable {
        package var status: Int
        package var headers: [String: String]
        package var body: Data

        package func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    /// Why there is no answer, in the words a person can act on.
    package enum Failure: Error, CustomStringConvertible, Equatable, Sendable {
        case unsupportedURL(String)
        case hostNotFound(String)
        case refused
        case timedOut
        case connectionLost
        case malformedAnswer(String)
        case cancelled

        package var description: String {
            switch self {
            case .unsupportedURL(let url): return "\(url) is not an http:// URL with a host"
            case .hostNotFound(let host): return "the host name was not found (\(host))"
            case .refused: return "the connection was refused (nothing listens there)"
            case .timedOut: return "the request timed out"
            case .connectionLost: return "the connection was lost"
            case .malformedAnswer(let what): return "the server's answer was not understood (\(what))"
            case .cancelled: return "the request was cancelled"
            }
        }
    }

    /// Sends the request and reads the answer on a thread of its own; cancelling the task
    /// ends the exchange at once.
    package func send() async throws -> Response {
        let socket = ExchangeSocket()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Response, any Error>) in
                let exchange = self
                Thread.detachNewThread {
                    continuation.resume(with: Result { try exchange.perform(on: socket) })
                }
            }
        } onCancel: {
            socket.cancel()
        }
    }

    /// The whole exchange with blocking calls, for callers already off the pool.
    package func sendBlocking() throws -> Response {
        try perform(on: ExchangeSocket())
    }

    private func perform(on socket: ExchangeSocket) throws -> Response {
        defer { socket.close() }
        let target = try Target(url)
        let wait = Int32(clamping: max(timeout.nanoseconds / 1_000_000, 1))
        try socket.connect(to: target, waitMilliseconds: wait)
        var reader = AnswerReader(socket: socket, waitMilliseconds: wait, expectsBody: method != "HEAD")
        do {
            try socket.sendAll(requestBytes(for: target), waitMilliseconds: wait)
        } catch HTTPExchange.Failure.connectionLost {
            // A server may answer before it has read all of a body it refuses (413), then close:
            // that answer is the one to give, when it came. (Any other failure to send ends here.)
            guard let early = try? reader.read() else { throw HTTPExchange.Failure.connectionLost }
            return early
        }
        return try reader.read()
    }

    private func requestBytes(for target: Target) -> [UInt8] {
        var head = "\(method) \(target.pathAndQuery) HTTP/1.1\r\n"
        let given = Set(headers.map { $0.name.lowercased() })
        if !given.contains("host") { head += "Host: \(target.hostHeader)\r\n" }
        if !given.contains("connection") { head += "Connection: close\r\n" }
        if !given.contains("content-length") { head += "Content-Length: \(body?.count ?? 0)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if let body { bytes += body }
        return bytes
    }
}

/// Where a URL points: the address to resolve and the request line's target.
private struct Target {
    let host: String
    let port: Int
    let pathAndQuery: String

    init(_ url: URL) throws {
        guard url.scheme?.lowercased() == "http", let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            var host = components.host, !host.isEmpty
        else { throw HTTPExchange.Failure.unsupportedURL(url.absoluteString) }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.host = host
        port = components.port ?? 80
        var path = components.percentEncodedPath
        if path.isEmpty { path = "/" }
        if let query = components.percentEncodedQuery { path += "?" + query }
        pathAndQuery = path
    }

    var hostHeader: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// The exchange's socket, which another thread may cancel: a cancel shuts the socket down so a
/// blocked `poll` wakes, and marks it so the exchange ends as cancelled. The lock keeps a
/// cancel from reaching a descriptor number after it was closed and given to someone else.
private final class ExchangeSocket: Sendable {
    private struct State {
        var descriptor: Int32 = -1
        var cancelled = false
    }
    private let state = Mutex(State())

    var descriptor: Int32 { state.withLock { $0.descriptor } }

    func cancel() {
        state.withLock { state in
            state.cancelled = true
            if state.descriptor >= 0 { _ = shutdown(state.descriptor, Int32(SHUT_RDWR)) }
        }
    }

    func throwIfCancelled() throws {
        if state.withLock({ $0.cancelled }) { throw HTTPExchange.Failure.cancelled }
    }

    func close() {
        state.withLock { state in
            if state.descriptor >= 0 { _ = systemClose(state.descriptor) }
            state.descriptor = -1
        }
    }

    /// Connects to the first of the host's addresses that accepts.
    func connect(to target: Target, waitMilliseconds: Int32) throws {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Self.streamType
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(target.host, String(target.port), &hints, &found)
        guard resolved == 0, let first = found else { throw HTTPExchange.Failure.hostNotFound(target.host) }
        defer { freeaddrinfo(first) }
        var failure: any Error = HTTPExchange.Failure.refused
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            next = address.pointee.ai_next
            do {
                try attempt(address.pointee, waitMilliseconds: waitMilliseconds)
                return
            } catch let error where error as? HTTPExchange.Failure == .refused || error is WireError {
                // Refused, or the system's own failure: the next address may do.
                close()
                failure = error
            }
        }
        throw failure
    }

    private func attempt(_ address: addrinfo, waitMilliseconds: Int32) throws {
        let descriptor = socket(address.ai_family, Self.streamType | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw WireError.system("socket", errno) }
        let cancelled = state.withLock { state -> Bool in
            state.descriptor = descriptor
            return state.cancelled
        }
        if cancelled { throw HTTPExchange.Failure.cancelled }
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if systemConnect(descriptor, address.ai_addr, address.ai_addrlen) == 0 { return }
        guard errno == EINPROGRESS || errno == EINTR else { throw Self.connectFailure(errno) }
        try waitUntilReady(Int16(POLLOUT), waitMilliseconds: waitMilliseconds)
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length)
        if code != 0 { throw Self.connectFailure(code) }
    }

    private static func connectFailure(_ code: Int32) -> any Error {
        switch code {
        case ECONNREFUSED: return HTTPExchange.Failure.refused
        case ETIMEDOUT: return HTTPExchange.Failure.timedOut
        default: return WireError.system("connect", code)
        }
    }

    /// Waits until the socket is ready for `events`; a cancel or the bound ends the wait.
    func waitUntilReady(_ events: Int16, waitMilliseconds: Int32) throws {
        while true {
            try throwIfCancelled()
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, waitMilliseconds)
            try throwIfCancelled()
            if ready > 0 { return }
            if ready == 0 { throw HTTPExchange.Failure.timedOut }
            if errno != EINTR { throw WireError.system("poll", errno) }
        }
    }

    func sendAll(_ bytes: [UInt8], waitMilliseconds: Int32) throws {
        var offset = 0
        while offset < bytes.count {
            try waitUntilReady(Int16(POLLOUT), waitMilliseconds: waitMilliseconds)
            let sent = bytes.withUnsafeBytes { systemSend(descriptor, $0.baseAddress! + offset, bytes.count - offset, Self.noSignal) }
            if sent >= 0 {
                offset += sent
            } else if errno == EPIPE || errno == ECONNRESET {
                throw HTTPExchange.Failure.connectionLost
            } else if errno != EAGAIN && errno != EINTR {
                throw WireError.system("send", errno)
            }
        }
    }

    /// Waits for the server's next bytes and reads them into `buffer`: how many (0 once it
    /// closed the connection).
    func receive(into buffer: inout [UInt8], waitMilliseconds: Int32) throws -> Int {
        while true {
            try waitUntilReady(Int16(POLLIN), waitMilliseconds: waitMilliseconds)
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress!, $0.count, 0) }
            if count >= 0 { return count }
            if errno == ECONNRESET { throw HTTPExchange.Failure.connectionLost }
            if errno != EAGAIN && errno != EINTR { throw WireError.system("recv", errno) }
        }
    }

    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
    private static let streamType = SOCK_STREAM
    private static let noSignal: Int32 = 0
    #endif
}

// The socket calls by their system names, clear of this file's methods of the same names.
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func systemConnect(_ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}
private func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(descriptor, bytes, count, flags)
}

/// Reads one HTTP/1.1 answer: its head, then a body framed by Content-Length, by chunks, or by
/// the end of the connection. What arrived is kept whole and read from a position, so a body
/// that came with the head is not moved for every header line.
private struct AnswerReader {
    let socket: ExchangeSocket
    let waitMilliseconds: Int32
    let expectsBody: Bool
    private var buffered: [UInt8] = []
    private var position = 0
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    private var closed = false

    init(socket: ExchangeSocket, waitMilliseconds: Int32, expectsBody: Bool) {
        self.socket = socket
        self.waitMilliseconds = waitMilliseconds
        self.expectsBody = expectsBody
    }

    mutating func read() throws -> HTTPExchange.Response {
        var (status, headers) = try readHead()
        while (100..<200).contains(status) { (status, headers) = try readHead() }  // 100 Continue and the like
        guard expectsBody, status != 204, status != 304 else { return .init(status: status, headers: headers, body: Data()) }
        let body: [UInt8]
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            body = try readChunks()
        } else if let length = headers["content-length"] {
            guard let count = Int(length.trimmingCharacters(in: .whitespaces)), count >= 0 else {
                throw HTTPExchange.Failure.malformedAnswer("Content-Length \(length)")
            }
            body = try take(count)
        } else {
            while try fill() {}
            body = try take(buffered.count - position)
        }
        return .init(status: status, headers: headers, body: Data(body))
    }

    /// Reads more into the buffer; false once the server closed the connection.
    private mutating func fill() throws -> Bool {
        guard !closed else { return false }
        let count = try socket.receive(into: &scratch, waitMilliseconds: waitMilliseconds)
        if count == 0 { closed = true }
        buffered += scratch[..<count]
        return count > 0
    }

    private mutating func take(_ count: Int) throws -> [UInt8] {
        while buffered.count - position < count {
            guard try fill() else { throw HTTPExchange.Failure.connectionLost }
        }
        defer { position += count }
        return Array(buffered[position..<(position + count)])
    }

    /// One line, without its CRLF.
    private mutating func line() throws -> String {
        var searched = position
        while true {
            if let end = Self.lineEnd(in: buffered, from: searched) {
                defer { position = end + 2 }
                return String(decoding: buffered[position..<end], as: UTF8.self)
            }
            searched = max(position, buffered.count - 1)
            guard buffered.count - position < 1 << 20 else { throw HTTPExchange.Failure.malformedAnswer("a line longer than 1 MiB") }
            guard try fill() else { throw HTTPExchange.Failure.connectionLost }
        }
    }

    private static func lineEnd(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == 13, bytes[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }

    private mutating func readHead() throws -> (Int, [String: String]) {
        let statusLine = try line()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw HTTPExchange.Failure.malformedAnswer("status line '\(statusLine.prefix(80))'")
        }
        var headers: [String: String] = [:]
        while true {
            let field = try line()
            if field.isEmpty { break }
            guard let colon = field.firstIndex(of: ":") else { throw HTTPExchange.Failure.malformedAnswer("header '\(field.prefix(80))'") }
            let name = field[..<colon].lowercased()
            let value = field[field.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        return (status, headers)
    }

    private mutating func readChunks() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let sizeLine = try line()
            let digits = sizeLine.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard let size = Int(digits, radix: 16), size >= 0 else {
                throw HTTPExchange.Failure.malformedAnswer("chunk size '\(sizeLine.prefix(40))'")
            }
            if size == 0 {
                while try !line().isEmpty {}  // trailer fields
                return body
            }
            body += try take(size)
            guard try line().isEmpty else { throw HTTPExchange.Failure.malformedAnswer("a chunk longer than its size") }
        }
    }
}
