import Foundation
import ShowreelWire

#if canImport(Glibc)
import Glibc
#endif

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A test's request sent the way the clients send theirs (`HTTPExchange`, not URLSession, whose
/// Linux requests can stall in a busy process), answered as URLSession would answer it.
public func httpData(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
    guard let url = request.url else { throw TestFailure("a request without a URL") }
    let exchange = HTTPExchange(
        request.httpMethod ?? "GET", url, headers: (request.allHTTPHeaderFields ?? [:]).map { ($0.key, $0.value) },
        body: request.httpBody, timeout: .seconds(request.timeoutInterval))
    let response = try await exchange.send()
    guard let answer = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: response.headers)
    else { throw TestFailure("no response for \(url)") }
    return (response.body, answer)
}

/// A TCP socket listening on 127.0.0.1 at a port the kernel picked: its descriptor and port.
/// Until something accepts, the kernel still takes connections and their requests, and
/// nothing answers them.
public func loopbackListener(backlog: Int32 = 8) throws -> (descriptor: Int32, port: Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound, listen(fd, backlog) == 0 else {
        close(fd)
        throw TestFailure("cannot listen on loopback")
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}
