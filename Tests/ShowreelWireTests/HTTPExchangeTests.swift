import Foundation
import ShowreelTestSupport
import ShowreelWire
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The clients' HTTP/1.1 exchange against a loopback server that answers one request with
/// canned bytes: what goes out, and each way an answer can be framed.
@Suite("HTTP exchange")
struct HTTPExchangeTests {
    /// Accepts one connection on a thread, reads the request (head and Content-Length body),
    /// writes `answer` and closes. Without an answer it never accepts: the kernel takes the
    /// connection and the request, and nothing ever answers.
    final class CannedServer: Sendable {
        let port: Int
        private let fd: Int32
        private let received = Mutex<String?>(nil)

        init(answer: String?) throws {
            (fd, port) = try loopbackListener(backlog: 4)
            if let answer { Thread.detachNewThread { [self] in serve(answer) } }
        }

        /// The request as the server read it.
        var request: String? { received.withLock { $0 } }

        private func serve(_ answer: String) {
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { return }
            defer { close(connection) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let text = String(decoding: bytes, as: UTF8.self)
                if let end = text.range(of: "\r\n\r\n") {
                    let length =
                        text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                        .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                    if text.utf8.count - text[..<end.upperBound].utf8.count >= length { break }
                }
                let count = read(connection, &chunk, chunk.count)
                guard count > 0 else { break }
                bytes += chunk[..<count]
            }
            received.withLock { $0 = String(decoding: bytes, as: UTF8.self) }
            _ = answer.withCString { write(connection, $0, strlen($0)) }
        }

        deinit {
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
    }

    func url(_ server: CannedServer, _ path: String = "/v1/things?name=a%20b&x=1") -> URL {
        URL(string: "http://127.0.0.1:\(server.port)\(path)")!
    }

    @Test("the request goes out whole: its method, target as written, Host, length, headers and body; a Content-Length answer is read")
    func requestAndLengthFramedAnswer() async throws {
        let server = try CannedServer(
            answer: "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"ok\":true}")
        let body = Data(#"{"argv":["true"]}"#.utf8)
        let response = try await HTTPExchange("POST", url(server), headers: [("Authorization", "Bearer t")], body: body).send()
        #expect(response.status == 201)
        #expect(response.header("content-type") == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":true}"#)
        let request = try #require(server.request)
        #expect(request.hasPrefix("POST /v1/things?name=a%20b&x=1 HTTP/1.1\r\n"), "\(request)")
        #expect(request.contains("\r\nHost: 127.0.0.1:\(server.port)\r\n"))
        #expect(request.contains("\r\nContent-Length: \(body.count)\r\n"))
        #expect(request.contains("\r\nAuthorization: Bearer t\r\n"))
        #expect(request.hasSuffix("\r\n\r\n" + #"{"argv":["true"]}"#))
    }

    @Test("a chunked answer (with an extension and a trailer), one framed by the connection's end, and a 100 Continue before it")
    func otherFramings() async throws {
        let chunked = try CannedServer(
            answer: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=x\r\nhello\r\n7\r\n, world\r\n0\r\nTrailer: yes\r\n\r\n")
        let first = try await HTTPExchange("GET", url(chunked)).send()
        #expect(String(decoding: first.body, as: UTF8.self) == "hello, world")

        let closing = try CannedServer(answer: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end")
        let second = try await HTTPExchange("GET", url(closing)).send()
        #expect(String(decoding: second.body, as: UTF8.self) == "until the end")

        let continued = try CannedServer(answer: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 404 Not Found\r\nContent-Length: 4\r\n\r\nnope")
        let third = try await HTTPExchange("GET", url(continued)).send()
        #expect(third.status == 404 && String(decoding: third.body, as: UTF8.self) == "nope")

        let head = try CannedServer(answer: "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")
        let fourth = try await HTTPExchange("HEAD", url(head)).send()
        #expect(fourth.status == 200 && fourth.body.isEmpty)
    }

    @Test("an answer that is not HTTP, or ends before its length, is an error that says so")
    func brokenAnswers() async throws {
        let garbage = try CannedServer(answer: "SSH-2.0-OpenSSH\r\n\r\n")
        await #expect(throws: HTTPExchange.Failure.malformedAnswer("status line 'SSH-2.0-OpenSSH'")) {
            try await HTTPExchange("GET", url(garbage)).send()
        }
        let short = try CannedServer(answer: "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this")
        await #expect(throws: HTTPExchange.Failure.connectionLost) { try await HTTPExchange("GET", url(short)).send() }
        await #expect(throws: HTTPExchange.Failure.unsupportedURL("https://example.com/")) {
            try await HTTPExchange("GET", URL(string: "https://example.com/")!).send()
        }
    }

    @Test("a server that never answers: a 1 s timeout ends the request in about a second, not a session's 60 s")
    func ownTimeout() async throws {
        let silent = try CannedServer(answer: nil)
        let request = HTTPExchange("GET", url(silent), timeout: .seconds(1))
        // Timed on the exchange's own thread: what the pool is doing meanwhile does not count.
        let (elapsed, failure) = try await offPool { () -> (Duration, HTTPExchange.Failure?) in
            let start = ContinuousClock.now
            do {
                _ = try request.sendBlocking()
                return (ContinuousClock.now - start, nil)
            } catch let failure as HTTPExchange.Failure {
                return (ContinuousClock.now - start, failure)
            }
        }
        #expect(failure == .timedOut)
        #expect(elapsed < .seconds(30), "\(elapsed)")
    }
}
