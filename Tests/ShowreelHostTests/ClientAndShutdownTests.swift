import Foundation
import Testing
import ShowreelTesting
@testable import ShowreelHost
#if canImport(Glibc)
import Glibc
#endif

@Suite("TunnelHostClient against a running host", .timeLimit(.minutes(3)))
struct TunnelHostClientTests {
    @Test("legacy calls")
    func legacyCalls() async throws {
        try await withHost { base in
            let client = TunnelHostClient(baseURL: base)
            #expect(try await client.exec(#"printf '%s\n' "a b" c"#) == "a b\nc\n")
            #expect(try await client.exec("") == "")
            await #expect(throws: TunnelHostClient.HostError.self) { try await client.exec("no-such-program-7f3a") }

            let id = try await client.launch("sleep 30")
            guard case .running(let pid) = try await client.status(id) else {
                Issue.record("expected running")
                return
            }
            #expect(isAlive(pid))
            let interrupted = try await client.interrupt(id)
            #expect(interrupted == .finished(status: 2, reason: .uncaughtSignal, stdout: "", stderr: ""))

            let echo = try await client.launch(#"sh -c 'echo out; echo err >&2'"#)
            #expect(try await client.waitUntilFinished(echo, timeout: .seconds(10)) == .finished(status: 0, reason: .exit, stdout: "out\n", stderr: "err\n"))

            let sleeper = try await client.launch("sleep 30")
            #expect(try await client.terminate(sleeper) == .finished(status: 15, reason: .uncaughtSignal, stdout: "", stderr: ""))

            await #expect(throws: TunnelHostClient.HostError.self) { try await client.status(UUID()) }
        }
    }

    @Test("v1 calls")
    func v1Calls() async throws {
        try await withHost(TunnelHostConfiguration(token: "t0ken")) { base in
            var client = TunnelHostClient(baseURL: base, token: "t0ken")
            #expect(try await client.health().status == "ok")
            #expect(try await client.exec("echo legacy") == "legacy\n")
            let done = try await client.run(argv: ["echo", "hi"], wait: true)
            #expect(done.exitCode == 0 && done.stdout == "hi\n")

            let running = try await client.run(argv: ["sleep", "30"])
            #expect(running.isRunning)
            #expect(try await client.commands().contains { $0.id == running.id })
            let stopped = try await client.interrupt(running.id, wait: true)
            #expect(stopped.state == "finished" && stopped.signal == 2)

            let chatty = try await client.run(argv: ["seq", "1", "50000"])
            let all = try await client.output(chatty.id, follow: true)
            #expect(all.split(separator: "\n").count == 50000)

            client.token = nil
            await #expect(throws: TunnelHostClient.HostError.self) { try await client.commands() }
            await #expect(throws: TunnelHostClient.HostError.self) { try await client.exec("echo legacy") }
        }
    }
}

@Suite("Shutdown leaves no orphans", .timeLimit(.minutes(3)))
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
        #expect(await eventually(timeout: .seconds(15)) { pids.allSatisfy { !isAlive($0) } }, "still alive: \(pids.filter(isAlive))")
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

        let id = try await client.launch("sleep 30")
        guard case .running(let pid) = try await client.status(id) else {
            Issue.record("sleep is not running")
            return
        }
        #expect(isAlive(pid))

        kill(process.processIdentifier, SIGTERM)
        let exited = await eventually(timeout: .seconds(15)) { !process.isRunning }
        #expect(exited, "showreel host did not exit within 15 s of SIGTERM")
        if exited {
            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 0)
        }
        #expect(await eventually(timeout: .seconds(15)) { !isAlive(pid) }, "sleep (pid \(pid)) outlived the host")
    }
}
