import Foundation
import Hummingbird
import ServiceLifecycle
import ShowreelTestSupport
import ShowreelTesting
import Testing

@testable import ShowreelHost

#if canImport(Glibc)
import Glibc
#endif

@Suite("Shutdown leaves no orphans", .timeLimit(.minutes(10)))
struct ShutdownTests {
    @Test("cancelling an in-process host terminates its children and their process groups")
    func inProcess() async throws {
        var pids: [Int32] = []
        try await withHost(TunnelHostConfiguration(gracePeriod: .seconds(2))) { base in
            let client = TunnelHostClient(baseURL: base)
            let a = try await client.run(argv: ["sleep", "30"])
            // Ignores SIGTERM: needs the SIGKILL after the grace period.
            let b = try await client.run(argv: ["sh", "-c", "trap '' TERM; sleep 30 & echo $!; wait"])
            pids = [a.pid!, b.pid!]
            #expect(await eventually { ((try? await client.output(b.id)) ?? "").hasSuffix("\n") })
            let grandchild = Int32(try await client.output(b.id).trimmingCharacters(in: .whitespacesAndNewlines))!
            pids.append(grandchild)
            #expect(pids.allSatisfy(isAlive))
        }
        // withHost returns after the host's run() returned, which waits for the children.
        #expect(await eventually(timeout: .seconds(120)) { pids.allSatisfy { !isAlive($0) } }, "still alive: \(pids.filter(isAlive))")
    }

    @Test("a second listener stopped before the first has its port still settles: the first never waits on it")
    func extraListenerStoppedWhileStarting() async throws {
        // A stop sent while the host starts (SIGINT to a host just launched) used to end the ::1
        // listener without a word, and the 127.0.0.1 one then waited up to two minutes for it.
        let startup = ListenerStartup(extraListeners: 1)
        let listener = ExtraListener(
            address: "::1", responder: Router(context: HostRequestContext.self).buildResponder(), serverName: "test",
            startup: startup, logger: testLogger)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(services: [.init(service: listener)], logger: testLogger))
        await group.triggerGracefulShutdown()
        try await group.run()
        #expect(await startup.pending == 0)
    }

    @Test("a host stopped while it starts, before it listens, ends", arguments: [0, 2, 5, 10, 20, 40])
    func stoppedWhileStarting(afterMilliseconds delay: Int) async throws {
        let host = TunnelHost(configuration: TunnelHostConfiguration(port: 0, handlesSignals: false), logger: testLogger)
        let serving = Task { try await host.run { _ in } }
        try await Task.sleep(for: .milliseconds(delay))
        serving.cancel()
        // Bounded by the suite's time limit: a host that never ends fails the test there.
        try await serving.value
    }

    // Runs whenever the suite runs: `make test` builds the binary first, and a missing one
    // is a failure that says how to build it, never a silent skip.
    @Test("showreel host exits 0 on SIGTERM and ends the commands it launched")
    func binary() async throws {
        let host = try await HostProcess.start(["--grace", "2"])
        let process = host.process
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        #expect(host.listeningLine.hasPrefix("Tunnel host listening on http://127.0.0.1:"))
        let client = TunnelHostClient(baseURL: host.baseURL)

        // Long enough that only the host's stop can end it, however slow a loaded machine makes
        // the questions before (with 30 s it once ended by itself between launch and the check).
        let id = try await client.launch("sleep 600")
        guard case .running(let pid) = try await client.status(id) else {
            Issue.record("sleep is not running")
            return
        }
        #expect(isAlive(pid))

        kill(process.processIdentifier, SIGTERM)
        let exited = await eventually(timeout: .seconds(120)) { !process.isRunning }
        #expect(exited, "showreel host did not exit within 120 s of SIGTERM")
        if exited {
            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 0)
        }
        #expect(await eventually(timeout: .seconds(120)) { !isAlive(pid) }, "sleep (pid \(pid)) outlived the host")
    }
}
