import Foundation
import ShowreelTestSupport
import ShowreelTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The device and host clients against real sockets that misbehave: what each failure says.
@Suite("Device and host clients when the server is not there or misbehaves")
struct ClientFailureTests {
    /// A listening loopback socket that never accepts: the kernel completes the handshake and
    /// the request waits for an answer that never comes.
    final class SilentListener {
        let fd: Int32
        let port: Int

        init() throws {
            (fd, port) = try loopbackListener()
        }

        /// Accepts one connection off the pool, reads the request's first bytes, and hangs up.
        func hangUpOnce() {
            let fd = self.fd
            Thread.detachNewThread {
                let connection = accept(fd, nil, nil)
                guard connection >= 0 else { return }
                var bytes = [UInt8](repeating: 0, count: 64)
                _ = read(connection, &bytes, bytes.count)
                close(connection)
            }
        }

        deinit {
            shutdown(fd, Int32(SHUT_RDWR))  // wakes an accept still waiting
            close(fd)
        }
    }

    @Test("nothing listening is refused at once, an unknown host is named, and both say which call failed")
    func unreachable() async throws {
        // A port that was just listened on and is closed again.
        let port = try SilentListener().port
        let device = DeviceClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!)
        let refused = await #expect(throws: DeviceClient.Failure.self) { try await device.info() }
        let expected = "The device at http://127.0.0.1:\(port) did not answer GET /v1/device"
        #expect(refused?.message == expected + ": the connection was refused (nothing listens there)")
        let host = TunnelHostClient(baseURL: URL(string: "http://no-such-host.invalid:8667")!)
        let unknown = await #expect(throws: TunnelHostClient.HostError.self) { try await host.exec("true") }
        #expect(unknown?.message.contains("the host name was not found") == true, "\(String(describing: unknown))")
    }

    @Test("a server that never answers times out at the client's timeout; one that hangs up is a lost connection; a cancelled call ends")
    func misbehavingServers() async throws {
        let silent = try SilentListener()
        let waiting = TunnelHostClient(baseURL: URL(string: "http://127.0.0.1:\(silent.port)")!, requestTimeout: 1)
        let timedOut = await #expect(throws: TunnelHostClient.HostError.self) { try await waiting.exec("true") }
        #expect(timedOut?.message.contains(": the request timed out") == true, "\(String(describing: timedOut))")

        let rude = try SilentListener()
        rude.hangUpOnce()
        let hungUp = TunnelHostClient(baseURL: URL(string: "http://127.0.0.1:\(rude.port)")!, requestTimeout: 60)
        let lost = await #expect(throws: TunnelHostClient.HostError.self) { try await hungUp.exec("true") }
        #expect(lost?.message.contains(": the connection was lost") == true, "\(String(describing: lost))")

        // A task cancelled while its request waits ends then, not at the request's 600 s.
        let patient = TunnelHostClient(baseURL: URL(string: "http://127.0.0.1:\(silent.port)")!)
        let call = Task { try await patient.exec("true") }
        try await Task.sleep(for: .milliseconds(200))
        let cancelledAt = ContinuousClock.now
        call.cancel()
        let cancelled = await #expect(throws: TunnelHostClient.HostError.self) { try await call.value }
        #expect(cancelled?.message.contains(": the request was cancelled") == true, "\(String(describing: cancelled))")
        // Then, not at the request's 600 s (a loaded test process may take a while to get back).
        #expect(ContinuousClock.now - cancelledAt < .seconds(300))
    }
}
