#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connected or listening Unix-domain stream socket, with blocking, whole-buffer I/O.
///
/// The display stream moves several megabytes per frame between processes on one machine;
/// a Unix socket with plain `send`/`recv` does that at memory speed without an HTTP stack.
package final class UnixSocket: @unchecked Sendable {
    package let descriptor: Int32
    private var isClosed = false

    init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close() }

    /// Listens at `path`, replacing a stale socket file left by a crashed process.
    package static func listen(at path: String, backlog: Int32 = 16) throws -> UnixSocket {
        let socket = try make()
        unlink(path)
        var address = try socketAddress(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw WireError.system("bind \(path)", errno) }
        guard Glibc.listen(socket.descriptor, backlog) == 0 else { throw WireError.system("listen \(path)", errno) }
        return socket
    }

    package static func connect(to path: String) throws -> UnixSocket {
        let socket = try make()
        var address = try socketAddress(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket.descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else { throw WireError.system("connect to \(path)", errno) }
        return socket
    }

    /// Waits for the next client; nil once the socket was closed (server shutting down).
    package func accept() -> UnixSocket? {
        while true {
            let client = Glibc.accept(descriptor, nil, nil)
            if client >= 0 {
                var size: Int32 = 4 << 20
                setsockopt(client, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
                return UnixSocket(descriptor: client)
            }
            if errno == EINTR { continue }
            return nil
        }
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if sent < 0 {
                if errno == EINTR { continue }
                throw WireError.system("send", errno)
            }
            offset += sent
        }
    }

    package func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in try write(buffer) }
    }

    /// Fills `buffer` completely; false when the peer closed before the first byte.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Bool {
        var offset = 0
        while offset < buffer.count {
            let received = recv(descriptor, buffer.baseAddress! + offset, buffer.count - offset, 0)
            if received == 0 {
                if offset == 0 { return false }
                throw WireError.truncated
            }
            if received < 0 {
                if errno == EINTR { continue }
                throw WireError.system("recv", errno)
            }
            offset += received
        }
        return true
    }

    package func read(count: Int) throws -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let complete = try bytes.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            try read(into: buffer)
        }
        return complete ? bytes : nil
    }

    /// Wakes a thread blocked in `accept` or `recv` on this socket, then closes it.
    package func shutdownAndClose() {
        Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
        close()
    }

    package func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(descriptor)
    }

    /// A connected pair, closed on exec: this process's end, and the other end's bare descriptor
    /// for a child's standard stream (the spawn duplicates it there, which keeps it open across
    /// the exec, and closes the descriptor itself).
    package static func pairForChild() throws -> (own: UnixSocket, child: Int32) {
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw WireError.system("socketpair", errno)
        }
        return (UnixSocket(descriptor: ends[0]), ends[1])
    }

    private static func make() throws -> UnixSocket {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw WireError.system("socket", errno) }
        return UnixSocket(descriptor: fd)
    }

    private static func socketAddress(_ path: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw WireError.pathTooLong(path, limit: capacity - 1) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }
}
